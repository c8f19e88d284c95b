// Task slices: a large file cut into ranges of rows gives the rows of the whole-file read, in
// the same order, with position deletes (which need each row's position in the file), equality
// deletes, residual filters and limits applied, whether its row groups can be streamed or not.
#include "scan/task_slices.h"

#include <gtest/gtest.h>

#include <limits>

#include "scan/file_source.h"
#include "scan/scan_test_util.h"
#include "scan/task_stream.h"

namespace floe {
namespace {

using testing::TestTable;

Schema SlicedSchema(bool with_struct) {
  std::vector<NestedField> fields = {NestedField{1, "id", Type::Long(), true, ""},
                                     NestedField{2, "note", Type::String(), false, ""}};
  if (with_struct)
    fields.push_back(NestedField{3, "s", Type::Struct({NestedField{4, "x", Type::Long(), false, ""}}), false, ""});
  return Schema(0, std::move(fields));
}

std::vector<int64_t> Ids(const ColumnBatch& batch) {
  std::vector<int64_t> out;
  for (size_t r = 0; r < batch.num_rows; ++r) out.push_back(batch.columns[0].longs[r]);
  return out;
}

// One data file of `rows` rows in row groups of 4,096 rows (pages of a few hundred),
// a small second file, position deletes at row-group edges and elsewhere, and an equality
// delete of every row whose note is 'n3'.
class Sliced : public ::testing::TestWithParam<bool> {  // param: the file has a struct column
 protected:
  Sliced() : t_(SlicedSchema(GetParam())) {}

  void Make(int rows) {
    t_.writer_properties = {{"write.parquet.row-group-size-bytes", "4000"}, {"write.parquet.page-size-bytes", "2000"}};
    const Schema schema = SlicedSchema(GetParam());
    std::vector<DataFile> files;
    for (int n : {rows, 50}) {
      ColumnBatch b(schema);
      for (int i = 0; i < n; ++i) {
        int64_t id = static_cast<int64_t>(files.size()) * 10000000 + i;
        std::vector<Literal> row = {Literal::Long(id), i % 11 == 0 ? Literal::Null(Type::String())
                                                                    : Literal::String("n" + std::to_string(i % 10))};
        if (GetParam()) row.push_back(Literal::Null(schema.fields()[2].type));  // makes the row group unstreamable
        ASSERT_TRUE(b.AppendRow(row));
      }
      auto f = t_.WriteData(b);
      ASSERT_TRUE(f) << f.error().ToString();
      files.push_back(*f);
    }
    ASSERT_TRUE(t_.Commit(files));
    auto pq = OpenParquetFile(t_.io(), files[0].file_path);
    ASSERT_TRUE(pq);
    ASSERT_GT((*pq)->num_row_groups(), 3) << "the test needs several row groups";
    // Positions: the first and last rows, each row-group edge, and every 97th row.
    std::vector<std::pair<std::string, int64_t>> gone = {{files[0].file_path, 0}, {files[0].file_path, rows - 1}};
    int64_t edge = 0;
    for (const auto& rg : (*pq)->metadata().row_groups) {
      edge += rg.num_rows;
      if (edge >= rows) continue;
      gone.push_back({files[0].file_path, edge - 1});
      gone.push_back({files[0].file_path, edge});
    }
    for (int64_t p = 5; p < rows; p += 97) gone.push_back({files[0].file_path, p});
    gone.push_back({files[1].file_path, 7});
    auto positions = t_.WritePositionDeletes(gone);
    ColumnBatch keys(Schema(0, {NestedField{2, "note", Type::String(), false, ""}}));
    ASSERT_TRUE(keys.AppendRow({Literal::String("n3")}));
    auto equality = t_.WriteEqualityDeletes(keys, {2});
    ASSERT_TRUE(positions && equality);
    ASSERT_TRUE(t_.Commit({*positions, *equality}, {}, "delete"));
  }

  ScanPlan Plan(const std::string& filter, std::optional<int64_t> limit = {}) {
    ScanOptions o;
    o.filter_text = filter;
    o.limit = limit;
    auto plan = PlanScan(t_.io(), t_.metadata(), o);
    EXPECT_TRUE(plan) << plan.error().ToString();
    return plan ? *plan : ScanPlan{};
  }

