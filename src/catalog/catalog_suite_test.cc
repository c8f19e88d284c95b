// The shared catalog suite: every backend (SQLite, PostgreSQL, storage) must pass the same tests.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "meta/metadata_builder.h"
#include "meta/metadata_json.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

using testing_env::Backend;

class CatalogSuite : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    place_ = testing_env::MakePlace(GetParam(), dir_.path());
    if (place_.uri.empty()) {
      ASSERT_EQ(place_.skip_reason.rfind("skipped", 0), 0u) << place_.skip_reason;
      GTEST_SKIP() << place_.skip_reason;
    }
    auto opened = testing_env::OpenPlace(place_);
    ASSERT_TRUE(opened) << opened.error().ToString();
    catalog_ = std::move(*opened);
  }

  std::unique_ptr<Catalog> OpenAnother() {
    auto opened = testing_env::OpenPlace(place_);
    EXPECT_TRUE(opened) << opened.error().ToString();
    return opened ? std::move(*opened) : nullptr;
  }

  bool IsStorage() const { return GetParam() == Backend::kStorage || GetParam() == Backend::kStorageS3; }
  bool IsSql() const { return !IsStorage(); }  // REST backends serve a SQL catalog
  bool IsRest() const { return GetParam() == Backend::kRestSqlite || GetParam() == Backend::kRestPostgres; }

  LoadedTable MakeTable(const TableIdentifier& id, Properties props = {}) {
    if (!catalog_->NamespaceExists(id.ns).value_or(false)) {
      auto ns = catalog_->CreateNamespace(id.ns, {});
      EXPECT_TRUE(ns) << ns.error().ToString();
    }
    CreateTableRequest request{testing_env::SimpleSchema()};
    request.properties = std::move(props);
    auto created = catalog_->CreateTable(id, request);
    EXPECT_TRUE(created) << created.error().ToString();
    return created ? *created : LoadedTable{};
  }

  // Every file below the warehouse, for "nothing changed" checks (through the catalog's
  // FileIO, so that a warehouse on S3 is seen as well as one on disk).
  std::set<std::string> WarehouseFiles() { return FilesBelow(catalog_->warehouse_location()); }
  std::set<std::string> FilesBelow(const std::string& folder) {
    std::set<std::string> out;
    auto files = catalog_->io()->ListPrefix(folder + "/");
    EXPECT_TRUE(files) << files.error().ToString();
    if (files) {
      for (const FileInfo& f : *files) out.insert(f.path);
    }
    return out;
  }
  bool FileExists(const std::string& path) { return catalog_->io()->Exists(path).value_or(false);
  }

  testing_env::TempDir dir_;
  testing_env::CatalogPlace place_;
  std::unique_ptr<Catalog> catalog_;
};

TableCommit SetProperty(const TableIdentifier& id, const std::string& key, const std::string& value,
                        std::vector<TableRequirement> requirements = {}) {
  return TableCommit{id, std::move(requirements), {SetProperties{{{key, value}}}}};
}

TEST_P(CatalogSuite, NamespacesCreateListLoadUpdateDrop) {
  ASSERT_TRUE(catalog_->CreateNamespace({"sales"}, {{"owner", "ana"}}));
  ASSERT_TRUE(catalog_->CreateNamespace({"sales", "eu"}, {}));
  ASSERT_TRUE(catalog_->CreateNamespace({"hr"}, {}));

  auto dup = catalog_->CreateNamespace({"sales"}, {});
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().kind, ErrorKind::kAlreadyExists);

  auto top = catalog_->ListNamespaces({});
  ASSERT_TRUE(top) << top.error().ToString();
  EXPECT_EQ(*top, (std::vector<Namespace>{{"hr"}, {"sales"}}));
  auto below = catalog_->ListNamespaces({"sales"});
  ASSERT_TRUE(below) << below.error().ToString();
  EXPECT_EQ(*below, (std::vector<Namespace>{{"sales", "eu"}}));
  auto missing = catalog_->ListNamespaces({"nope"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);

  EXPECT_TRUE(catalog_->NamespaceExists({"sales", "eu"}).value());
  EXPECT_FALSE(catalog_->NamespaceExists({"sales", "us"}).value());

  auto props = catalog_->LoadNamespaceProperties({"sales"});
  ASSERT_TRUE(props) << props.error().ToString();
  EXPECT_EQ(props->at("owner"), "ana");

  ASSERT_TRUE(catalog_->UpdateNamespaceProperties({"sales"}, {{"owner", "bo"}, {"tier", "gold"}}, {}));
  ASSERT_TRUE(catalog_->UpdateNamespaceProperties({"sales"}, {}, {"tier"}));
  props = catalog_->LoadNamespaceProperties({"sales"});
  ASSERT_TRUE(props);
  EXPECT_EQ(props->at("owner"), "bo");
  EXPECT_EQ(props->count("tier"), 0u);
  EXPECT_FALSE(catalog_->UpdateNamespaceProperties({"nope"}, {{"a", "b"}}, {}));

  // Not empty: it holds sales.eu.
  auto refused = catalog_->DropNamespace({"sales"});
  ASSERT_FALSE(refused);
  EXPECT_TRUE(catalog_->NamespaceExists({"sales"}).value());
  ASSERT_TRUE(catalog_->DropNamespace({"sales", "eu"}));
  ASSERT_TRUE(catalog_->DropNamespace({"sales"}));
  EXPECT_FALSE(catalog_->NamespaceExists({"sales"}).value());
  auto gone = catalog_->DropNamespace({"sales"});
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
}

