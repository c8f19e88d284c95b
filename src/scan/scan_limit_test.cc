// ScanOptions::limit: the first N rows of the scan, planning and reading only the files (and
// row groups) those rows need. Files opened are counted through a FaultInjectingFileIO with no
// rules, which only counts calls.
#include <algorithm>

#include <gtest/gtest.h>

#include "io/fault_injecting_file_io.h"
#include "scan/scan_test_util.h"
#include "scan/table_scan.h"

namespace floe {
namespace {

using testing::TestTable;

Schema LimitEvents() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "day", Type::Date(), false, ""},
                    NestedField{3, "amount", Type::Double(), false, ""}});
}

constexpr int32_t kDay0 = 19723;  // 2024-01-01
constexpr int kDays = 10;
constexpr int kRowsPerFile = 5;

// The ids of a batch's rows, in order.
std::vector<int64_t> IdsOf(const ColumnBatch& batch) {
  std::vector<int64_t> out;
  for (size_t r = 0; r < batch.num_rows; ++r) out.push_back(batch.columns[0].Get(r).AsLong());
  return out;
}

// Ten daily commits of one file (one manifest) each; amounts 0, 10, 20, 30, 40 in every file.
class Limited : public ::testing::Test {
 protected:
  Limited() : t_(LimitEvents(), PartitionSpec(0, {PartitionField{2, 1000, "day", Transform::Identity()}})) {}
  void SetUp() override {
    for (int d = 0; d < kDays; ++d) {
      ColumnBatch b(LimitEvents());
      for (int i = 0; i < kRowsPerFile; ++i)
        ASSERT_TRUE(b.AppendRow({Literal::Long(d * 100 + i), Literal::Date(kDay0 + d), Literal::Double(i * 10.0)}));
      auto f = t_.WriteData(b, {Literal::Date(kDay0 + d)});
      ASSERT_TRUE(f) << f.error().ToString();
      files_.push_back(*f);
      ASSERT_TRUE(t_.Commit({*f}));
    }
  }

  // The scan's rows without a limit, then with one: the second must be the first's prefix.
  // Returns the rows of the limited scan; *data_files_opened counts the data files it opened.
  std::vector<int64_t> CheckPrefix(ScanOptions options, int64_t limit, int64_t* data_files_opened,
                                   PlanStats* limited_stats = nullptr) {
    auto all = ReadTable(t_.io(), t_.metadata(), options);
    EXPECT_TRUE(all) << all.error().ToString();
    std::vector<int64_t> want = all ? IdsOf(*all) : std::vector<int64_t>{};
    if (static_cast<int64_t>(want.size()) > limit) want.resize(static_cast<size_t>(limit));

    FaultInjectingFileIO counting(std::shared_ptr<FileIO>(&t_.io(), [](FileIO*) {}));
    options.limit = limit;
    auto plan = PlanScan(counting, t_.metadata(), options);
    EXPECT_TRUE(plan) << plan.error().ToString();
    if (!plan) return {};
    if (limited_stats) *limited_stats = plan->stats;
    int64_t before = counting.Calls(FileOp::kNewInputFile);
    ColumnBatch got(plan->projection.fields());
    auto st = ReadTasks(counting, t_.metadata(), *plan, 0, [&](size_t, ColumnBatch&& rows) -> Result<bool> {
      got.Append(rows);
      return true;
    });
    EXPECT_TRUE(st) << st.error().ToString();
    *data_files_opened = counting.Calls(FileOp::kNewInputFile) - before;
    std::vector<int64_t> ids = IdsOf(got);
    EXPECT_EQ(ids, want);
    return ids;
  }

  TestTable t_;
  std::vector<DataFile> files_;
};

TEST_F(Limited, NoFilterPlansAndReadsOnlyTheFirstFiles) {
  ScanOptions o;
  o.planning_threads = 1;  // one manifest at a time: the count of manifests opened is exact
  int64_t opened = 0;
  PlanStats stats;
  auto ids = CheckPrefix(o, 7, &opened, &stats);
  EXPECT_EQ(ids.size(), 7u);
  EXPECT_EQ(stats.manifests_opened, 2) << "5 rows per file: the second manifest's file completes 7";
  EXPECT_EQ(stats.tasks, 2);
  EXPECT_EQ(opened, 2);

  auto one = CheckPrefix(o, 1, &opened, &stats);
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(stats.manifests_opened, 1);
  EXPECT_EQ(opened, 1);

  auto none = CheckPrefix(o, 0, &opened, &stats);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(stats.manifests_opened, 0);
  EXPECT_EQ(opened, 0);

  auto more_than_all = CheckPrefix(o, 1000, &opened, &stats);
  EXPECT_EQ(more_than_all.size(), static_cast<size_t>(kDays * kRowsPerFile));
  EXPECT_EQ(opened, kDays);
}