  // The rows of ReadTask, task by task: the whole-file path.
  std::vector<int64_t> Whole(const ScanPlan& plan) {
    std::vector<int64_t> out;
    for (const FileScanTask& task : plan.tasks) {
      auto rows = ReadTask(t_.io(), t_.metadata(), task, plan.projection);
      EXPECT_TRUE(rows) << rows.error().ToString();
      if (rows)
        for (int64_t id : Ids(*rows)) out.push_back(id);
    }
    return out;
  }

  // The rows of the slices, read one after the other with their task's deletes shared.
  std::vector<int64_t> BySlices(const ScanPlan& plan, const std::vector<TaskSlice>& slices, bool share_deletes) {
    std::vector<int64_t> out;
    SharedTaskDeletes deletes(slices);
    DeleteFileCache cache;
    for (const TaskSlice& s : slices) {
      const FileScanTask& task = plan.tasks[s.task];
      std::shared_ptr<const TaskDeletes> d;
      if (share_deletes) {
        auto got = deletes.Get(t_.io(), t_.metadata(), task, s.task, &cache);
        EXPECT_TRUE(got) << got.error().ToString();
        if (got) d = *got;
      }
      auto st = ReadTaskBatches(
          t_.io(), t_.metadata(), task, plan.projection, &cache, -1,
          [&](ColumnBatch&& rows) {
            for (int64_t id : Ids(rows)) out.push_back(id);
            return true;
          },
          {.row_begin = s.row_begin, .row_end = s.row_end, .deletes = d.get()});
      EXPECT_TRUE(st) << st.error().ToString();
      deletes.Done(s.task);
    }
    return out;
  }

  // The rows StreamTasks hands back on `parallelism` threads, with slices of `slice_rows`.
  std::vector<int64_t> Streamed(const ScanPlan& plan, int parallelism, int64_t slice_rows) {
    std::vector<int64_t> got;
    auto st = StreamTasks<ColumnBatch>(
        t_.io(), t_.metadata(), plan, parallelism,
        [](ColumnBatch&& rows, const PartSink<ColumnBatch>& emit) -> Status {
          emit(std::move(rows));
          return Ok();
        },
        [&](ColumnBatch&& rows) -> Result<bool> {
          for (int64_t id : Ids(rows)) got.push_back(id);
          return true;
        },
        slice_rows);
    EXPECT_TRUE(st) << st.error().ToString();
    return got;
  }