TEST_P(CatalogSuite, CreateLoadListAndExists) {
  TableIdentifier id{{"db"}, "events"};
  LoadedTable created = MakeTable(id);
  EXPECT_EQ(created.metadata.location, catalog_->warehouse_location() + "/db/events");
  EXPECT_TRUE(FileExists(created.metadata_location)) << created.metadata_location;
  EXPECT_EQ(created.metadata_location.rfind(created.metadata.location + "/metadata/", 0), 0u);

  auto loaded = catalog_->LoadTable(id);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, created.metadata_location);
  EXPECT_EQ(loaded->metadata.table_uuid, created.metadata.table_uuid);
  ASSERT_NE(loaded->metadata.CurrentSchema().FindField("data"), nullptr);

  auto again = catalog_->CreateTable(id, CreateTableRequest{testing_env::SimpleSchema()});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);

  auto no_ns = catalog_->CreateTable({{"nowhere"}, "t"}, CreateTableRequest{testing_env::SimpleSchema()});
  ASSERT_FALSE(no_ns);
  EXPECT_EQ(no_ns.error().kind, ErrorKind::kNotFound);

  MakeTable({{"db"}, "clicks"});
  auto tables = catalog_->ListTables({"db"});
  ASSERT_TRUE(tables) << tables.error().ToString();
  EXPECT_EQ(*tables, (std::vector<TableIdentifier>{{{"db"}, "clicks"}, {{"db"}, "events"}}));
  EXPECT_TRUE(catalog_->TableExists(id).value());
  EXPECT_FALSE(catalog_->TableExists({{"db"}, "nope"}).value());
  auto missing = catalog_->LoadTable({{"db"}, "nope"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);

  // A namespace that holds a table is not empty.
  EXPECT_FALSE(catalog_->DropNamespace({"db"}));
}

TEST_P(CatalogSuite, CommitSwapsThePointer) {
  TableIdentifier id{{"db"}, "t"};
  LoadedTable base = MakeTable(id);
  auto committed = catalog_->CommitTable(
      SetProperty(id, "color", "blue", {AssertTableUuid{base.metadata.table_uuid}}));
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_NE(committed->metadata_location, base.metadata_location);
  EXPECT_EQ(ParseMetadataVersion(committed->metadata_location), ParseMetadataVersion(base.metadata_location) + 1);
  ASSERT_FALSE(committed->metadata.metadata_log.empty());
  EXPECT_EQ(committed->metadata.metadata_log.back().metadata_file, base.metadata_location);

  // Another instance sees the new state.
  auto other = OpenAnother();
  ASSERT_TRUE(other);
  auto loaded = other->LoadTable(id);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, committed->metadata_location);
  EXPECT_EQ(loaded->metadata.properties.at("color"), "blue");
}

// The commit loop writes a snapshot's manifest list while the catalog writes the document:
// every catalog must wait for it, once, before the swap, and not swap when it failed.
TEST_P(CatalogSuite, CommitAwaitsInFlightFilesOnceBeforeTheSwap) {
  TableIdentifier id{{"db"}, "t"};
  LoadedTable base = MakeTable(id);
  auto other = OpenAnother();
  ASSERT_TRUE(other);

  int calls = 0;
  std::string pointer_while_awaiting;
  TableCommit commit = SetProperty(id, "color", "blue", {AssertTableUuid{base.metadata.table_uuid}});
  commit.await_files = [&]() -> Status {
    ++calls;
    auto seen = other->LoadTable(id);  // another instance: what readers see at this moment
    if (seen) pointer_while_awaiting = seen->metadata_location;
    return Ok();
  };
  auto committed = catalog_->CommitTable(commit);
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(pointer_while_awaiting, base.metadata_location);  // not swapped yet

  auto before = WarehouseFiles();
  TableCommit failing = SetProperty(id, "color", "red");
  failing.await_files = []() -> Status { return IOError("manifest list write failed (injected)"); };
  auto refused = catalog_->CommitTable(failing);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("injected"), std::string::npos) << refused.error().ToString();
  auto loaded = other->LoadTable(id);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata_location, committed->metadata_location);
  EXPECT_EQ(loaded->metadata.properties.at("color"), "blue");
  EXPECT_EQ(WarehouseFiles(), before);  // its document was not left behind
}

