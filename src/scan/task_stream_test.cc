// StreamTasks: a scan's rows a batch at a time on several threads give the rows of ReadTask,
// task by task, in the same order, with deletes, residual filters and limits applied.
#include "scan/task_stream.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "scan/scan_test_util.h"

namespace floe {
namespace {

using testing::TestTable;

Schema StreamedOrders() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "day", Type::Date(), false, ""},
                    NestedField{3, "note", Type::String(), false, ""}});
}

constexpr int32_t kStreamDay0 = 19723;  // 2024-01-01

std::vector<int64_t> StreamedIds(const ColumnBatch& batch) {
  std::vector<int64_t> out;
  for (size_t r = 0; r < batch.num_rows; ++r) out.push_back(batch.columns[0].longs[r]);
  return out;
}

// Six daily files; day 1's file holds 150,000 rows (several streamed batches), the others 50.
// Position deletes drop rows of days 1 and 4.
class Streamed : public ::testing::Test {
 protected:
  Streamed() : t_(StreamedOrders(), PartitionSpec(0, {PartitionField{2, 1000, "day", Transform::Identity()}})) {}
  void SetUp() override {
    std::vector<DataFile> files;
    for (int d = 0; d < 6; ++d) {
      ColumnBatch b(StreamedOrders());
      int rows = d == 1 ? 150000 : 50;
      for (int i = 0; i < rows; ++i) {
        Literal note = i % 7 == 0 ? Literal::Null(Type::String()) : Literal::String("n" + std::to_string(i % 100));
        ASSERT_TRUE(b.AppendRow({Literal::Long(d * 1000000 + i), Literal::Date(kStreamDay0 + d), note}));
      }
      auto f = t_.WriteData(b, {Literal::Date(kStreamDay0 + d)});
      ASSERT_TRUE(f) << f.error().ToString();
      files.push_back(*f);
    }
    ASSERT_TRUE(t_.Commit(files));
    // One position delete file per partition.
    auto del1 = t_.WritePositionDeletes({{files[1].file_path, 0}, {files[1].file_path, 70000}, {files[1].file_path, 149999}},
                                        {Literal::Date(kStreamDay0 + 1)});
    auto del4 = t_.WritePositionDeletes({{files[4].file_path, 3}}, {Literal::Date(kStreamDay0 + 4)});
    ASSERT_TRUE(del1 && del4);
    auto committed = t_.Commit({*del1, *del4}, {}, "delete");
    ASSERT_TRUE(committed) << committed.error().ToString();
  }

  // The rows of ReadTask, task by task.
  std::vector<int64_t> Sequential(const ScanPlan& plan) {
    std::vector<int64_t> out;
    for (const FileScanTask& task : plan.tasks) {
      auto rows = ReadTask(t_.io(), t_.metadata(), task, plan.projection);
      EXPECT_TRUE(rows) << rows.error().ToString();
      if (rows)
        for (int64_t id : StreamedIds(*rows)) out.push_back(id);
    }
    return out;
  }

  Result<ScanPlan> Plan(const std::string& filter, std::optional<int64_t> limit = {}) {
    ScanOptions o;
    o.filter_text = filter;
    o.limit = limit;
    return PlanScan(t_.io(), t_.metadata(), o);
  }

  TestTable t_;
};

// The batches of a streamed scan, consumed here: their ids in order and their largest size.
struct StreamSeen {
  std::vector<int64_t> ids;
  size_t largest = 0;
};

Result<StreamSeen> StreamAll(TestTable& t, const ScanPlan& plan, int parallelism) {
  StreamSeen seen;
  auto st = StreamTasks<ColumnBatch>(
      t.io(), t.metadata(), plan, parallelism,
      [](ColumnBatch&& rows, const PartSink<ColumnBatch>& emit) -> Status {
        emit(std::move(rows));
        return Ok();
      },
      [&](ColumnBatch&& rows) -> Result<bool> {
        EXPECT_GT(rows.num_rows, 0u);
        seen.largest = std::max(seen.largest, rows.num_rows);
        for (int64_t id : StreamedIds(rows)) seen.ids.push_back(id);
        return true;
      });
  if (!st) return std::unexpected(st.error());
  return seen;
}

TEST_F(Streamed, RowsAreReadTasksRowsInTaskOrderAtAnyParallelism) {
  for (const std::string filter :
       {"", "id > 1000020 AND id < 1100000 OR note = 'n5'", "note IS NULL", "day >= '2024-01-02'"}) {
    auto plan = Plan(filter);
    ASSERT_TRUE(plan) << filter << ": " << plan.error().ToString();
    std::vector<int64_t> want = Sequential(*plan);
    ASSERT_FALSE(want.empty()) << filter;
    for (int parallelism : {1, 2, 3, 8}) {
      auto seen = StreamAll(t_, *plan, parallelism);
      ASSERT_TRUE(seen) << seen.error().ToString();
      EXPECT_EQ(seen->ids, want) << filter << ", parallelism " << parallelism;
      // The 150,000-row file arrives in batches, not whole.
      EXPECT_LE(seen->largest, size_t{1} << 16) << filter;
    }
  }
}

TEST_F(Streamed, DeletedRowsAreNotReturned) {
  auto plan = Plan("");
  ASSERT_TRUE(plan);
  auto seen = StreamAll(t_, *plan, 2);
  ASSERT_TRUE(seen) << seen.error().ToString();
  EXPECT_EQ(seen->ids.size(), 5u * 50 + 150000 - 4);
  for (int64_t gone : {1000000, 1070000, 1149999, 4000003})
    EXPECT_EQ(std::count(seen->ids.begin(), seen->ids.end(), gone), 0) << gone;
}

TEST_F(Streamed, ALimitReturnsThePrefixOfTheRows) {
  auto all = Plan("");
  ASSERT_TRUE(all);
  std::vector<int64_t> every = Sequential(*all);
  for (int64_t limit : {0, 1, 49, 50, 51, 70000, 200000}) {
    auto plan = Plan("", limit);
    ASSERT_TRUE(plan) << plan.error().ToString();
    auto seen = StreamAll(t_, *plan, 0);
    ASSERT_TRUE(seen) << seen.error().ToString();
    std::vector<int64_t> want(every.begin(), every.begin() + std::min<int64_t>(limit, every.size()));
    EXPECT_EQ(seen->ids, want) << "limit " << limit;
  }
}

TEST_F(Streamed, AMissingFileIsNamedAndStopsTheScan) {
  auto plan = Plan("");
  ASSERT_TRUE(plan);
  const std::string lost = plan->tasks[2].file.file_path;
  ASSERT_TRUE(t_.io().Delete(lost));
  auto seen = StreamAll(t_, *plan, 2);
  ASSERT_FALSE(seen);
  EXPECT_EQ(seen.error().kind, ErrorKind::kNotFound) << seen.error().ToString();
  EXPECT_NE(seen.error().message.find(lost), std::string::npos) << seen.error().message;
}

}  // namespace
}  // namespace floe