  TestTable t_;
};

const char* const kSliceFilters[] = {"", "id > 3000 AND id < 17000", "note = 'n5'", "note IS NULL OR id < 10"};

TEST_P(Sliced, SlicesGiveTheWholeFileRowsInOrder) {
  Make(20000);
  for (const char* filter : kSliceFilters) {
    ScanPlan plan = Plan(filter);
    std::vector<int64_t> want = Whole(plan);
    ASSERT_FALSE(want.empty()) << filter;
    for (int64_t slice_rows : {999, 4567, 6667, 20000}) {
      std::vector<TaskSlice> slices = SliceTasks(plan, 2, slice_rows);
      if (slice_rows < 10000) EXPECT_GT(slices.size(), plan.tasks.size()) << slice_rows;
      for (bool share : {true, false})
        EXPECT_EQ(BySlices(plan, slices, share), want) << filter << ", slices of " << slice_rows << ", shared " << share;
    }
  }
}

TEST_P(Sliced, AWrongRecordCountChangesTheCutsNotTheRows) {
  Make(20000);
  ScanPlan plan = Plan("id > 100");
  std::vector<int64_t> want = Whole(plan);
  for (int64_t claimed : {int64_t{0}, int64_t{-5}, int64_t{3000}, int64_t{123456789}, int64_t{1} << 62}) {
    plan.tasks[0].file.record_count = claimed;
    EXPECT_EQ(BySlices(plan, SliceTasks(plan, 2, 1000), true), want) << "record count " << claimed;
  }
}

TEST_P(Sliced, StreamTasksAtAnyParallelismGivesTheWholeFileRows) {
  Make(60000);
  constexpr int64_t kRows = 7000;  // slices of the test: 9 of the big file
  for (const char* filter : kSliceFilters) {
    ScanPlan plan = Plan(filter);
    ASSERT_GT(SliceTasks(plan, 2, kRows).size(), plan.tasks.size()) << "the big file is cut";
    std::vector<int64_t> want = Whole(plan);
    for (int parallelism : {1, 2, 3})
      EXPECT_EQ(Streamed(plan, parallelism, kRows), want) << filter << ", parallelism " << parallelism;
  }
  ScanPlan all = Plan("");
  std::vector<int64_t> every = Whole(all);
  for (int64_t limit : {1, 7000, 40000}) {
    EXPECT_EQ(Streamed(Plan("", limit), 2, kRows), std::vector<int64_t>(every.begin(), every.begin() + limit))
        << "limit " << limit;
  }
}

INSTANTIATE_TEST_SUITE_P(FlatAndStruct, Sliced, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "WithStruct" : "Flat"; });

// How tasks are cut: only large local files on several threads without a limit, into ranges
// that cover the file once, in order, the last reaching the end of the file.
TEST(SliceTasks, CutsOnlyLargeLocalFilesOnSeveralThreads) {
  ScanPlan plan;
  for (int64_t rows : {int64_t{10}, 2 * kSliceRows - 1, 2 * kSliceRows, 5 * kSliceRows + 3}) {
    FileScanTask t;
    t.file.file_path = "/w/f" + std::to_string(rows) + ".parquet";
    t.file.record_count = rows;
    plan.tasks.push_back(t);
  }
  plan.tasks.push_back(plan.tasks.back());
  plan.tasks.back().file.file_path = "s3://bucket/w/big.parquet";

  std::vector<TaskSlice> slices = SliceTasks(plan, 2);
  std::map<size_t, std::vector<TaskSlice>> by_task;
  for (const TaskSlice& s : slices) by_task[s.task].push_back(s);
  ASSERT_EQ(by_task.size(), plan.tasks.size());
  EXPECT_EQ(by_task[0].size(), 1u);
  EXPECT_EQ(by_task[1].size(), 1u);
  EXPECT_EQ(by_task[2].size(), 2u);
  EXPECT_EQ(by_task[3].size(), 6u);
  EXPECT_EQ(by_task[4].size(), 1u) << "an object store's file is not cut";
  for (auto& [task, parts] : by_task) {
    EXPECT_EQ(parts.front().row_begin, 0);
    EXPECT_EQ(parts.back().row_end, -1);
    for (size_t k = 1; k < parts.size(); ++k) {
      EXPECT_EQ(parts[k].row_begin, parts[k - 1].row_end) << "task " << task;
      EXPECT_LE(parts[k - 1].row_end - parts[k - 1].row_begin, kSliceRows) << "task " << task;
    }
  }
  for (size_t k = 1; k < slices.size(); ++k) EXPECT_LE(slices[k - 1].task, slices[k].task) << "task order";

  EXPECT_EQ(SliceTasks(plan, 1).size(), plan.tasks.size()) << "one thread";
  ScanPlan many = plan;
  while (many.tasks.size() < 8) many.tasks.push_back(plan.tasks[3]);
  EXPECT_EQ(SliceTasks(many, 2).size(), many.tasks.size()) << "4 files a thread keep the threads busy uncut";
  EXPECT_GT(SliceTasks(many, 3).size(), many.tasks.size());
  plan.limit = 10;
  EXPECT_EQ(SliceTasks(plan, 2).size(), plan.tasks.size()) << "a limit reads one task at a time";
}

// A manifest is another engine's file: a record count near INT64_MAX must neither overflow the
// cut arithmetic nor make more than a bounded number of slices.
TEST(SliceTasks, AnAbsurdRecordCountIsCutIntoBoundedSlices) {
  ScanPlan plan;
  FileScanTask t;
  t.file.file_path = "/w/claims-everything.parquet";
  t.file.record_count = std::numeric_limits<int64_t>::max();
  plan.tasks.push_back(t);
  std::vector<TaskSlice> slices = SliceTasks(plan, 2);
  ASSERT_GT(slices.size(), 1u);
  EXPECT_LE(slices.size(), 4096u);
  EXPECT_EQ(slices.front().row_begin, 0);
  EXPECT_EQ(slices.back().row_end, -1);
  for (size_t k = 1; k < slices.size(); ++k) {
    EXPECT_EQ(slices[k].row_begin, slices[k - 1].row_end);
    EXPECT_LT(slices[k - 1].row_begin, slices[k - 1].row_end);
  }
}

}  // namespace
}  // namespace floe
