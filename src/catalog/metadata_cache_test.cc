// The parsed-metadata cache: bounded, and never a reason to see a stale table.
#include "catalog/metadata_cache.h"

#include <gtest/gtest.h>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/sqlite_connection.h"
#include "io/fault_injecting_file_io.h"
#include "io/memory_file_io.h"

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

}  // namespace
}  // namespace floe
