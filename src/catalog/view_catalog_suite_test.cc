// The shared view suite: every backend keeps views with the same meaning (one name space with
// tables, Iceberg's messages, a replace per version, nothing written on refusal).
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "meta/view_json.h"

namespace floe {
namespace {

using testing_env::Backend;

// Iceberg's wording, inside the message (a REST client prefixes what it was doing).
#define EXPECT_MESSAGE(result, text) \
  EXPECT_NE((result).error().message.find(text), std::string::npos) << (result).error().message

class ViewSuite : public ::testing::TestWithParam<Backend> {
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
    ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
  }

  bool IsStorage() const { return GetParam() == Backend::kStorage || GetParam() == Backend::kStorageS3; }

  static CreateViewRequest Request(const std::string& sql, Properties props = {}) {
    CreateViewRequest request{testing_env::SimpleSchema()};
    request.version.representations = {ViewRepresentation{"sql", sql, "spark", ""}};
    request.version.default_namespace = {"db"};
    request.version.summary = {{"engine-name", "floe-test"}};
    request.properties = std::move(props);
    return request;
  }

  static ViewCommit Replace(const LoadedView& base, const std::string& sql) {
    ViewVersion version = base.metadata.CurrentVersion();
    version.representations = {ViewRepresentation{"sql", sql, "spark", ""}};
    version.timestamp_ms = 0;
    return ViewCommit{base.id, {AssertViewUuid{base.metadata.view_uuid}},
                      {AddViewVersion{version}, SetCurrentViewVersion{-1}}};
  }

  std::set<std::string> WarehouseFiles() {
    std::set<std::string> out;
    auto files = catalog_->io()->ListPrefix(catalog_->warehouse_location() + "/");
    EXPECT_TRUE(files) << files.error().ToString();
    if (files) {
      for (const FileInfo& f : *files) out.insert(f.path);
    }
    return out;
  }

  testing_env::TempDir dir_;
  testing_env::CatalogPlace place_;
  std::unique_ptr<Catalog> catalog_;
};

TEST_P(ViewSuite, CreateLoadListDrop) {
  const TableIdentifier id{{"db"}, "v"};
  auto created = catalog_->CreateView(id, Request("SELECT id, data FROM db.t", {{"comment", "daily"}}));
  ASSERT_TRUE(created) << created.error().ToString();
  auto loaded = catalog_->LoadView(id);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, created->metadata_location);
  EXPECT_EQ(loaded->metadata.view_uuid, created->metadata.view_uuid);
  EXPECT_EQ(loaded->metadata.current_version_id, 1);
  ASSERT_NE(loaded->metadata.CurrentVersion().SqlFor("spark"), nullptr);
  EXPECT_EQ(loaded->metadata.CurrentVersion().SqlFor("spark")->sql, "SELECT id, data FROM db.t");
  EXPECT_EQ(loaded->metadata.CurrentSchema().fields().size(), 2u);
  EXPECT_EQ(loaded->metadata.properties.at("comment"), "daily");
  EXPECT_EQ(catalog_->ListViews({"db"}).value(), std::vector<TableIdentifier>{id});
  EXPECT_TRUE(catalog_->ListTables({"db"}).value().empty()) << "a view is not listed as a table";
  EXPECT_TRUE(catalog_->ViewExists(id).value());
  EXPECT_FALSE(catalog_->TableExists(id).value());
  auto as_table = catalog_->LoadTable(id);
  ASSERT_FALSE(as_table);
  EXPECT_EQ(as_table.error().kind, ErrorKind::kNotFound);

  auto missing_ns = catalog_->ListViews({"nope"});
  ASSERT_FALSE(missing_ns);
  EXPECT_MESSAGE(missing_ns, "Namespace does not exist: nope");

  ASSERT_TRUE(catalog_->DropView(id));
  EXPECT_FALSE(catalog_->ViewExists(id).value());
  auto again = catalog_->DropView(id);
  ASSERT_FALSE(again);
  EXPECT_MESSAGE(again, "View does not exist: db.v");
  auto gone = catalog_->LoadView(id);
  ASSERT_FALSE(gone);
  EXPECT_MESSAGE(gone, "View does not exist: db.v");
}