TEST_P(CatalogSuite, StaleRequirementConflictsAndChangesNothing) {
  TableIdentifier id{{"db"}, "t"};
  LoadedTable base = MakeTable(id);
  auto before = WarehouseFiles();
  auto refused = catalog_->CommitTable(
      SetProperty(id, "color", "red", {AssertCurrentSchemaId{base.metadata.current_schema_id + 1}}));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict) << refused.error().ToString();
  EXPECT_EQ(WarehouseFiles(), before);
  auto loaded = catalog_->LoadTable(id);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata_location, base.metadata_location);
  EXPECT_EQ(loaded->metadata.properties.count("color"), 0u);
}

TEST_P(CatalogSuite, StaleSwapFromSecondInstanceConflicts) {
  TableIdentifier id{{"db"}, "t"};
  LoadedTable base = MakeTable(id);
  auto other = OpenAnother();
  ASSERT_TRUE(other);
  auto* store_a = dynamic_cast<PointerStore*>(catalog_.get());
  auto* store_b = dynamic_cast<PointerStore*>(other.get());
  if (IsRest()) GTEST_SKIP() << "a REST client has no pointer to swap: the server swaps (see tests/rest_*_test.cc)";
  ASSERT_TRUE(store_a && store_b);

  // Both writers start from the same base and prepare their next documents.
  auto next_a = ApplyCommit(&base.metadata, base.metadata_location, {}, {SetProperties{{{"w", "a"}}}}, 1);
  auto next_b = ApplyCommit(&base.metadata, base.metadata_location, {}, {SetProperties{{{"w", "b"}}}}, 1);
  ASSERT_TRUE(next_a && next_b);
  auto loc_a = store_a->NewMetadataLocation(id, *next_a, base.metadata_location);
  auto loc_b = store_b->NewMetadataLocation(id, *next_b, base.metadata_location);
  ASSERT_TRUE(loc_a && loc_b);
  auto io = catalog_->io();
  auto wrote_a = io->CreateIfAbsent(*loc_a, WriteTableMetadata(*next_a));
  ASSERT_TRUE(wrote_a);
  auto wrote_b = io->CreateIfAbsent(*loc_b, WriteTableMetadata(*next_b));
  if (IsStorage()) {
    // The document's name is the pointer: the second creator of v<N+1> loses right there.
    ASSERT_FALSE(wrote_b);
    EXPECT_EQ(wrote_b.error().kind, ErrorKind::kAlreadyExists);
  } else {
    ASSERT_TRUE(wrote_b);
    ASSERT_TRUE(store_a->SwapPointer({id, base.metadata_location, *loc_a}));
    auto lost = store_b->SwapPointer({id, base.metadata_location, *loc_b});
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.error().kind, ErrorKind::kCommitConflict);
  }
  auto loaded = other->LoadTable(id);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata_location, *loc_a);
  EXPECT_EQ(loaded->metadata.properties.at("w"), "a");
}

