// Planning, time travel and schema evolution over tables written in memory with real files.
#include "scan/table_scan.h"

#include <gtest/gtest.h>

#include "scan/scan_test_util.h"
#include "scan/snapshot_selection.h"
#include "types/temporal.h"

namespace floe {
namespace {

using testing::RowStrings;
using testing::TestTable;

std::vector<std::string> ReadTableRows(TestTable& t, ScanOptions options = {}) {
  auto rows = ReadTable(t.io(), t.metadata(), options);
  EXPECT_TRUE(rows) << rows.error().ToString();
  return rows ? RowStrings(*rows) : std::vector<std::string>{"<error>"};
}

Schema Events() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "day", Type::Date(), false, ""},
                    NestedField{3, "amount", Type::Double(), false, ""}});
}

ColumnBatch EventRows(int32_t day, int64_t first_id, int n) {
  ColumnBatch b(Events());
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(b.AppendRow({Literal::Long(first_id + i), Literal::Date(day), Literal::Double(i * 10.0)}));
  return b;
}

// Ten commits, one day each, one manifest each; then filters of several kinds.
class DayPartitioned : public ::testing::Test {
 protected:
  DayPartitioned() : t_(Events(), PartitionSpec(0, {PartitionField{2, 1000, "day", Transform::Identity()}})) {}
  void SetUp() override {
    for (int d = 0; d < 10; ++d) {
      int32_t day = kDay0 + d;
      auto f = t_.WriteData(EventRows(day, d * 100, 5), {Literal::Date(day)});
      ASSERT_TRUE(f) << f.error().ToString();
      auto s = t_.Commit({*f});
      ASSERT_TRUE(s) << s.error().ToString();
      snapshots_.push_back(*s);
    }
  }
  static constexpr int32_t kDay0 = 19723;  // 2024-01-01
  TestTable t_;
  std::vector<int64_t> snapshots_;
};

TEST_F(DayPartitioned, OneDayFilterOpensOneManifest) {
  ScanOptions o;
  o.filter_text = "day = '2024-01-04'";
  auto plan = PlanScan(t_.io(), t_.metadata(), o);
  ASSERT_TRUE(plan) << plan.error().ToString();
  EXPECT_EQ(plan->stats.manifest_lists_read, 1);
  EXPECT_EQ(plan->stats.manifests_total, 10);
  EXPECT_EQ(plan->stats.manifests_opened, 1);
  EXPECT_EQ(plan->stats.manifests_pruned, 9);
  ASSERT_EQ(plan->tasks.size(), 1u);
  EXPECT_EQ(plan->tasks[0].residual->op(), Op::kTrue);  // the partition decides the whole filter
  o.columns = {"id"};
  EXPECT_EQ(ReadTableRows(t_, o), (std::vector<std::string>{"300", "301", "302", "303", "304"}));
}

TEST_F(DayPartitioned, RangeFilterAndResidual) {
  ScanOptions o;
  o.filter_text = "day >= '2024-01-09' AND amount > 25";
  o.columns = {"id"};
  auto plan = PlanScan(t_.io(), t_.metadata(), o);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->stats.manifests_opened, 2);
  ASSERT_EQ(plan->tasks.size(), 2u);
  EXPECT_NE(plan->tasks[0].residual->op(), Op::kTrue);
  EXPECT_EQ(ReadTableRows(t_, o), (std::vector<std::string>{"803", "804", "903", "904"}));
}

TEST_F(DayPartitioned, MetricsPruneFilesPartitionsCannot) {
  ScanOptions o;
  o.filter_text = "id = 512";  // no file holds it: every manifest is opened, every file pruned
  auto plan = PlanScan(t_.io(), t_.metadata(), o);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->stats.manifests_opened, 10);
  EXPECT_EQ(plan->stats.data_files_pruned_by_metrics, 10);
  EXPECT_TRUE(plan->tasks.empty());
  o.filter_text = "id = 502";
  auto one = PlanScan(t_.io(), t_.metadata(), o);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->tasks.size(), 1u);
}

