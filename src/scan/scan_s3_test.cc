// Scans on S3 (moto, scripts/s3.sh): planning and ReadTasks with several requests in flight give
// the rows of a one-at-a-time read, in the same order, and a missing data file stops the scan
// naming it. A table written in memory is copied to a fresh S3 prefix and read through a
// FileIO that maps its paths there.
#include <gtest/gtest.h>

#include "io/path_mapping_file_io.h"
#include "io/s3_test_env.h"
#include "scan/scan_test_util.h"
#include "scan/table_scan.h"

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
  const std::string prefix = TestS3Prefix("scan");
  auto files = t.io().ListPrefix("/t");
  ASSERT_TRUE(files) << files.error().ToString();
  for (const FileInfo& f : *files) {
    auto bytes = t.io().ReadAll(f.path);
    ASSERT_TRUE(bytes);
    ASSERT_TRUE(s3->CreateIfAbsent(prefix + f.path, *bytes));
  }
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

}  // namespace
}  // namespace floe