TEST_F(Limited, ResidualFilterPlansEveryFileButReadsOnlyWhatTheRowsNeed) {
  ScanOptions o;
  o.filter_text = "amount >= 20";  // 3 rows of each file; the partition (day) decides nothing
  int64_t opened = 0;
  PlanStats stats;
  auto ids = CheckPrefix(o, 4, &opened, &stats);
  EXPECT_EQ(ids.size(), 4u);
  EXPECT_EQ(stats.tasks, kDays) << "a residual may drop any row: planning cannot stop early";
  EXPECT_EQ(opened, 2);
}

TEST_F(Limited, DeletesAreAppliedBeforeCounting) {
  // The first manifest's file loses 3 of its 5 rows; the first 4 live rows span two files.
  const DataFile& first = files_.front();
  auto del = t_.WritePositionDeletes({{first.file_path, 0}, {first.file_path, 2}, {first.file_path, 4}},
                                     {Literal::Date(kDay0)});
  ASSERT_TRUE(del) << del.error().ToString();
  auto committed = t_.Commit({*del}, {}, "delete");
  ASSERT_TRUE(committed) << committed.error().ToString();
  ScanOptions o;
  o.planning_threads = 1;
  int64_t opened = 0;
  auto ids = CheckPrefix(o, 4, &opened);
  EXPECT_EQ(ids.size(), 4u);
  for (int64_t gone : {0, 2, 4}) EXPECT_EQ(std::count(ids.begin(), ids.end(), gone), 0) << gone;
  EXPECT_EQ(opened, 3) << "two data files and the delete file";
}

TEST(ScanLimit, StopsInsideAFile) {
  TestTable t(LimitEvents());
  ColumnBatch b(LimitEvents());
  for (int i = 0; i < 20000; ++i)
    ASSERT_TRUE(b.AppendRow({Literal::Long(i), Literal::Date(kDay0), Literal::Double(i * 0.5)}));
  auto f = t.WriteData(b);
  ASSERT_TRUE(f) << f.error().ToString();
  ASSERT_TRUE(t.Commit({*f}));
  for (int64_t limit : {int64_t{0}, int64_t{1}, int64_t{10}, int64_t{19999}, int64_t{20000}, int64_t{50000}}) {
    ScanOptions o;
    o.limit = limit;
    auto rows = ReadTable(t.io(), t.metadata(), o);
    ASSERT_TRUE(rows) << rows.error().ToString();
    std::vector<int64_t> ids = IdsOf(*rows);
    ASSERT_EQ(ids.size(), static_cast<size_t>(std::min<int64_t>(limit, 20000))) << "limit " << limit;
    for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], static_cast<int64_t>(i));
    o.filter_text = "amount >= 5000";  // rows 10000 on
    rows = ReadTable(t.io(), t.metadata(), o);
    ASSERT_TRUE(rows) << rows.error().ToString();
    ids = IdsOf(*rows);
    ASSERT_EQ(ids.size(), static_cast<size_t>(std::min<int64_t>(limit, 10000))) << "limit " << limit;
    for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], static_cast<int64_t>(10000 + i));
  }
}

// Position deletes across the batches a limited read streams a row group in: each batch's
// rows must be matched to their own file positions.
TEST(ScanLimit, PositionDeletesAcrossStreamedBatches) {
  TestTable t(LimitEvents());
  ColumnBatch b(LimitEvents());
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(b.AppendRow({Literal::Long(i), Literal::Date(kDay0), Literal::Double(i)}));
  auto f = t.WriteData(b);
  ASSERT_TRUE(f) << f.error().ToString();
  ASSERT_TRUE(t.Commit({*f}));
  const std::vector<int64_t> gone = {0, 1500, 3000, 4001};
  std::vector<std::pair<std::string, int64_t>> deletes;
  for (int64_t pos : gone) deletes.emplace_back(f->file_path, pos);
  auto del = t.WritePositionDeletes(deletes);
  ASSERT_TRUE(del) << del.error().ToString();
  auto committed = t.Commit({*del}, {}, "delete");
  ASSERT_TRUE(committed) << committed.error().ToString();
  std::vector<int64_t> want;
  for (int64_t i = 0; i < 5000 && want.size() < 4000; ++i)
    if (std::find(gone.begin(), gone.end(), i) == gone.end()) want.push_back(i);
  ScanOptions o;
  o.limit = 4000;  // streamed in batches of 4,000 rows: the deletes fall in both
  auto rows = ReadTable(t.io(), t.metadata(), o);
  ASSERT_TRUE(rows) << rows.error().ToString();
  EXPECT_EQ(IdsOf(*rows), want);
}

}  // namespace
}  // namespace floe
