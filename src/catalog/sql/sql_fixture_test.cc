// floe opens a catalog database PyIceberg wrote, and writes catalogs PyIceberg can open.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "catalog/catalog_test_env.h"
#include "meta/meta_test_util.h"
#include "catalog/sql/sqlite_connection.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCatalogDb = "/tables/duckdb-iceberg/data/persistent/partition_timestamp/pyiceberg_catalog.db";

std::vector<std::string> TableDdl(const std::string& db_path) {
  auto conn = SqliteConnection::Open(db_path);
  EXPECT_TRUE(conn) << conn.error().ToString();
  if (!conn) return {};
  auto rows = (*conn)->Query("SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name");
  EXPECT_TRUE(rows) << rows.error().ToString();
  std::vector<std::string> out;
  for (auto& row : *rows) out.push_back(row[0].value_or(""));
  return out;
}

TEST(PyIcebergCatalog, ListsAndLoadsTheFixtureTable) {
  std::string fixtures = testing::FixturesDir().string();
  if (fixtures.empty()) GTEST_SKIP() << "skipped: no fixtures";
  testing_env::TempDir dir;
  std::string db = dir.path() + "/pyiceberg_catalog.db";
  fs::copy_file(fixtures + kCatalogDb, db);  // fixtures are read-only; opening writes WAL files
  fs::permissions(db, fs::perms::owner_write, fs::perm_options::add);
  const auto ddl_before = TableDdl(db);

  CatalogOptions options;  // catalog name "default", as PyIceberg named it
  options.base_dir = fixtures + "/tables/duckdb-iceberg";  // the metadata paths are relative to it
  auto catalog = OpenCatalog("sqlite://" + db, options);
  ASSERT_TRUE(catalog) << catalog.error().ToString();

  auto namespaces = (*catalog)->ListNamespaces({});
  ASSERT_TRUE(namespaces) << namespaces.error().ToString();
  EXPECT_EQ(*namespaces, (std::vector<Namespace>{{"default"}}));
  auto props = (*catalog)->LoadNamespaceProperties({"default"});
  ASSERT_TRUE(props);
  EXPECT_EQ(props->at("exists"), "true");

  auto tables = (*catalog)->ListTables({"default"});
  ASSERT_TRUE(tables) << tables.error().ToString();
  ASSERT_EQ(*tables, (std::vector<TableIdentifier>{{{"default"}, "partition_timestamp"}}));

  auto table = (*catalog)->LoadTable({{"default"}, "partition_timestamp"});
  ASSERT_TRUE(table) << table.error().ToString();
  EXPECT_EQ(table->metadata_location,
            "data/persistent/partition_timestamp/default.db/partition_timestamp/metadata/"
            "00001-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json");
  EXPECT_EQ(table->metadata.table_uuid, "b9afaa67-1fdf-462d-b3e9-4717d797db77");
  EXPECT_EQ(table->metadata.current_snapshot_id, 2508913168551256223LL);
  ASSERT_NE(table->metadata.CurrentSchema().FindField("partition_col"), nullptr);
  // The manifest list the snapshot names is reachable through the catalog's FileIO.
  auto io = (*catalog)->io();
  EXPECT_TRUE(io->Exists(table->metadata.CurrentSnapshot()->manifest_list).value_or(false));

  // Opening did not touch PyIceberg's schema.
  EXPECT_EQ(TableDdl(db), ddl_before);
}

TEST(PyIcebergCatalog, NewCatalogHasPyIcebergsExactSchema) {
  std::string fixtures = testing::FixturesDir().string();
  if (fixtures.empty()) GTEST_SKIP() << "skipped: no fixtures";
  testing_env::TempDir dir;
  std::string copy = dir.path() + "/pyiceberg.db";
  fs::copy_file(fixtures + kCatalogDb, copy);
  fs::permissions(copy, fs::perms::owner_write, fs::perm_options::add);
  auto catalog = OpenCatalog("sqlite://" + dir.path() + "/new.db");
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  auto ours = TableDdl(dir.path() + "/new.db");
  auto theirs = TableDdl(copy);
  ASSERT_EQ(ours.size(), 2u);
  // SQLite keeps the statement's text (minus IF NOT EXISTS): the same text means the same columns,
  // types, nullability and keys.
  EXPECT_EQ(ours, theirs);
}

TEST(PyIcebergCatalog, DefaultCatalogIsCreatedInDotWarehouse) {
  testing_env::TempDir dir;
  auto old = fs::current_path();
  fs::current_path(dir.path());
  auto catalog = OpenCatalog("");
  fs::current_path(old);
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  EXPECT_TRUE(fs::exists(dir.path() + "/warehouse/catalog.db"));
  EXPECT_EQ((*catalog)->warehouse_location(), fs::path(dir.path() + "/warehouse").lexically_normal().string());
  EXPECT_EQ((*catalog)->name(), "default");
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

TEST(PyIcebergCatalog, PurgeDeletesEveryFileTheTableReaches) {
  std::string fixtures = testing::FixturesDir().string();
  if (fixtures.empty()) GTEST_SKIP() << "skipped: no fixtures";
  testing_env::TempDir dir;
  fs::path table_dir = fs::path(dir.path()) / "data/persistent/partition_timestamp";
  fs::create_directories(table_dir.parent_path());
  fs::copy(fs::path(fixtures) / "tables/duckdb-iceberg/data/persistent/partition_timestamp", table_dir,
           fs::copy_options::recursive);
  for (auto& f : fs::recursive_directory_iterator(table_dir)) {
    fs::permissions(f.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  fs::permissions(table_dir, fs::perms::owner_write, fs::perm_options::add);

  CatalogOptions options;
  options.base_dir = dir.path();
  auto catalog = OpenCatalog("sqlite://" + (table_dir / "pyiceberg_catalog.db").string(), options);
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  size_t before = 0;
  for (auto& f : fs::recursive_directory_iterator(table_dir / "default.db")) before += f.is_regular_file();
  ASSERT_GT(before, 5u);  // 2 documents, a manifest list, a manifest, 2 data files

  auto purged = (*catalog)->DropTable({{"default"}, "partition_timestamp"}, true);
  ASSERT_TRUE(purged) << purged.error().ToString();
  std::vector<std::string> left;
  for (auto& f : fs::recursive_directory_iterator(table_dir / "default.db")) {
    if (f.is_regular_file()) left.push_back(f.path().string());
  }
  EXPECT_TRUE(left.empty()) << left.size() << " files left, e.g. " << (left.empty() ? "" : left[0]);
  EXPECT_TRUE((*catalog)->ListTables({"default"})->empty());
}

}  // namespace
}  // namespace floe
