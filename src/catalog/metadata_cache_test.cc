// The parsed-metadata cache: bounded, and never a reason to see a stale table.
#include "catalog/metadata_cache.h"

#include <gtest/gtest.h>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/sqlite_connection.h"
#include "io/fault_injecting_file_io.h"
#include "io/memory_file_io.h"
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

// A SQLite catalog over a FileIO that counts reads, so a test can tell a parse from a hit.
struct CountingCatalog {
  explicit CountingCatalog(const std::string& db, std::shared_ptr<FileIO> files)
      : io(std::make_shared<FaultInjectingFileIO>(std::move(files))) {
    auto conn = SqliteConnection::Open(db);
    EXPECT_TRUE(conn) << conn.error().ToString();
    auto opened = SqlCatalog::Open(std::move(*conn), "test", "/w", io);
    EXPECT_TRUE(opened) << opened.error().ToString();
    catalog = std::move(*opened);
  }
  int64_t Reads() const { return io->Calls(FileOp::kReadAll); }
  std::shared_ptr<FaultInjectingFileIO> io;
  std::unique_ptr<SqlCatalog> catalog;
};

TableCommit SetColor(const TableIdentifier& id, const std::string& color) {
  return TableCommit{id, {}, {SetProperties{{{"color", color}}}}};
}

class SqlCatalogCache : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(a_.catalog->CreateNamespace({"db"}, {}));
    CreateTableRequest request;
    request.schema = testing_env::SimpleSchema();
    ASSERT_TRUE(a_.catalog->CreateTable(id_, request));
  }
  testing_env::TempDir dir_{"floe-cache"};
  std::shared_ptr<MemoryFileIO> files_ = std::make_shared<MemoryFileIO>();
  CountingCatalog a_{dir_.path() + "/catalog.db", files_};
  CountingCatalog b_{dir_.path() + "/catalog.db", files_};
  TableIdentifier id_{{"db"}, "t"};
};

TEST_F(SqlCatalogCache, ADocumentThisCatalogWroteIsNotReadBack) {
  ASSERT_TRUE(a_.catalog->CommitTable(SetColor(id_, "red")));
  const int64_t reads = a_.Reads();
  auto loaded = a_.catalog->LoadTable(id_);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata.Property("color", ""), "red");
  auto shared = a_.catalog->LoadSharedTable(id_);
  ASSERT_TRUE(shared);
  EXPECT_EQ(shared->metadata->Property("color", ""), "red");
  ASSERT_TRUE(a_.catalog->CommitTable(SetColor(id_, "green")));  // its base comes from the cache too
  EXPECT_EQ(a_.Reads(), reads);
}

TEST_F(SqlCatalogCache, AnotherWritersCommitIsSeenAtOnce) {
  // Both catalogs cache; each must still follow the pointer, not its memory of the table.
  ASSERT_TRUE(a_.catalog->CommitTable(SetColor(id_, "red")));
  auto seen_by_b = b_.catalog->LoadTable(id_);
  ASSERT_TRUE(seen_by_b);
  EXPECT_EQ(seen_by_b->metadata.Property("color", ""), "red");
  ASSERT_TRUE(b_.catalog->CommitTable(SetColor(id_, "blue")));
  auto seen_by_a = a_.catalog->LoadSharedTable(id_);
  ASSERT_TRUE(seen_by_a);
  EXPECT_EQ(seen_by_a->metadata->Property("color", ""), "blue");
  EXPECT_EQ(seen_by_a->metadata_location, b_.catalog->LoadTable(id_)->metadata_location);
  // A commit by A that started from the old state still loses: requirements are checked
  // against the document the pointer names now.
  TableCommit stale = SetColor(id_, "stale");
  stale.requirements.push_back(AssertCurrentSchemaId{seen_by_a->metadata->current_schema_id});
  stale.requirements.push_back(AssertRefSnapshotId{"main", 42});
  auto refused = a_.catalog->CommitTable(stale);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
}

TEST_F(SqlCatalogCache, ALoadedTableIsACopyTheCallerMayChange) {
  ASSERT_TRUE(a_.catalog->CommitTable(SetColor(id_, "red")));
  auto first = a_.catalog->LoadTable(id_);
  ASSERT_TRUE(first);
  first->metadata.properties["color"] = "changed by the caller";
  auto second = a_.catalog->LoadTable(id_);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->metadata.Property("color", ""), "red");
}

// A commit of `count` new snapshots on main (their manifest lists need not exist here).
TableCommit AddSnapshots(const TableMetadata& base, int count, const std::string& writer = "a") {
  TableCommit commit{TableIdentifier{{"db"}, "t"}, {}, {}};
  std::optional<int64_t> parent;
  if (const Snapshot* head = base.CurrentSnapshot()) parent = head->snapshot_id;
  int64_t seq = base.last_sequence_number;
  int64_t id = parent.value_or(0);
  for (int i = 0; i < count; ++i) {
    Snapshot s;
    s.snapshot_id = ++id;
    s.parent_snapshot_id = parent;
    s.sequence_number = ++seq;
    s.timestamp_ms = 1000 + id;
    s.manifest_list = "/w/db/t/metadata/snap-" + std::to_string(id) + ".avro";
    s.summary = {{"operation", "append"}, {"added-records", std::to_string(id)}, {"writer", writer}};
    commit.updates.push_back(AddSnapshot{s});
    parent = id;
  }
  commit.updates.push_back(SetSnapshotRef{"main", SnapshotRef{*parent, RefType::kBranch, {}, {}, {}}});
  return commit;
}

