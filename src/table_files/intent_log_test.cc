// The intent log's text form round-trips and refuses what is not one, naming where it came
// from; a commit's files join a write's first record.
#include "table_files/intent_log.h"

#include <gtest/gtest.h>

#include "meta/table_metadata.h"
#include "table_files/file_namer.h"

namespace floe {
namespace {

TEST(IntentText, RoundTripsItsPathsAndTime) {
  const std::vector<std::string> paths{"/w/t/data/a.parquet", "s3://b/t/metadata/snap-1.avro"};
  const std::string text = IntentText(1700000000123, paths);
  auto parsed = ParseIntentText(text, "/w/t/metadata/floe-intents/x-0.txt");
  ASSERT_TRUE(parsed) << parsed.error().ToString();
  EXPECT_EQ(parsed->created_ms, 1700000000123);
  EXPECT_EQ(parsed->paths, paths);
  EXPECT_EQ(parsed->where, "/w/t/metadata/floe-intents/x-0.txt");
  auto empty = ParseIntentText(IntentText(5, {}), "e");
  ASSERT_TRUE(empty) << empty.error().ToString();
  EXPECT_TRUE(empty->paths.empty());
}

TEST(IntentText, WhatIsNotAnIntentIsCorruptAndNamed) {
  const std::string good = IntentText(7, {"/w/t/data/a.parquet"});
  for (const std::string& bad : {std::string(""), std::string("floe-write-intent 2\ncreated-ms 7\n"),
                                 std::string("floe-write-intent 1\ncreated 7\n"),
                                 std::string("floe-write-intent 1\ncreated-ms -3\n"),
                                 std::string("floe-write-intent 1\ncreated-ms 7x\n"),
                                 std::string("floe-write-intent 1\ncreated-ms 7\n\n"),
                                 good.substr(0, good.size() - 1)}) {
    auto parsed = ParseIntentText(bad, "obj-1.txt");
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kCorrupt) << bad;
    EXPECT_NE(parsed.error().message.find("obj-1.txt"), std::string::npos) << parsed.error().message;
  }
}

TEST(IntentText, IntentObjectsAreRecognizedByFolderAndSuffix) {
  EXPECT_TRUE(IsIntentObject("s3://b/t/metadata/floe-intents/abc-0.txt"));
  EXPECT_FALSE(IsIntentObject("s3://b/t/metadata/floe-intents/abc-0.avro"));
  EXPECT_FALSE(IsIntentObject("/w/t/data/floe-intents.txt"));
}

struct BatchLog : IntentLog {
  std::vector<std::vector<std::string>>* records;
  Status Record(const std::vector<std::string>& paths) override {
    records->push_back(paths);
    return Ok();
  }
  Status Clear() override { return Ok(); }
};

TEST(AnticipateCommitFiles, ACommitsFilesJoinTheFirstRecord) {
  TableMetadata table;
  table.location = "/w/t";
  table.metadata_log.push_back({1, "/w/t/metadata/00004-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json"});
  for (bool document_too : {false, true}) {
    std::vector<std::vector<std::string>> records;
    auto log = std::make_unique<BatchLog>();
    log->records = &records;
    FileNamer names(std::move(log));
    AnticipateCommitFiles(names, table, document_too);
    ASSERT_TRUE(names.NewPath("/w/t/data", "", ".parquet"));
    ASSERT_EQ(records.size(), 1u);
    // The data file, two manifests, the manifest list and (a SQL catalog's) next document.
    ASSERT_EQ(records[0].size(), document_too ? 5u : 4u);
    int manifests = 0, lists = 0, documents = 0;
    for (const auto& p : records[0]) {
      manifests += p.starts_with("/w/t/metadata/") && p.ends_with("-m0.avro");
      lists += p.starts_with("/w/t/metadata/snap-") && p.ends_with(".avro");
      documents += p.starts_with("/w/t/metadata/00006-") && p.ends_with(".metadata.json");
    }
    EXPECT_EQ(manifests, 2);
    EXPECT_EQ(lists, 1);
    EXPECT_EQ(documents, document_too ? 1 : 0);
  }
  FileNamer unrecorded;
  AnticipateCommitFiles(unrecorded, table, true);  // nothing to record into: nothing happens
  EXPECT_EQ(unrecorded.records(), 0);
}

}  // namespace
}  // namespace floe
