// The storage catalog reads a table Spark wrote in the Hadoop layout, commits on top of it and
// purges it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "catalog/catalog_test_env.h"
#include "meta/meta_test_util.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

// Copies tables/duckdb-iceberg/data/persistent/<name> to <dir>/data/persistent/<name>, writable.
void CopyFixture(const std::string& fixtures, const std::string& name, const std::string& dir) {
  fs::path to = fs::path(dir) / "data/persistent" / name;
  fs::create_directories(to.parent_path());
  fs::copy(fs::path(fixtures) / "tables/duckdb-iceberg/data/persistent" / name, to, fs::copy_options::recursive);
  for (auto& f : fs::recursive_directory_iterator(to)) {
    fs::permissions(f.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  fs::permissions(to, fs::perms::owner_write, fs::perm_options::add);
}

TEST(StorageCatalogFixture, ReadsCommitsAndPurgesASparkHadoopTable) {
  std::string fixtures = testing::FixturesDir().string();
  if (fixtures.empty()) GTEST_SKIP() << "skipped: no fixtures";
  testing_env::TempDir dir;
  CopyFixture(fixtures, "equality_deletes", dir.path());
  CatalogOptions options;
  options.base_dir = dir.path();  // the table's own paths are relative to it
  auto catalog = OpenCatalog("file://" + dir.path() + "/data/persistent/equality_deletes/warehouse", options);
  ASSERT_TRUE(catalog) << catalog.error().ToString();

  auto namespaces = (*catalog)->ListNamespaces({});
  ASSERT_TRUE(namespaces) << namespaces.error().ToString();
  EXPECT_EQ(*namespaces, (std::vector<Namespace>{{"mydb"}}));
  auto tables = (*catalog)->ListTables({"mydb"});
  ASSERT_TRUE(tables) << tables.error().ToString();
  ASSERT_EQ(*tables, (std::vector<TableIdentifier>{{{"mydb"}, "mytable"}}));

  TableIdentifier id{{"mydb"}, "mytable"};
  auto table = (*catalog)->LoadTable(id);
  ASSERT_TRUE(table) << table.error().ToString();
  EXPECT_TRUE(table->metadata_location.ends_with("/metadata/v7.metadata.json")) << table->metadata_location;
  EXPECT_EQ(table->metadata.snapshots.size(), 6u);

  // A commit on top of Spark's v7 is v8, and the hint follows.
  auto committed = (*catalog)->CommitTable(TableCommit{id, {AssertTableUuid{table->metadata.table_uuid}},
                                                       {SetProperties{{{"touched-by", "floe"}}}}});
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_TRUE(committed->metadata_location.ends_with("/metadata/v8.metadata.json"));
  std::string folder = dir.path() + "/data/persistent/equality_deletes/warehouse/mydb/mytable";
  auto hint = (*catalog)->io()->ReadAll(folder + "/metadata/version-hint.text");
  ASSERT_TRUE(hint);
  EXPECT_EQ(*hint, "8");

  // Purge: every data file and every version document goes. (The fixture's v7 names one
  // manifest list that is not on disk; the purge must get past it.)
  auto purged = (*catalog)->DropTable(id, true);
  ASSERT_TRUE(purged) << purged.error().ToString();
  EXPECT_FALSE((*catalog)->TableExists(id).value());
  for (auto& f : fs::recursive_directory_iterator(folder)) {
    if (!f.is_regular_file()) continue;
    std::string name = f.path().filename().string();
    EXPECT_FALSE(name.ends_with(".parquet")) << f.path();
    EXPECT_FALSE(name.ends_with(".metadata.json")) << f.path();
    EXPECT_NE(name, "version-hint.text");
  }
}

}  // namespace
}  // namespace floe
