// A SQL catalog's parsed-metadata cache (table_files/metadata_cache.h) as commits and loads use
// it: a document it wrote is not read back, another writer's is seen at once and parsed reusing
// the one before.
#include <gtest/gtest.h>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/sqlite_connection.h"
#include "io/fault_injecting_file_io.h"
#include "io/memory_file_io.h"
#include "meta/metadata_json.h"
#include "table_files/metadata_cache.h"

namespace floe {
namespace {

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

}  // namespace
}  // namespace floe
