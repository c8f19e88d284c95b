#include "server/table_answers.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "meta/metadata_json.h"
#include "meta/metadata_writer.h"

namespace floe {
namespace {

// A table with `history` snapshots on main, the last one its head, and a tag on the first.
std::shared_ptr<const TableMetadata> SharedHistoryDocument(int history) {
  TableMetadata m;
  m.table_uuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";
  m.location = "/w/db/t";
  m.schemas.push_back(testing_env::SimpleSchema());
  m.partition_specs.push_back(PartitionSpec::Unpartitioned());
  m.sort_orders.push_back(SortOrder::Unsorted());
  std::optional<int64_t> parent;
  for (int i = 1; i <= history; ++i) {
    Snapshot s;
    s.snapshot_id = 1000 + i;
    s.parent_snapshot_id = parent;
    s.sequence_number = i;
    s.timestamp_ms = 1700000000000 + i;
    s.manifest_list = "/w/db/t/metadata/snap-" + std::to_string(i) + ".avro";
    s.summary["operation"] = "append";
    m.snapshots.push_back(s);
    m.snapshot_log.push_back({s.timestamp_ms, s.snapshot_id});
    parent = s.snapshot_id;
  }
  m.last_sequence_number = history;
  m.current_snapshot_id = parent;
  m.refs["main"] = SnapshotRef{*parent};
  m.refs["first"] = SnapshotRef{1001, RefType::kTag};
  return std::make_shared<const TableMetadata>(std::move(m));
}

TEST(TableAnswersTest, SnapshotsModeIsAllOrRefs) {
  EXPECT_EQ(ParseSnapshotsMode("").value(), SnapshotsMode::kAll);
  EXPECT_EQ(ParseSnapshotsMode("all").value(), SnapshotsMode::kAll);
  EXPECT_EQ(ParseSnapshotsMode("refs").value(), SnapshotsMode::kRefs);
  auto bad = ParseSnapshotsMode("REFS");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("snapshots"), std::string::npos);
}

TEST(TableAnswersTest, IfNoneMatchComparesWeaklyOverAList) {
  const std::string tag = "\"abc\"";
  EXPECT_TRUE(IfNoneMatchHits("\"abc\"", tag));
  EXPECT_TRUE(IfNoneMatchHits("W/\"abc\"", tag));
  EXPECT_TRUE(IfNoneMatchHits("\"x\", \"abc\"", tag));
  EXPECT_TRUE(IfNoneMatchHits(" * ", tag));
  EXPECT_FALSE(IfNoneMatchHits("abc", tag));  // unquoted: not the tag
  EXPECT_FALSE(IfNoneMatchHits("\"abcd\"", tag));
  EXPECT_FALSE(IfNoneMatchHits(",,,", tag));
  EXPECT_FALSE(IfNoneMatchHits("", tag));
}

TEST(TableAnswersTest, ETagNamesTableDocumentAndMode) {
  auto m = SharedHistoryDocument(3);
  SharedTable a{{{"db"}, "t"}, "/w/db/t/metadata/00003-a.metadata.json", m};
  SharedTable b{{{"db"}, "t"}, "/w/db/t/metadata/00004-b.metadata.json", m};
  EXPECT_EQ(TableETag(a, SnapshotsMode::kAll), TableETag(a, SnapshotsMode::kAll));
  EXPECT_NE(TableETag(a, SnapshotsMode::kAll), TableETag(b, SnapshotsMode::kAll));
  EXPECT_NE(TableETag(a, SnapshotsMode::kAll), TableETag(a, SnapshotsMode::kRefs));
  // The same location for a re-created table (another uuid) is another document.
  auto other = std::make_shared<TableMetadata>(*m);
  other->table_uuid = "0e5e7a44-53c1-4b3f-9d0c-4d4e0e0a1b7c";
  SharedTable c{{{"db"}, "t"}, a.metadata_location, other};
  EXPECT_NE(TableETag(a, SnapshotsMode::kAll), TableETag(c, SnapshotsMode::kAll));
}

TEST(TableAnswersTest, RefsModeKeepsOnlyReferencedSnapshotsAndParsesBack) {
  auto m = SharedHistoryDocument(50);
  auto parsed = ParseTableMetadata(MetadataAnswerJson(*m, SnapshotsMode::kRefs));
  ASSERT_TRUE(parsed) << parsed.error().ToString();
  ASSERT_EQ(parsed->snapshots.size(), 2u);  // main's head and the tag's snapshot
  EXPECT_EQ(parsed->CurrentSnapshot()->snapshot_id, 1050);
  EXPECT_NE(parsed->SnapshotById(1001), nullptr);
  EXPECT_EQ(parsed->snapshot_log.size(), 50u);
  EXPECT_EQ(parsed->last_sequence_number, 50);
  auto all = ParseTableMetadata(MetadataAnswerJson(*m, SnapshotsMode::kAll));
  ASSERT_TRUE(all);
  EXPECT_EQ(all->snapshots.size(), 50u);
}

TEST(TableAnswersTest, OneSerializationPerDocumentAndMode) {
  TableAnswers answers(nullptr);
  SharedTable t{{{"db"}, "t"}, "/w/db/t/metadata/00001-a.metadata.json", SharedHistoryDocument(20)};
  auto first = answers.MetadataJson(t, SnapshotsMode::kAll);
  auto again = answers.MetadataJson(t, SnapshotsMode::kAll);
  EXPECT_EQ(first.get(), again.get());  // the same bytes, not a copy
  EXPECT_EQ(answers.serialized(), 1u);
  auto refs = answers.MetadataJson(t, SnapshotsMode::kRefs);
  EXPECT_EQ(answers.serialized(), 2u);
  EXPECT_LT(refs->size(), first->size());
  // Another parsed document at the same location (a storage catalog's re-used name) is not
  // answered with the old text.
  SharedTable reused{t.id, t.metadata_location, SharedHistoryDocument(2)};
  auto other = answers.MetadataJson(reused, SnapshotsMode::kAll);
  EXPECT_EQ(answers.serialized(), 3u);
  EXPECT_EQ(ParseTableMetadata(*other)->snapshots.size(), 2u);
}

TEST(TableAnswersTest, AWrittenDocumentIsAnsweredWithTheTextItWasWrittenWith) {
  auto cache = std::make_shared<MetadataCache>();
  auto m = SharedHistoryDocument(10);
  const std::string location = "/w/db/t/metadata/00002-b.metadata.json";
  auto text = WriteTableMetadataText(*m, nullptr);
  cache->Insert(location, m, text->text.size(), text);
  TableAnswers answers(cache);
  auto answer = answers.MetadataJson(SharedTable{{{"db"}, "t"}, location, m}, SnapshotsMode::kAll);
  EXPECT_EQ(answer->data(), text->text.data());  // the file's bytes themselves
  EXPECT_EQ(answers.serialized(), 0u);
}

}  // namespace
}  // namespace floe