TEST_P(ViewSuite, TablesAndViewsShareOneNameSpace) {
  const TableIdentifier t{{"db"}, "t"}, v{{"db"}, "v"};
  ASSERT_TRUE(catalog_->CreateTable(t, CreateTableRequest{testing_env::SimpleSchema()}));
  ASSERT_TRUE(catalog_->CreateView(v, Request("SELECT 1")));
  auto before = WarehouseFiles();

  auto view_on_table = catalog_->CreateView(t, Request("SELECT 2"));
  ASSERT_FALSE(view_on_table);
  EXPECT_EQ(view_on_table.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_MESSAGE(view_on_table, "Table with same name already exists: db.t");
  auto table_on_view = catalog_->CreateTable(v, CreateTableRequest{testing_env::SimpleSchema()});
  ASSERT_FALSE(table_on_view);
  EXPECT_EQ(table_on_view.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_MESSAGE(table_on_view, "View with same name already exists: db.v");
  auto twice = catalog_->CreateView(v, Request("SELECT 3"));
  ASSERT_FALSE(twice);
  EXPECT_MESSAGE(twice, "View already exists: db.v");

  EXPECT_EQ(WarehouseFiles(), before) << "a refused creation wrote nothing";
  EXPECT_EQ(catalog_->LoadView(v)->metadata.CurrentVersion().SqlFor("spark")->sql, "SELECT 1");
  EXPECT_TRUE(catalog_->LoadTable(t));
}

TEST_P(ViewSuite, ReplaceAddsAVersionAndAStaleUuidChangesNothing) {
  const TableIdentifier id{{"db"}, "v"};
  auto created = catalog_->CreateView(id, Request("SELECT 1"));
  ASSERT_TRUE(created) << created.error().ToString();
  auto replaced = catalog_->CommitView(Replace(*created, "SELECT 2"));
  ASSERT_TRUE(replaced) << replaced.error().ToString();
  auto loaded = catalog_->LoadView(id).value();
  EXPECT_EQ(loaded.metadata.current_version_id, 2);
  EXPECT_EQ(loaded.metadata.versions.size(), 2u);
  ASSERT_EQ(loaded.metadata.version_log.size(), 2u);
  EXPECT_EQ(loaded.metadata.version_log[1].version_id, 2);
  EXPECT_EQ(loaded.metadata.CurrentVersion().SqlFor("spark")->sql, "SELECT 2");

  auto before = WarehouseFiles();
  ViewCommit stale = Replace(loaded, "SELECT 3");
  stale.requirements = {AssertViewUuid{"00000000-0000-0000-0000-000000000000"}};
  auto refused = catalog_->CommitView(stale);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(refused.error().message.find("view UUID does not match"), std::string::npos) << refused.error().message;
  EXPECT_EQ(WarehouseFiles(), before);
  EXPECT_EQ(catalog_->LoadView(id)->metadata_location, loaded.metadata_location);
}

TEST_P(ViewSuite, ConcurrentReplacesThroughTwoInstancesNeverLoseOne) {
  const TableIdentifier id{{"db"}, "v"};
  ASSERT_TRUE(catalog_->CreateView(id, Request("SELECT 0", {{kViewHistorySizeProperty, "100"}})));
  auto other = testing_env::OpenPlace(place_);
  ASSERT_TRUE(other) << other.error().ToString();
  constexpr int kPerWriter = 6;
  std::atomic<int> conflicts = 0;
  auto writer = [&](Catalog* catalog, const std::string& tag) {
    for (int i = 0; i < kPerWriter; ++i) {
      const std::string sql = "SELECT '" + tag + std::to_string(i) + "'";
      for (int attempt = 0; attempt < 100; ++attempt) {
        auto base = catalog->LoadView(id);
        ASSERT_TRUE(base) << base.error().ToString();
        auto done = catalog->CommitView(Replace(*base, sql));
        if (done) break;
        ASSERT_EQ(done.error().kind, ErrorKind::kCommitConflict) << done.error().ToString();
        ++conflicts;
      }
    }
  };
  std::thread a(writer, catalog_.get(), "a"), b(writer, other->get(), "b");
  a.join();
  b.join();
  auto view = catalog_->LoadView(id).value();
  EXPECT_EQ(view.metadata.version_log.size(), 1u + 2 * kPerWriter) << "one log entry per replace";
  std::set<std::string> sqls;
  for (const auto& version : view.metadata.versions) sqls.insert(version.SqlFor("spark")->sql);
  for (const char* tag : {"a", "b"}) {
    for (int i = 0; i < kPerWriter; ++i) EXPECT_TRUE(sqls.count("SELECT '" + std::string(tag) + std::to_string(i) + "'"));
  }
}

TEST_P(ViewSuite, RenameKeepsTheNameSpaceShared) {
  const TableIdentifier v{{"db"}, "v"}, v2{{"db"}, "v2"}, t{{"db"}, "t"};
  ASSERT_TRUE(catalog_->CreateView(v, Request("SELECT 1")));
  ASSERT_TRUE(catalog_->CreateTable(t, CreateTableRequest{testing_env::SimpleSchema()}));
  auto renamed = catalog_->RenameView(v, v2);
  if (IsStorage()) {
    ASSERT_FALSE(renamed);
    EXPECT_EQ(renamed.error().kind, ErrorKind::kNotSupported);
    return;
  }
  ASSERT_TRUE(renamed) << renamed.error().ToString();
  EXPECT_FALSE(catalog_->ViewExists(v).value());
  EXPECT_TRUE(catalog_->ViewExists(v2).value());
  auto onto_table = catalog_->RenameView(v2, t);
  ASSERT_FALSE(onto_table);
  EXPECT_MESSAGE(onto_table, "Cannot rename db.v2 to db.t. Table already exists");
  auto table_onto_view = catalog_->RenameTable(t, v2);
  ASSERT_FALSE(table_onto_view);
  EXPECT_MESSAGE(table_onto_view, "Cannot rename db.t to db.v2. View already exists");
  auto missing = catalog_->RenameView(v, {{"db"}, "x"});
  ASSERT_FALSE(missing);
  EXPECT_MESSAGE(missing, "View does not exist: db.v");
}

TEST_P(ViewSuite, RegisterRefusesABadDocumentAndWritesNothing) {
  const TableIdentifier id{{"db"}, "v"};
  auto created = catalog_->CreateView(id, Request("SELECT 1"));
  ASSERT_TRUE(created) << created.error().ToString();
  nlohmann::json good = ViewMetadataToJson(created->metadata);
  nlohmann::json no_current = good;
  no_current.erase("current-version-id");
  nlohmann::json no_dialect = good;
  no_dialect["versions"][0]["representations"][0].erase("dialect");
  const std::string base = catalog_->warehouse_location() + "/db/incoming";  // inside the namespace (confinement)
  ASSERT_TRUE(catalog_->io()->CreateIfAbsent(base + "/no-current.metadata.json", no_current.dump()));
  ASSERT_TRUE(catalog_->io()->CreateIfAbsent(base + "/no-dialect.metadata.json", no_dialect.dump()));
  auto before = WarehouseFiles();
  for (auto [file, field] : {std::pair{"no-current", "current-version-id"}, std::pair{"no-dialect", "dialect"}}) {
    SCOPED_TRACE(file);
    auto registered = catalog_->RegisterView({{"db"}, file}, base + "/" + file + ".metadata.json");
    ASSERT_FALSE(registered);
    EXPECT_NE(registered.error().message.find(field), std::string::npos) << registered.error().message;
    EXPECT_FALSE(catalog_->ViewExists({{"db"}, file}).value());
  }
  EXPECT_EQ(WarehouseFiles(), before);
  auto good_copy = catalog_->RegisterView({{"db"}, "copy"}, created->metadata_location);
  ASSERT_TRUE(good_copy) << good_copy.error().ToString();
  EXPECT_EQ(catalog_->LoadView({{"db"}, "copy"})->metadata.view_uuid, created->metadata.view_uuid);
}

INSTANTIATE_TEST_SUITE_P(Backends, ViewSuite,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kStorage, Backend::kRestSqlite,
                                           Backend::kRestPostgres, Backend::kStorageS3, Backend::kSqliteS3),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