TEST_F(DayPartitioned, TimeTravelByIdTimeAndRef) {
  ScanOptions by_id;
  by_id.snapshot_id = snapshots_[2];
  by_id.columns = {"id"};
  EXPECT_EQ(ReadTableRows(t_, by_id).size(), 15u);

  const Snapshot* third = t_.metadata().SnapshotById(snapshots_[2]);
  ScanOptions as_of;
  as_of.as_of_ms = third->timestamp_ms + 999;  // before the fourth commit
  auto chosen = SelectSnapshot(t_.metadata(), as_of);
  ASSERT_TRUE(chosen);
  EXPECT_EQ((*chosen)->snapshot_id, snapshots_[2]);
  EXPECT_EQ(ReadTableRows(t_, as_of).size(), 15u);
  as_of.as_of_ms = t_.metadata().snapshots.front().timestamp_ms - 1;
  auto before = ReadTable(t_.io(), t_.metadata(), as_of);
  ASSERT_FALSE(before);
  EXPECT_EQ(before.error().kind, ErrorKind::kNotFound);

  t_.mutable_metadata().refs["v1"] = SnapshotRef{snapshots_[0], RefType::kTag, {}, {}, {}};
  t_.mutable_metadata().refs["audit"] = SnapshotRef{snapshots_[4], RefType::kBranch, {}, {}, {}};
  ScanOptions tag;
  tag.ref = "v1";
  EXPECT_EQ(ReadTableRows(t_, tag).size(), 5u);
  ScanOptions branch;
  branch.ref = "audit";
  EXPECT_EQ(ReadTableRows(t_, branch).size(), 25u);
  ScanOptions unknown;
  unknown.ref = "nope";
  EXPECT_FALSE(ReadTable(t_.io(), t_.metadata(), unknown));
  ScanOptions two;
  two.ref = "v1";
  two.snapshot_id = snapshots_[0];
  auto both = ReadTable(t_.io(), t_.metadata(), two);
  ASSERT_FALSE(both);
  EXPECT_EQ(both.error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(DayPartitioned, RemovedFilesAreNotRead) {
  auto tasks = PlanFiles(t_.io(), t_.metadata(), {});
  ASSERT_TRUE(tasks);
  ASSERT_TRUE(t_.Commit({}, {(*tasks)[0].file.file_path}, "delete"));
  EXPECT_EQ(ReadTableRows(t_).size(), 45u);
  ScanOptions before;
  before.snapshot_id = snapshots_.back();
  EXPECT_EQ(ReadTableRows(t_, before).size(), 50u);
}

// Rows in the order given (RowStrings sorts): a scan's output order is what a user diffs.
std::vector<std::string> RowsInOrder(const ColumnBatch& batch) {
  std::vector<std::string> out;
  for (size_t r = 0; r < batch.num_rows; ++r) out.push_back(batch.columns[0].Get(r).ToString());
  return out;
}

TEST_F(DayPartitioned, ReadTasksKeepsTaskOrderAtAnyParallelism) {
  auto plan = PlanScan(t_.io(), t_.metadata(), {});
  ASSERT_TRUE(plan) << plan.error().ToString();
  ASSERT_EQ(plan->tasks.size(), 10u);
  std::vector<std::string> sequential;
  for (const FileScanTask& task : plan->tasks) {
    auto rows = ReadTask(t_.io(), t_.metadata(), task, plan->projection);
    ASSERT_TRUE(rows) << rows.error().ToString();
    for (auto& r : RowsInOrder(*rows)) sequential.push_back(r);
  }
  for (int parallelism : {1, 2, 3, 8, 32}) {
    std::vector<std::string> got;
    std::vector<size_t> order;
    auto st = ReadTasks(t_.io(), t_.metadata(), *plan, parallelism, [&](size_t i, ColumnBatch&& rows) -> Result<bool> {
      order.push_back(i);
      for (auto& r : RowsInOrder(rows)) got.push_back(r);
      return true;
    });
    ASSERT_TRUE(st) << st.error().ToString();
    EXPECT_EQ(got, sequential) << "parallelism " << parallelism;
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    ScanOptions o;
    o.read_parallelism = parallelism;
    auto all = ReadTable(t_.io(), t_.metadata(), o);
    ASSERT_TRUE(all) << all.error().ToString();
    EXPECT_EQ(RowsInOrder(*all), sequential) << "parallelism " << parallelism;
  }
}

TEST_F(DayPartitioned, ReadTasksStopsAtTheFirstMissingFileAndNamesIt) {
  auto plan = PlanScan(t_.io(), t_.metadata(), {});
  ASSERT_TRUE(plan) << plan.error().ToString();
  const std::string lost = plan->tasks[6].file.file_path;
  ASSERT_TRUE(t_.io().Delete(lost));
  ASSERT_TRUE(t_.io().Delete(plan->tasks[8].file.file_path));  // a later failure is not the one reported
  std::vector<size_t> order;
  auto st = ReadTasks(t_.io(), t_.metadata(), *plan, 4, [&](size_t i, ColumnBatch&&) -> Result<bool> {
    order.push_back(i);
    return true;
  });
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kNotFound) << st.error().ToString();
  EXPECT_NE(st.error().message.find(lost), std::string::npos) << st.error().message;
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  ScanOptions o;
  o.read_parallelism = 4;
  auto all = ReadTable(t_.io(), t_.metadata(), o);
  ASSERT_FALSE(all);
  EXPECT_NE(all.error().message.find(lost), std::string::npos) << all.error().message;
}

TEST(TableScan, EmptyTableReadsNoRows) {
  TestTable t(Events());
  auto rows = ReadTable(t.io(), t.metadata(), {});
  ASSERT_TRUE(rows) << rows.error().ToString();
  EXPECT_EQ(rows->num_rows, 0u);
  EXPECT_EQ(rows->fields.size(), 3u);
}

TEST(TableScan, BadFilterNamesTheColumn) {
  TestTable t(Events());
  ScanOptions o;
  o.filter_text = "nosuch = 1";
  auto plan = PlanScan(t.io(), t.metadata(), o);
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().message.find("nosuch"), std::string::npos) << plan.error().message;
}

