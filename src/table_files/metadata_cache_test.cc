// The parsed-metadata cache: bounded, and never a reason to see a stale table.
#include "table_files/metadata_cache.h"

#include <gtest/gtest.h>

#include "meta/metadata_json.h"

namespace floe {
namespace {

std::shared_ptr<const TableMetadata> Doc(const std::string& location) {
  auto m = std::make_shared<TableMetadata>();
  m->location = location;
  return m;
}

TEST(MetadataCache, KeepsTheMostRecentlyUsedWithinItsEntryBound) {
  MetadataCache cache(/*max_entries=*/2, /*max_bytes=*/1000);
  cache.Insert("/a", Doc("a"), 10);
  cache.Insert("/b", Doc("b"), 10);
  ASSERT_TRUE(cache.Find("/a"));  // /a is now more recent than /b
  cache.Insert("/c", Doc("c"), 10);
  EXPECT_EQ(cache.entries(), 2u);
  EXPECT_EQ(cache.Find("/b"), nullptr);
  ASSERT_TRUE(cache.Find("/a"));
  EXPECT_EQ(cache.Find("/a")->location, "a");
  EXPECT_EQ(cache.Find("/c")->location, "c");
}

TEST(MetadataCache, KeepsWithinItsByteBound) {
  MetadataCache cache(/*max_entries=*/10, /*max_bytes=*/100);
  cache.Insert("/a", Doc("a"), 60);
  cache.Insert("/b", Doc("b"), 60);  // 120 bytes: /a goes
  EXPECT_EQ(cache.Find("/a"), nullptr);
  EXPECT_TRUE(cache.Find("/b"));
  cache.Insert("/huge", Doc("huge"), 101);  // larger than the whole budget: not kept, evicts nothing
  EXPECT_EQ(cache.Find("/huge"), nullptr);
  EXPECT_TRUE(cache.Find("/b"));
}

TEST(MetadataCache, AnEvictedDocumentStaysValidForItsHolder) {
  MetadataCache cache(/*max_entries=*/1, /*max_bytes=*/1000);
  cache.Insert("/a", Doc("a"), 10);
  auto held = cache.Find("/a");
  cache.Insert("/b", Doc("b"), 10);
  EXPECT_EQ(cache.Find("/a"), nullptr);
  EXPECT_EQ(held->location, "a");
}

TEST(MetadataCache, ADocumentIsTakenOnlyWhenNoOneElseHoldsIt) {
  MetadataCache cache(/*max_entries=*/4, /*max_bytes=*/1000);
  cache.Insert("/a", Doc("a"), 10);
  auto mine = cache.Find("/a");
  {
    auto reader = cache.Find("/a");  // e.g. a scan of this version in another thread
    EXPECT_FALSE(cache.TakeIfUnshared("/a", mine));
    EXPECT_TRUE(cache.Find("/a"));
  }
  EXPECT_FALSE(cache.TakeIfUnshared("/a", Doc("a")));  // a different object at that location
  EXPECT_TRUE(cache.TakeIfUnshared("/a", mine));
  EXPECT_EQ(cache.Find("/a"), nullptr);
  EXPECT_EQ(mine.use_count(), 1);
}

TEST(MetadataCache, ALostAttemptServesOnlyAsThePreviousDocument) {
  TableMetadata m;
  m.table_uuid = "9f3e2a4c-0000-4000-8000-000000000001";
  m.location = "/w/t";
  m.schemas.push_back(Schema(0, {}, {}));
  m.partition_specs.push_back(PartitionSpec(0, {}));
  m.sort_orders.push_back(SortOrder::Unsorted());
  for (int64_t id = 1; id <= 3; ++id) {
    Snapshot s;
    s.snapshot_id = id;
    s.sequence_number = id;
    s.manifest_list = "/w/t/metadata/snap-" + std::to_string(id) + ".avro";
    m.snapshots.push_back(s);
  }
  m.last_sequence_number = 3;
  MetadataCache cache;
  cache.KeepLostAttempt("/w/t/metadata/lost.metadata.json", std::make_shared<TableMetadata>(m),
                        WriteTableMetadataText(m, nullptr));
  EXPECT_EQ(cache.Find("/w/t/metadata/lost.metadata.json"), nullptr);
  EXPECT_EQ(cache.FindText("/w/t/metadata/lost.metadata.json"), nullptr);
  EXPECT_TRUE(cache.LatestOfTable(m.table_uuid).text);
  // The winner holds the same first two snapshots and one of its own.
  TableMetadata winner = m;
  winner.snapshots.back().manifest_list = "/w/t/metadata/snap-3-winner.avro";
  auto parsed = cache.ParseAndInsert("/w/t/metadata/winner.metadata.json", WriteTableMetadata(winner));
  ASSERT_TRUE(parsed) << parsed.error().ToString();
  EXPECT_EQ(cache.reused_snapshots(), 2u);
  EXPECT_EQ((*parsed)->snapshots.back().manifest_list, "/w/t/metadata/snap-3-winner.avro");
  EXPECT_EQ(cache.Find("/w/t/metadata/winner.metadata.json"), *parsed);
  EXPECT_EQ(WriteTableMetadata(**parsed), WriteTableMetadata(winner));
  // Only the cache held the lost attempt: the parse took it over (its snapshots were moved).
  EXPECT_EQ(cache.entries(), 1u);
  // A table keeps one lost attempt: the latest.
  for (const char* lost : {"/w/t/metadata/lost-2.metadata.json", "/w/t/metadata/lost-3.metadata.json"}) {
    cache.KeepLostAttempt(lost, std::make_shared<TableMetadata>(m), WriteTableMetadataText(m, nullptr));
  }
  EXPECT_EQ(cache.entries(), 2u);
  // The latest (lost-3) is held by no one: handed over. A document someone still holds is
  // only lent, and stays cached.
  const PreviousDocument taken = cache.TakeLatestOfTable(m.table_uuid);
  EXPECT_TRUE(taken.handed_over);
  EXPECT_EQ(cache.entries(), 1u);
  auto held = cache.Find("/w/t/metadata/winner.metadata.json");
  ASSERT_TRUE(held);
  const PreviousDocument lent = cache.TakeLatestOfTable(m.table_uuid);
  EXPECT_FALSE(lent.handed_over);
  EXPECT_EQ(lent.metadata, held);
  EXPECT_EQ(cache.entries(), 1u);
  // A parse error is the full parser's, and caches nothing.
  auto bad = cache.ParseAndInsert("/w/t/metadata/bad.metadata.json", "{\"format-version\": 2}");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, ParseTableMetadata("{\"format-version\": 2}").error().message);
  EXPECT_EQ(cache.Find("/w/t/metadata/bad.metadata.json"), nullptr);
}

}  // namespace
}  // namespace floe