TEST_P(CatalogSuite, ConcurrentCommitsThroughTwoInstancesNeverLoseOne) {
  TableIdentifier id{{"db"}, "t"};
  MakeTable(id);
  auto other = OpenAnother();
  ASSERT_TRUE(other);
  constexpr int kPerWriter = 25;
  std::atomic<int> conflicts{0};
  auto writer = [&](Catalog* catalog, const std::string& who) {
    for (int i = 0; i < kPerWriter;) {
      auto done = catalog->CommitTable(SetProperty(id, who + std::to_string(i), "x"));
      if (done) {
        ++i;
      } else {
        ASSERT_EQ(done.error().kind, ErrorKind::kCommitConflict) << done.error().ToString();
        ++conflicts;
      }
    }
  };
  std::thread a(writer, catalog_.get(), "a");
  std::thread b(writer, other.get(), "b");
  a.join();
  b.join();
  auto loaded = catalog_->LoadTable(id);
  ASSERT_TRUE(loaded);
  for (int i = 0; i < kPerWriter; ++i) {
    EXPECT_EQ(loaded->metadata.properties.count("a" + std::to_string(i)), 1u) << i;
    EXPECT_EQ(loaded->metadata.properties.count("b" + std::to_string(i)), 1u) << i;
  }
  // One document per commit, except through `floe serve`, whose group commit may write the
  // commits that arrive during one swap as a single document (never more documents than commits).
  if (IsRest()) {
    EXPECT_LE(loaded->metadata.metadata_log.size(), static_cast<size_t>(2 * kPerWriter));
  } else {
    EXPECT_EQ(loaded->metadata.metadata_log.size(), static_cast<size_t>(2 * kPerWriter));
  }
  // Conflicts may or may not occur; losers' documents were removed, so only the documents the
  // log names and the current one remain.
  std::set<std::string> documents;
  for (const auto& f : FilesBelow(loaded->metadata.location + "/metadata")) {
    if (f.find(".metadata.json") != std::string::npos) documents.insert(f);
  }
  EXPECT_EQ(documents.size(), loaded->metadata.metadata_log.size() + 1);
}

TEST_P(CatalogSuite, MultiTableCommitIsAllOrNothing) {
  TableIdentifier a{{"db"}, "a"}, b{{"db"}, "b"};
  LoadedTable base_a = MakeTable(a);
  LoadedTable base_b = MakeTable(b);
  std::vector<TableCommit> both = {SetProperty(a, "k", "1"), SetProperty(b, "k", "1")};
  if (!IsSql()) {
    auto refused = catalog_->CommitTransaction(both);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::kNotSupported);
    EXPECT_EQ(catalog_->LoadTable(a)->metadata_location, base_a.metadata_location);
    return;
  }
  auto committed = catalog_->CommitTransaction(both);
  ASSERT_TRUE(committed) << committed.error().ToString();
  ASSERT_EQ(committed->size(), 2u);
  EXPECT_EQ(catalog_->LoadTable(a)->metadata.properties.at("k"), "1");
  EXPECT_EQ(catalog_->LoadTable(b)->metadata.properties.at("k"), "1");

  // The second commit's requirement fails: neither table moves and no new file stays.
  auto before = WarehouseFiles();
  std::string loc_a = catalog_->LoadTable(a)->metadata_location;
  std::string loc_b = catalog_->LoadTable(b)->metadata_location;
  auto refused = catalog_->CommitTransaction(
      {SetProperty(a, "k", "2"), SetProperty(b, "k", "2", {AssertTableUuid{"00000000-0000-0000-0000-000000000000"}})});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(catalog_->LoadTable(a)->metadata_location, loc_a);
  EXPECT_EQ(catalog_->LoadTable(b)->metadata_location, loc_b);
  EXPECT_EQ(WarehouseFiles(), before);

  // A swap that loses at the database (b moved after the documents were prepared) rolls back
  // a's swap too.
  if (IsRest()) return;  // the client has no pointer store; the server's is the SQL one above
  auto* store = dynamic_cast<PointerStore*>(catalog_.get());
  ASSERT_TRUE(store);
  auto status = store->SwapPointers({{a, loc_a, loc_a + ".next"}, {b, loc_b + ".stale", loc_b + ".next"}});
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(catalog_->LoadTable(a)->metadata_location, loc_a);
}

TEST_P(CatalogSuite, DropWithoutAndWithPurge) {
  TableIdentifier keep{{"db"}, "keep"}, purge{{"db"}, "purge"};
  LoadedTable kept = MakeTable(keep);
  MakeTable(purge);
  auto c1 = catalog_->CommitTable(SetProperty(purge, "a", "1"));
  auto c2 = catalog_->CommitTable(SetProperty(purge, "b", "2"));
  ASSERT_TRUE(c1 && c2);

  ASSERT_TRUE(catalog_->DropTable(keep, false));
  EXPECT_FALSE(catalog_->TableExists(keep).value());
  if (IsSql()) {
    EXPECT_TRUE(FileExists(kept.metadata_location));  // files stay
  }

  ASSERT_TRUE(catalog_->DropTable(purge, true));
  EXPECT_FALSE(catalog_->TableExists(purge).value());
  EXPECT_FALSE(FileExists(c2->metadata_location));
  for (const auto& entry : c2->metadata.metadata_log) {
    EXPECT_FALSE(FileExists(entry.metadata_file)) << entry.metadata_file;
  }
  auto again = catalog_->DropTable(purge, false);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kNotFound);
}