// Schema evolution: rename, drop, add, promote (int -> long); projection by field id.
TEST(TableScan, SchemaEvolutionProjectsByFieldId) {
  Schema v0(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "name", Type::String(), false, ""},
                NestedField{3, "old", Type::String(), false, ""}, NestedField{4, "n", Type::Int(), false, ""}});
  TestTable t(v0);
  ColumnBatch a(v0);
  ASSERT_TRUE(a.AppendRow({Literal::Long(1), Literal::String("a"), Literal::String("gone"), Literal::Int(7)}));
  auto fa = t.WriteData(a);
  ASSERT_TRUE(fa) << fa.error().ToString();
  auto s1 = t.Commit({*fa});
  ASSERT_TRUE(s1);

  // name -> full_name, drop old, n becomes long, add score.
  Schema v1(1, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "full_name", Type::String(), false, ""},
                NestedField{4, "n", Type::Long(), false, ""}, NestedField{5, "score", Type::Double(), false, ""}});
  t.EvolveSchema(v1);
  ColumnBatch b(v1);
  ASSERT_TRUE(b.AppendRow({Literal::Long(2), Literal::String("b"), Literal::Long(1'000'000'000'000), Literal::Double(1.5)}));
  auto fb = t.WriteData(b);
  ASSERT_TRUE(fb);
  ASSERT_TRUE(t.Commit({*fb}));

  auto now = ReadTable(t.io(), t.metadata(), {});
  ASSERT_TRUE(now) << now.error().ToString();
  ASSERT_EQ(now->fields.size(), 4u);
  EXPECT_EQ(now->fields[1].name, "full_name");
  EXPECT_EQ(now->fields[2].type->id(), TypeId::kLong);
  EXPECT_EQ(RowStrings(*now), (std::vector<std::string>{"1|a|7|NULL", "2|b|1000000000000|1.5"}));

  ScanOptions renamed;
  renamed.filter_text = "full_name = 'a'";
  EXPECT_EQ(ReadTableRows(t, renamed), (std::vector<std::string>{"1|a|7|NULL"}));
  ScanOptions added;
  added.filter_text = "score IS NULL";
  added.columns = {"id"};
  EXPECT_EQ(ReadTableRows(t, added), (std::vector<std::string>{"1"}));

  // Time travel to the first snapshot reads with that snapshot's schema (old names, dropped column).
  ScanOptions first;
  first.snapshot_id = *s1;
  auto then = ReadTable(t.io(), t.metadata(), first);
  ASSERT_TRUE(then) << then.error().ToString();
  ASSERT_EQ(then->fields.size(), 4u);
  EXPECT_EQ(then->fields[1].name, "name");
  EXPECT_EQ(then->fields[2].name, "old");
  EXPECT_EQ(RowStrings(*then), (std::vector<std::string>{"1|a|gone|7"}));
}

