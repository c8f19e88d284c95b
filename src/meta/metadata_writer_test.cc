// The fast metadata writer must produce exactly the bytes of nlohmann's dump of the whole
// document: other engines read what floe writes, and tests elsewhere compare documents.
#include <gtest/gtest.h>

#include "meta/json_internal.h"
#include "meta/meta_test_util.h"
#include "meta/metadata_json.h"
#include "meta/metadata_writer.h"

namespace floe {
namespace {

using testing::FixturesDir;
using testing::ReadText;

void ExpectSameAsReference(const TableMetadata& m, const std::string& what) {
  const std::string fast = WriteTableMetadata(m);
  const std::string reference = internal::WriteTableMetadataReference(m);
  ASSERT_EQ(fast.size(), reference.size()) << what << "\nfast:\n" << fast << "\nreference:\n" << reference;
  EXPECT_EQ(fast, reference) << what;
  auto again = ParseTableMetadata(fast);
  ASSERT_TRUE(again) << what << ": " << again.error().ToString();
  EXPECT_EQ(TableMetadataToJson(*again), TableMetadataToJson(m)) << what;
}

TEST(MetadataWriter, EveryFixtureDocumentMatchesTheReference) {
  const std::filesystem::path dir = FixturesDir();
  if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
  int documents = 0;
  for (const auto& root : {dir / "metadata", dir / "tables"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !name.ends_with(".json")) continue;
      auto m = ParseTableMetadata(ReadText(entry.path()));
      if (!m) continue;  // the invalid-document fixtures
      ExpectSameAsReference(*m, entry.path().string());
      ++documents;
    }
  }
  EXPECT_GE(documents, 10);  // the fixtures hold v1, v2 and v3 documents with history
}

TEST(MetadataWriter, EmptyHistoryMatchesTheReference) {
  ExpectSameAsReference(testing::NewSampleTable(1), "v1, no snapshots");
  ExpectSameAsReference(testing::NewSampleTable(2), "v2, no snapshots");
}

TEST(MetadataWriter, EscapesLikeNlohmannIncludingInvalidUtf8) {
  TableMetadata m = testing::NewSampleTable(2);
  Snapshot s = testing::MakeSnapshot(7, {}, 1, 1500);
  s.summary["quote\"back\\slash"] = "tab\there\nnew line\r\b\f";
  s.summary["control"] = std::string("a\x01z\x1f\x7f", 5);
  s.summary["unicode"] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
  s.summary["escaped-then-unicode"] = "line\n\xc3\xa9";
  s.summary["invalid-utf8"] = std::string("ok\xff\xfe end", 8);
  s.summary["truncated-utf8"] = std::string("a\xe2\x82", 3);
  s.summary[""] = "empty key";
  s.manifest_list = "/w/t/metadata/snap \"7\".avro";
  m.snapshots.push_back(s);
  m.last_sequence_number = 1;
  m.refs["main"] = testing::Branch(7);
  m.current_snapshot_id = 7;
  m.snapshot_log.push_back({1500, 7});
  m.metadata_log.push_back({1000, "/w/t/metadata/00000-\xc3\xa9.metadata.json"});
  m.metadata_log.push_back({1001, "/w/t/metadata/00001-a\tb.metadata.json"});
  m.properties["p\"q"] = "\xe2\x82\xac";
  // Reference first: it may not throw on invalid UTF-8 (the replace handler).
  const std::string reference = internal::WriteTableMetadataReference(m);
  EXPECT_EQ(WriteTableMetadata(m), reference);
}

TEST(MetadataWriter, EveryOptionalSnapshotFieldMatchesTheReference) {
  // v1: a snapshot listing manifests directly, one with none, and sequence number 0 left out.
  TableMetadata v1 = testing::NewSampleTable(1);
  Snapshot listed = testing::MakeSnapshot(1, {}, 0, 1500);
  listed.manifest_list.clear();
  listed.v1_manifests = {"/w/m1.avro", "/w/m2.avro"};
  listed.schema_id.reset();
  Snapshot bare = testing::MakeSnapshot(2, 1, 0, 1600);
  bare.manifest_list.clear();
  bare.summary.clear();
  v1.snapshots = {listed, bare};
  v1.refs["main"] = testing::Branch(2);
  v1.current_snapshot_id = 2;
  ExpectSameAsReference(v1, "v1 manifests");

  // v3: row lineage fields; no "operation" in one summary; a tag and a branch with retention.
  TableMetadata v3 = testing::NewSampleTable(2);
  v3.format_version = 3;
  v3.next_row_id = 100;
  Snapshot lineage = testing::MakeSnapshot(10, {}, 1, 1500);
  lineage.first_row_id = 0;
  lineage.added_rows = 100;
  Snapshot no_operation = testing::MakeSnapshot(11, 10, 2, 1600);
  no_operation.summary = {{"added-records", "5"}, {"zeta", "last"}};
  no_operation.first_row_id = 100;
  no_operation.added_rows = 0;
  v3.snapshots = {lineage, no_operation};
  v3.last_sequence_number = 2;
  v3.refs["main"] = testing::Branch(11);
  v3.refs["audit"] = SnapshotRef{10, RefType::kTag, {}, {}, 86400000};
  v3.refs["dev"] = SnapshotRef{10, RefType::kBranch, 3, 1000, {}};
  v3.current_snapshot_id = 11;
  v3.snapshot_log = {{1500, 10}, {1600, 11}};
  StatisticsFile stats;
  stats.snapshot_id = 10;
  stats.statistics_path = "/w/stats.puffin";
  stats.file_size_in_bytes = 10;
  stats.file_footer_size_in_bytes = 5;
  stats.blob_metadata = nlohmann::json::parse(R"([{"type":"x","fields":[1,2],"properties":{"a":"b"}}])");
  v3.statistics.push_back(stats);
  v3.partition_statistics.push_back(PartitionStatisticsFile{11, "/w/p.parquet", 20});
  ExpectSameAsReference(v3, "v3 lineage and statistics");
}

// A document written from its predecessor's text is the same document, byte for byte.
TEST(MetadataWriter, ReusingThePreviousTextChangesNoByte) {
  auto commit = [](const TableMetadata& base, std::vector<TableUpdate> updates, int64_t now) {
    auto next = ApplyCommit(&base, "/w/t/metadata/prev.metadata.json", {}, updates, now);
    EXPECT_TRUE(next) << next.error().ToString();
    return *next;
  };
  TableMetadata m = testing::NewSampleTable(1);
  auto text = WriteTableMetadataText(m, nullptr);
  EXPECT_EQ(text->text, WriteTableMetadata(m));
  std::optional<int64_t> parent;
  for (int64_t id = 1; id <= 30; ++id) {
    // v1 first (sequence numbers left out), then an upgrade to v2: texts of another format
    // version are not reused.
    std::vector<TableUpdate> updates;
    if (id == 11) updates.push_back(UpgradeFormatVersion{2});
    Snapshot s = testing::MakeSnapshot(id, parent, id > 10 ? id : 0, 1000 + id);
    s.summary["note"] = "row \"" + std::to_string(id) + "\"\n";
    updates.push_back(AddSnapshot{s});
    updates.push_back(SetSnapshotRef{"main", testing::Branch(id)});
    if (id == 20) updates.push_back(RemoveSnapshots{{3, 4, 5, 12}});  // expiry keeps the rest in order
    m = commit(m, updates, 2000 + id);
    auto next = WriteTableMetadataText(m, text.get());
    ASSERT_EQ(next->text, WriteTableMetadata(m)) << "after snapshot " << id;
    ASSERT_EQ(next->snapshot_ids.size(), m.snapshots.size());
    text = next;
    parent = id;
  }
  EXPECT_EQ(text->snapshot_ids.front(), 1);
  // Each recorded span holds exactly its snapshot.
  for (size_t i = 0; i < text->snapshot_ids.size(); ++i) {
    const auto [begin, end] = text->snapshot_spans[i];
    const std::string opening = "{\"snapshot-id\":" + std::to_string(text->snapshot_ids[i]) + ",";
    EXPECT_EQ(text->text.compare(begin, opening.size(), opening), 0);
    EXPECT_EQ(text->text[end - 1], '}');
  }
}

}  // namespace
}  // namespace floe
