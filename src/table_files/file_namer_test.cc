// FileNamer: every name is recorded before it is handed out, in batches that grow per folder;
// an intent that cannot be recorded yields no name; Clear drops the unused reserved names.
#include "table_files/file_namer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace floe {
namespace {

struct RecordingLog : IntentLog {
  std::vector<std::vector<std::string>>* records;
  int* clears;
  bool fail = false;
  Status Record(const std::vector<std::string>& paths) override {
    if (fail) return std::unexpected(Error{ErrorKind::kUnavailable, "catalog database is down"});
    records->push_back(paths);
    return Ok();
  }
  Status Clear() override {
    ++*clears;
    return Ok();
  }
};

FileNamer RecordingNamer(std::vector<std::vector<std::string>>* records, int* clears, bool fail = false) {
  auto log = std::make_unique<RecordingLog>();
  log->records = records;
  log->clears = clears;
  log->fail = fail;
  return FileNamer(std::move(log));
}

TEST(FileNamer, NamesAreRecordedFirstInGrowingBatchesPerFolder) {
  std::vector<std::vector<std::string>> records;
  int clears = 0;
  FileNamer namer = RecordingNamer(&records, &clears);
  std::set<std::string> handed_out;
  for (int i = 0; i < 200; ++i) {
    auto path = namer.NewPath("/t/data", "", ".parquet");
    ASSERT_TRUE(path.has_value());
    EXPECT_TRUE(path->starts_with("/t/data/") && path->ends_with(".parquet")) << *path;
    bool recorded = false;
    for (const auto& r : records) recorded = recorded || std::find(r.begin(), r.end(), *path) != r.end();
    EXPECT_TRUE(recorded) << *path << " was handed out before it was recorded";
    EXPECT_TRUE(handed_out.insert(*path).second) << "name given twice";
  }
  // 1 + 2 + 4 + 8 + 16 + 32 + 64 = 127, then 64 at a time: 9 records for 200 names.
  ASSERT_EQ(records.size(), 9u);
  EXPECT_EQ(records[0].size(), 1u);
  EXPECT_EQ(records[6].size(), 64u);
  EXPECT_EQ(records[7].size(), 64u);
  EXPECT_EQ(records[8].size(), 64u);
  // Another folder (or kind) starts its own batches.
  ASSERT_TRUE(namer.NewPath("/t/metadata", "snap-1-1-", ".avro").has_value());
  EXPECT_EQ(records.back().size(), 1u);
  EXPECT_TRUE(records.back()[0].starts_with("/t/metadata/snap-1-1-"));
  EXPECT_EQ(namer.records(), 10);

  // After Clear, no name reserved before it is handed out: a new record comes first.
  ASSERT_TRUE(namer.Clear().has_value());
  EXPECT_EQ(clears, 1);
  ASSERT_TRUE(namer.NewPath("/t/data", "", ".parquet").has_value());
  EXPECT_EQ(records.size(), 11u);
}

TEST(FileNamer, AnIntentThatCannotBeRecordedGivesNoName) {
  std::vector<std::vector<std::string>> records;
  int clears = 0;
  FileNamer namer = RecordingNamer(&records, &clears, /*fail=*/true);
  auto path = namer.NewPath("/t/data", "", ".parquet");
  ASSERT_FALSE(path.has_value());
  EXPECT_EQ(path.error().kind, ErrorKind::kUnavailable);
  EXPECT_EQ(namer.records(), 0);
}

TEST(FileNamer, WithoutALogNamesAreUniqueAndUnrecorded) {
  FileNamer namer;
  EXPECT_FALSE(namer.recording());
  auto a = namer.NewPath("/t/data", "", ".parquet"), b = namer.NewPath("/t/data", "", ".parquet");
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(namer.Clear().has_value());
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

TEST(FileNamer, AnticipatedNamesJoinTheFirstRecord) {
  std::vector<std::vector<std::string>> records;
  int clears = 0;
  FileNamer namer = RecordingNamer(&records, &clears);
  namer.Anticipate("/t/metadata", "", "-m0.avro", 2);
  namer.Anticipate("/t/metadata", "snap-", ".avro", 1);
  auto data = namer.NewPath("/t/data", "", ".parquet");
  ASSERT_TRUE(data.has_value());
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].size(), 4u);  // the data file, two manifests, one manifest list
  std::vector<std::string> later;
  for (int i = 0; i < 2; ++i) later.push_back(*namer.NewPath("/t/metadata", "", "-m0.avro"));
  later.push_back(*namer.NewPath("/t/metadata", "snap-", ".avro"));
  EXPECT_EQ(records.size(), 1u) << "an anticipated name was recorded again";
  for (const auto& p : later)
    EXPECT_NE(std::find(records[0].begin(), records[0].end(), p), records[0].end()) << p << " is not in the record";
  EXPECT_TRUE(later[2].starts_with("/t/metadata/snap-") && later[2].ends_with(".avro")) << later[2];
  // Past what was anticipated, a kind records on its own again.
  ASSERT_TRUE(namer.NewPath("/t/metadata", "", "-m0.avro").has_value());
  EXPECT_EQ(records.size(), 2u);
  // After a clear, the next write's first record carries the anticipated names again.
  ASSERT_TRUE(namer.Clear().has_value());
  ASSERT_TRUE(namer.NewPath("/t/data", "", ".parquet").has_value());
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2].size(), 4u);
}

}  // namespace
}  // namespace floe