TEST(TableScan, ColumnAddedWithInitialDefaultReadsItInOlderFiles) {
  // Format 3: a column added with initial-default 7 reads 7 in files written before it existed;
  // a filter on it sees that value, and a file holding a null keeps the null.
  Schema v0(0, {NestedField{1, "id", Type::Long(), true, ""}});
  TestTable t(v0, PartitionSpec::Unpartitioned(), 3);
  ColumnBatch a(v0);
  ASSERT_TRUE(a.AppendRow({Literal::Long(1)}));
  auto fa = t.WriteData(a);
  ASSERT_TRUE(fa) << fa.error().ToString();
  ASSERT_TRUE(t.Commit({*fa}));

  NestedField level{2, "level", Type::Int(), false, ""};
  level.initial_default = "7";
  level.write_default = "7";
  Schema v1(1, {NestedField{1, "id", Type::Long(), true, ""}, level});
  t.EvolveSchema(v1);
  ColumnBatch b(v1);
  ASSERT_TRUE(b.AppendRow({Literal::Long(2), Literal::Int(3)}));
  ASSERT_TRUE(b.AppendRow({Literal::Long(3), Literal::Null(Type::Int())}));
  auto fb = t.WriteData(b);
  ASSERT_TRUE(fb);
  ASSERT_TRUE(t.Commit({*fb}));

  EXPECT_EQ(ReadTableRows(t, {}), (std::vector<std::string>{"1|7", "2|3", "3|NULL"}));
  ScanOptions seven;
  seven.filter_text = "level = 7";
  EXPECT_EQ(ReadTableRows(t, seven), (std::vector<std::string>{"1|7"}));

  // A default that is not a value of the field's type is an error naming the field, not a null.
  t.mutable_metadata().schemas.back() = Schema(1, {NestedField{1, "id", Type::Long(), true, ""},
                                                   NestedField{2, "level", Type::Int(), false, "", "\"x\"", {}}});
  auto bad = ReadTable(t.io(), t.metadata(), {});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("field 'level': initial-default"), std::string::npos) << bad.error().message;
}

TEST(TableScan, SelectColumnsKeepsOrderAndPrunesStructs) {
  Schema s(0, {NestedField{1, "a", Type::Long(), false, ""},
               NestedField{2, "s", Type::Struct({NestedField{3, "x", Type::Int(), false, ""}, NestedField{4, "y", Type::Int(), false, ""}}), false, ""},
               NestedField{5, "b", Type::String(), false, ""}});
  auto sel = SelectColumns(s, {"b", "s.y", "a"}, true);
  ASSERT_TRUE(sel) << sel.error().ToString();
  ASSERT_EQ(sel->fields().size(), 3u);
  EXPECT_EQ(sel->fields()[0].name, "b");
  EXPECT_EQ(sel->fields()[1].type->fields().size(), 1u);
  EXPECT_EQ(sel->fields()[1].type->fields()[0].name, "y");
  EXPECT_FALSE(SelectColumns(s, {"A"}, true));
  EXPECT_TRUE(SelectColumns(s, {"A"}, false));
}

}  // namespace
}  // namespace floe