TEST_P(CatalogSuite, RenameAcrossNamespaces) {
  TableIdentifier from{{"db"}, "t"}, to{{"archive"}, "t2"};
  LoadedTable base = MakeTable(from);
  ASSERT_TRUE(catalog_->CreateNamespace({"archive"}, {}));
  auto renamed = catalog_->RenameTable(from, to);
  if (!IsSql()) {
    ASSERT_FALSE(renamed);
    EXPECT_EQ(renamed.error().kind, ErrorKind::kNotSupported);
    EXPECT_TRUE(catalog_->TableExists(from).value());
    EXPECT_FALSE(catalog_->TableExists(to).value());
    return;
  }
  ASSERT_TRUE(renamed) << renamed.error().ToString();
  EXPECT_FALSE(catalog_->TableExists(from).value());
  auto loaded = catalog_->LoadTable(to);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata.table_uuid, base.metadata.table_uuid);
  // Commits go on under the new name.
  ASSERT_TRUE(catalog_->CommitTable(SetProperty(to, "after", "rename")));

  MakeTable(from);
  auto taken = catalog_->RenameTable(from, to);
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind, ErrorKind::kAlreadyExists);
  auto no_ns = catalog_->RenameTable(from, {{"nowhere"}, "x"});
  ASSERT_FALSE(no_ns);
  EXPECT_EQ(no_ns.error().kind, ErrorKind::kNotFound);
  EXPECT_TRUE(catalog_->TableExists(from).value());
}

TEST_P(CatalogSuite, RegisterExistingMetadataFile) {
  LoadedTable base = MakeTable({{"db"}, "original"});
  TableIdentifier id{{"db"}, "registered"};
  if (IsRest()) {
    // floe serve hands no table's document to another while that table holds it (its files
    // would then have two owners, and a purge of either would take the other's).
    auto refused = catalog_->RegisterTable(id, base.metadata_location);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument) << refused.error().ToString();
    ASSERT_TRUE(catalog_->DropTable(base.id, false));
  }
  auto registered = catalog_->RegisterTable(id, base.metadata_location);
  ASSERT_TRUE(registered) << registered.error().ToString();
  EXPECT_EQ(registered->metadata.table_uuid, base.metadata.table_uuid);
  auto loaded = catalog_->LoadTable(id);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata.table_uuid, base.metadata.table_uuid);
  ASSERT_TRUE(catalog_->CommitTable(SetProperty(id, "after", "register")));

  auto dup = catalog_->RegisterTable(id, base.metadata_location);
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().kind, ErrorKind::kAlreadyExists);
  auto not_metadata = catalog_->RegisterTable({{"db"}, "bad"}, dir_.path() + "/missing.metadata.json");
  ASSERT_FALSE(not_metadata);
  EXPECT_FALSE(catalog_->TableExists({{"db"}, "bad"}).value());
}

TEST_P(CatalogSuite, BadNamesAreRefusedAndChangeNothing) {
  MakeTable({{"db"}, "t"});
  auto before = WarehouseFiles();
  auto namespaces_before = catalog_->ListNamespaces({}).value();
  const std::vector<std::string> bad = {"", ".", "..", "a/b", "a\\b", std::string("a\nb"), std::string("a\x01", 2)};
  for (const auto& name : bad) {
    SCOPED_TRACE("name '" + name + "'");
    auto ns = catalog_->CreateNamespace({name}, {});
    ASSERT_FALSE(ns);
    EXPECT_EQ(ns.error().kind, ErrorKind::kInvalidArgument);
    auto t = catalog_->CreateTable({{"db"}, name}, CreateTableRequest{testing_env::SimpleSchema()});
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().kind, ErrorKind::kInvalidArgument);
    auto r = catalog_->RenameTable({{"db"}, "t"}, {{"db"}, name});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
    auto l = catalog_->LoadTable({{name}, "t"});
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().kind, ErrorKind::kInvalidArgument);
  }
  auto dotted = catalog_->CreateNamespace({"a.b"}, {});
  ASSERT_FALSE(dotted);
  EXPECT_EQ(dotted.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(WarehouseFiles(), before);
  EXPECT_EQ(catalog_->ListNamespaces({}).value(), namespaces_before);
  EXPECT_TRUE(catalog_->TableExists({{"db"}, "t"}).value());
}

INSTANTIATE_TEST_SUITE_P(Backends, CatalogSuite,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kStorage, Backend::kRestSqlite,
                                           Backend::kRestPostgres, Backend::kStorageS3, Backend::kSqliteS3,
                                           Backend::kPostgresS3),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