TEST_F(SqlCatalogCache, AnotherCatalogsDocumentIsParsedReusingTheOneBefore) {
  auto base = a_.catalog->LoadTable(id_);
  ASSERT_TRUE(base);
  ASSERT_TRUE(a_.catalog->CommitTable(AddSnapshots(base->metadata, 5)));
  auto first = b_.catalog->LoadSharedTable(id_);  // B parses A's document: nothing to reuse yet
  ASSERT_TRUE(first);
  MetadataCache& b_cache = *b_.catalog->metadata_cache();
  EXPECT_EQ(b_cache.reused_snapshots(), 0u);
  ASSERT_TRUE(a_.catalog->CommitTable(AddSnapshots(*first->metadata, 2)));
  auto second = b_.catalog->LoadSharedTable(id_);
  ASSERT_TRUE(second);
  EXPECT_EQ(b_cache.reused_snapshots(), 5u);  // only A's two new snapshots were parsed
  // Exactly what a full parse of the document gives.
  auto text = files_->ReadAll(second->metadata_location);
  ASSERT_TRUE(text);
  auto full = ParseTableMetadata(*text);
  ASSERT_TRUE(full);
  EXPECT_EQ(WriteTableMetadata(*second->metadata), WriteTableMetadata(*full));
  ASSERT_EQ(second->metadata->snapshots.size(), 7u);
  // A's own writes were not parsed at all; B's parsed text is never handed to B's writer.
  EXPECT_EQ(b_cache.FindText(second->metadata_location), nullptr);
  ASSERT_TRUE(b_.catalog->CommitTable(AddSnapshots(*second->metadata, 1)));
  auto third = a_.catalog->LoadTable(id_);
  ASSERT_TRUE(third);
  EXPECT_EQ(third->metadata.snapshots.size(), 8u);
  EXPECT_EQ(a_.catalog->metadata_cache()->reused_snapshots(), 7u);  // A reused its own written text
}

// A's catalog as a pointer store whose next swap first lets `race` commit: A's swap then
// finds the pointer moved and loses, after A's document was written.
class RacingStore : public PointerStore {
 public:
  RacingStore(SqlCatalog& inner, std::function<void()> race) : inner_(inner), race_(std::move(race)) {}
  Result<std::string> CurrentMetadataLocation(const TableIdentifier& id) override {
    return inner_.CurrentMetadataLocation(id);
  }
  Result<std::string> NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                          const std::string& base_location) override {
    return inner_.NewMetadataLocation(id, next, base_location);
  }
  Status SwapPointer(const PointerSwap& swap) override {
    if (race_) std::exchange(race_, nullptr)();
    return inner_.SwapPointer(swap);
  }
  Status SwapPointers(const std::vector<PointerSwap>& swaps) override { return inner_.SwapPointers(swaps); }
  MetadataCache* metadata_cache() override { return inner_.metadata_cache(); }

 private:
  SqlCatalog& inner_;
  std::function<void()> race_;
};

TEST_F(SqlCatalogCache, AWriterThatLosesTheSwapParsesTheWinnerReusingItsLostDocument) {
  auto base = a_.catalog->LoadTable(id_);
  ASSERT_TRUE(base);
  ASSERT_TRUE(a_.catalog->CommitTable(AddSnapshots(base->metadata, 5)));
  auto five = a_.catalog->LoadTable(id_);  // a copy: the commit below may take the cached base
  ASSERT_TRUE(five);
  RacingStore racing(*a_.catalog, [&] {
    auto seen_by_b = b_.catalog->LoadTable(id_);
    ASSERT_TRUE(seen_by_b);
    ASSERT_TRUE(b_.catalog->CommitTable(AddSnapshots(seen_by_b->metadata, 1, "b")));
  });
  auto lost = CommitSharedTableVia(racing, *a_.io, AddSnapshots(five->metadata, 1, "a"));
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().kind, ErrorKind::kCommitConflict);
  MetadataCache& cache = *a_.catalog->metadata_cache();
  const size_t reused_before = cache.reused_snapshots();
  auto winner = a_.catalog->LoadSharedTable(id_);
  ASSERT_TRUE(winner);
  EXPECT_EQ(cache.reused_snapshots() - reused_before, 5u);  // all but B's own snapshot
  ASSERT_EQ(winner->metadata->snapshots.size(), 6u);
  EXPECT_EQ(winner->metadata->snapshots.back().summary.at("writer"), "b");
  auto text = files_->ReadAll(winner->metadata_location);
  ASSERT_TRUE(text);
  auto full = ParseTableMetadata(*text);
  ASSERT_TRUE(full);
  EXPECT_EQ(WriteTableMetadata(*winner->metadata), WriteTableMetadata(*full));
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
