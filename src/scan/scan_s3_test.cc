// Scans on S3 (moto, scripts/s3.sh): planning and ReadTasks with several requests in flight give
// the rows of a one-at-a-time read, in the same order, and a missing data file stops the scan
// naming it. A table written in memory is copied to a fresh S3 prefix and read through a
// FileIO that maps its paths there.
#include <gtest/gtest.h>

#include "io/s3_test_env.h"
#include "scan/scan_test_util.h"
#include "scan/file_source.h"
#include "scan/table_scan.h"
#include "scan/task_stream.h"
#include "table_files/path_mapping_file_io.h"

namespace floe {
namespace {

class UnderPrefix : public PathMappingFileIO {
 public:
  UnderPrefix(std::shared_ptr<FileIO> inner, std::string prefix)
      : PathMappingFileIO(std::move(inner)), prefix_(std::move(prefix)) {}
  std::string Map(std::string_view path) const override { return prefix_ + std::string(path); }

 private:
  std::string prefix_;
};

// Copies every file of `t` to a fresh prefix on S3; the prefix.
std::string CopyToS3(testing::TestTable& t, S3FileIO& s3) {
  const std::string prefix = TestS3Prefix("scan");
  auto files = t.io().ListPrefix("/t");
  EXPECT_TRUE(files) << files.error().ToString();
  for (const FileInfo& f : files.value_or(std::vector<FileInfo>{})) {
    auto bytes = t.io().ReadAll(f.path);
    EXPECT_TRUE(bytes);
    EXPECT_TRUE(s3.CreateIfAbsent(prefix + f.path, bytes.value_or("")));
  }
  return prefix;
}

int64_t Gets(const S3FileIO& s3) { return s3.RequestCounts().get; }
int64_t Others(const S3FileIO& s3) { return s3.RequestCounts().Total() - s3.RequestCounts().get; }

std::vector<std::string> IdTexts(const ColumnBatch& batch) {
  std::vector<std::string> out;
  for (size_t r = 0; r < batch.num_rows; ++r) out.push_back(batch.columns[0].Get(r).ToString());
  return out;
}

TEST(ScanOnS3, ManyRequestsInFlightKeepTheOrderAndNameAMissingFile) {
  auto s3 = TestS3FileIO();
  if (!s3) GTEST_SKIP() << kNoS3Message;
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}});
  testing::TestTable t(schema);
  for (int commit = 0; commit < 12; ++commit) {  // 12 manifests, 12 data files
    ColumnBatch rows(schema);
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(rows.AppendRow({Literal::Long(commit * 1000 + (i * 7) % 20)}));
    auto f = t.WriteData(rows);
    ASSERT_TRUE(f) << f.error().ToString();
    ASSERT_TRUE(t.Commit({*f}));
  }
  const std::string prefix = CopyToS3(t, *s3);
  UnderPrefix io(s3, prefix);

  ScanOptions one_at_a_time;
  one_at_a_time.read_parallelism = 1;
  auto sequential = ReadTable(t.io(), t.metadata(), one_at_a_time);
  ASSERT_TRUE(sequential) << sequential.error().ToString();
  ASSERT_EQ(sequential->num_rows, 240u);
  ScanOptions options;
  options.planning_threads = 8;
  options.read_parallelism = 8;
  auto plan = PlanScan(io, t.metadata(), options);
  ASSERT_TRUE(plan) << plan.error().ToString();
  ASSERT_EQ(plan->tasks.size(), 12u);
  const int64_t gets = Gets(*s3), others = Others(*s3);
  std::vector<std::string> read_ids;
  ASSERT_TRUE(ReadTasks(io, t.metadata(), *plan, 8, [&](size_t, ColumnBatch&& batch) -> Result<bool> {
    for (const auto& id : IdTexts(batch)) read_ids.push_back(id);
    return true;
  }));
  EXPECT_EQ(read_ids, IdTexts(*sequential));
  // Each small data file is read whole by the one GET of its tail: footer and column chunks.
  EXPECT_EQ(Gets(*s3) - gets, 12);
  EXPECT_EQ(Others(*s3) - others, 0) << "no HEAD for a data file's size";
  auto on_s3 = ReadTable(io, t.metadata(), options);
  ASSERT_TRUE(on_s3) << on_s3.error().ToString();
  EXPECT_EQ(IdTexts(*on_s3), IdTexts(*sequential));

  const std::string lost = plan->tasks[5].file.file_path;
  ASSERT_TRUE(s3->Delete(prefix + lost));
  std::vector<size_t> order;
  auto st = ReadTasks(io, t.metadata(), *plan, 8, [&](size_t i, ColumnBatch&&) -> Result<bool> {
    order.push_back(i);
    return true;
  });
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kNotFound) << st.error().ToString();
  EXPECT_NE(st.error().message.find(lost), std::string::npos) << st.error().message;
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

// A data file larger than the tail read at open: the tail holds the footer, and the column chunks
// of its row group come in one more GET, whichever columns are read.
TEST(ScanOnS3, ALargeDataFileIsTwoGetsTheFooterAndItsColumnsTogether) {
  auto s3 = TestS3FileIO();
  if (!s3) GTEST_SKIP() << kNoS3Message;
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "code", Type::String(), false, ""},
                    NestedField{3, "amount", Type::Double(), false, ""}});
  testing::TestTable t(schema);
  ColumnBatch rows(schema);
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 30'000; ++i) {  // xorshift values: the file does not compress below the tail
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ASSERT_TRUE(rows.AppendRow({Literal::Long(static_cast<int64_t>(x)), Literal::String(std::to_string(x % 1'000'003)),
                                Literal::Double(static_cast<double>(x % 100'000) / 7.0)}));
  }
  auto f = t.WriteData(rows);
  ASSERT_TRUE(f) << f.error().ToString();
  ASSERT_GT(f->file_size_in_bytes, 3 * 65'536);
  ASSERT_TRUE(t.Commit({*f}));
  UnderPrefix io(s3, CopyToS3(t, *s3));
  ScanOptions options;
  options.read_parallelism = 1;
  auto plan = PlanScan(io, t.metadata(), options);
  ASSERT_TRUE(plan) << plan.error().ToString();
  ASSERT_EQ(plan->tasks.size(), 1u);
  for (std::vector<std::string> columns : {std::vector<std::string>{}, std::vector<std::string>{"amount", "id"}}) {
    ScanOptions projected = options;
    projected.columns = columns;
    auto projected_plan = PlanScan(io, t.metadata(), projected);
    ASSERT_TRUE(projected_plan) << projected_plan.error().ToString();
    const int64_t gets = Gets(*s3), others = Others(*s3);
    size_t read_rows = 0;
    ASSERT_TRUE(ReadTasks(io, t.metadata(), *projected_plan, 1, [&](size_t, ColumnBatch&& batch) -> Result<bool> {
      read_rows += batch.num_rows;
      return true;
    }));
    EXPECT_EQ(read_rows, 30'000u);
    EXPECT_EQ(Gets(*s3) - gets, 2) << columns.size() << " columns named";
    EXPECT_EQ(Others(*s3) - others, 0);
  }
}

// A data file of several row groups: the tail holds the footer, and the projected chunks of all
// its row groups come in one more GET, whether the scan reads row groups whole (ReadTasks) or
// streams them a batch at a time (ReadTaskBatches), and whichever columns it reads.
TEST(ScanOnS3, ADataFileOfSeveralRowGroupsIsTwoGets) {
  auto s3 = TestS3FileIO();
  if (!s3) GTEST_SKIP() << kNoS3Message;
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "a", Type::Long(), false, ""},
                    NestedField{3, "b", Type::Long(), false, ""}});
  testing::TestTable t(schema);
  t.writer_properties["write.parquet.row-group-size-bytes"] = "120000";
  ColumnBatch rows(schema);
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 40'000; ++i) {  // xorshift values: the file does not compress to one row group
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ASSERT_TRUE(rows.AppendRow({Literal::Long(i), Literal::Long(static_cast<int64_t>(x)),
                                Literal::Long(static_cast<int64_t>(x >> 3))}));
  }
  auto f = t.WriteData(rows);
  ASSERT_TRUE(f) << f.error().ToString();
  ASSERT_TRUE(t.Commit({*f}));
  UnderPrefix io(s3, CopyToS3(t, *s3));
  auto pq = OpenParquetFile(io, f->file_path);
  ASSERT_TRUE(pq) << pq.error().ToString();
  ASSERT_GE((*pq)->num_row_groups(), 3);
  for (std::vector<std::string> columns : {std::vector<std::string>{}, std::vector<std::string>{"b", "id"}}) {
    ScanOptions options;
    options.read_parallelism = 1;
    options.columns = columns;
    auto plan = PlanScan(io, t.metadata(), options);
    ASSERT_TRUE(plan) << plan.error().ToString();
    ASSERT_EQ(plan->tasks.size(), 1u);
    int64_t gets = Gets(*s3), others = Others(*s3);
    std::vector<int64_t> ids;
    auto keep_ids = [&](const ColumnBatch& batch) {
      const int id = batch.ColumnIndexById(1);
      for (size_t r = 0; r < batch.num_rows; ++r) ids.push_back(batch.columns[id].longs[r]);
    };
    ASSERT_TRUE(ReadTasks(io, t.metadata(), *plan, 1, [&](size_t, ColumnBatch&& batch) -> Result<bool> {
      keep_ids(batch);
      return true;
    }));
    EXPECT_EQ(Gets(*s3) - gets, 2) << "whole row groups, " << columns.size() << " columns named";
    EXPECT_EQ(Others(*s3) - others, 0);
    gets = Gets(*s3), others = Others(*s3);
    ASSERT_TRUE(ReadTaskBatches(io, t.metadata(), plan->tasks[0], plan->projection, nullptr, -1,
                                [&](ColumnBatch&& batch) {
                                  keep_ids(batch);
                                  return true;
                                }));
    EXPECT_EQ(Gets(*s3) - gets, 2) << "streamed, " << columns.size() << " columns named";
    EXPECT_EQ(Others(*s3) - others, 0);
    ASSERT_EQ(ids.size(), 80'000u);  // every row, in order, by both reads
    for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], static_cast<int64_t>(i % 40'000)) << i;
  }
}

// A file many times larger than the read budget, read whole: still the tail GET and one more,
// and the bytes the S3 reader holds at once (the client's counter) stay under the budget or one
// row group's chunks, whichever is larger, plus the tail, whether the scan streams row groups a
// batch at a time or decodes each whole, and whichever columns it reads.
TEST(ScanOnS3, AFileManyTimesTheReadBudgetIsReadInBoundedMemory) {
  auto s3 = TestS3FileIO();
  if (!s3) GTEST_SKIP() << kNoS3Message;
  S3ReadCoalescing rules;
  rules.max_buffered = 256 << 10;
  s3->SetReadCoalescing(rules);
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "a", Type::Long(), false, ""},
                    NestedField{3, "b", Type::Long(), false, ""}});
  testing::TestTable t(schema);
  t.writer_properties["write.parquet.row-group-size-bytes"] = "300000";
  ColumnBatch rows(schema);
  uint64_t x = 88172645463325252ULL;
  constexpr int kRows = 150'000;
  for (int i = 0; i < kRows; ++i) {  // xorshift values: nothing compresses
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ASSERT_TRUE(rows.AppendRow({Literal::Long(i), Literal::Long(static_cast<int64_t>(x)),
                                Literal::Long(static_cast<int64_t>(x >> 3))}));
  }
  auto f = t.WriteData(rows);
  ASSERT_TRUE(f) << f.error().ToString();
  ASSERT_TRUE(t.Commit({*f}));
  UnderPrefix io(s3, CopyToS3(t, *s3));
  auto pq = OpenParquetFile(io, f->file_path);
  ASSERT_TRUE(pq) << pq.error().ToString();
  ASSERT_GE((*pq)->num_row_groups(), 8);
  std::vector<std::vector<int64_t>> chunk_bytes;  // per row group, per column
  for (const auto& group : (*pq)->metadata().row_groups) {
    chunk_bytes.emplace_back();
    for (const auto& chunk : group.columns) chunk_bytes.back().push_back(chunk.meta_data->total_compressed_size);
  }
  pq->reset();  // its tail would count in what the client holds
  for (std::vector<std::string> columns : {std::vector<std::string>{}, std::vector<std::string>{"b"}}) {
    ScanOptions options;
    options.read_parallelism = 1;
    options.columns = columns;
    auto plan = PlanScan(io, t.metadata(), options);
    ASSERT_TRUE(plan) << plan.error().ToString();
    ASSERT_EQ(plan->tasks.size(), 1u);
    // The bound: the budget, or the largest row group's projected chunks when larger; and the tail.
    int64_t largest_group = 0, projected = 0;
    for (const auto& group : chunk_bytes) {
      int64_t bytes = 0;
      for (size_t c = 0; c < group.size(); ++c) {
        if (columns.empty() || c == 2) bytes += group[c];  // "b" is the third column
      }
      largest_group = std::max(largest_group, bytes);
      projected += bytes;
    }
    const int64_t bound = rules.tail_bytes + std::max(rules.max_buffered, largest_group);
    ASSERT_GT(projected, 3 * bound) << "the file must be much larger than what may be held";

    int64_t gets = Gets(*s3);
    s3->ResetPeakHeldReadBytes();
    int64_t streamed_rows = 0;
    ASSERT_TRUE(ReadTaskBatches(io, t.metadata(), plan->tasks[0], plan->projection, nullptr, -1,
                                [&](ColumnBatch&& batch) {
                                  streamed_rows += static_cast<int64_t>(batch.num_rows);
                                  return true;
                                }));
    EXPECT_EQ(streamed_rows, kRows);
    EXPECT_EQ(Gets(*s3) - gets, 2) << "streamed, " << columns.size() << " columns named";
    EXPECT_LE(s3->PeakHeldReadBytes(), bound) << "streamed; " << projected << " bytes read";

    gets = Gets(*s3);
    s3->ResetPeakHeldReadBytes();
    int64_t whole_rows = 0;
    ASSERT_TRUE(ReadTasks(io, t.metadata(), *plan, 1, [&](size_t, ColumnBatch&& batch) -> Result<bool> {
      whole_rows += static_cast<int64_t>(batch.num_rows);
      return true;
    }));
    EXPECT_EQ(whole_rows, kRows);
    EXPECT_EQ(Gets(*s3) - gets, 2) << "whole row groups, " << columns.size() << " columns named";
    EXPECT_LE(s3->PeakHeldReadBytes(), bound) << "whole row groups; " << projected << " bytes read";
  }
}

}  // namespace
}  // namespace floe
