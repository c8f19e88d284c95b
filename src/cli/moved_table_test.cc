// A table folder that was copied or moved keeps its old paths inside: `floe scan` and the
// metadata tables refuse it with an error that names the missing file and --allow-moved-paths,
// and read it with the flag. Tables are copied into a scratch folder at test time.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/cli_test_env.h"

namespace floe::cli_test {
namespace {

namespace fs = std::filesystem;

size_t LineCount(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// Spark's hive_partitioned_table records the relative location data/persistent/hive_partitioned_table.
TEST(MovedTable, CopiedFixtureTableIsReadWithTheFlagAndRefusedWithout) {
  const char* fixtures = std::getenv("FLOE_FIXTURES");
  if (!fixtures || !*fixtures) GTEST_SKIP() << "skipped: no fixtures";
  ScratchDir dir;
  fs::create_directories(dir.path() / "copy");
  fs::copy(fs::path(fixtures) / "tables/duckdb-iceberg/data/persistent/hive_partitioned_table", dir.path() / "copy/t",
           fs::copy_options::recursive);

  FloeRun refused = dir.Floe("scan copy/t --format csv");
  EXPECT_EQ(refused.status, 1) << refused.out;
  EXPECT_NE(refused.err.find("--allow-moved-paths"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("data/persistent/hive_partitioned_table/metadata/snap-"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "");

  FloeRun read = dir.Floe("scan copy/t --format csv --allow-moved-paths");
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_EQ(LineCount(read.out), 7u) << read.out;  // a header and the table's six rows
  EXPECT_NE(read.out.find("97531"), std::string::npos) << read.out;

  // A metadata table, and the table named by its metadata file instead of its folder.
  FloeRun files = dir.Floe("data-files copy/t/metadata/v4.metadata.json --format csv --allow-moved-paths");
  ASSERT_EQ(files.status, 0) << files.err;
  EXPECT_GT(LineCount(files.out), 1u) << files.out;
  EXPECT_NE(dir.Floe("data-files copy/t --format csv").err.find("--allow-moved-paths"), std::string::npos);
}

// A table floe wrote at file://.../test-warehouse/orders, then moved elsewhere as a whole.
TEST(MovedTable, MovedTableWithAbsoluteFileUris) {
  ScratchDir dir;
  const std::string old_location = "file://" + (dir.path() / "test-warehouse/orders").string();
  ASSERT_EQ(dir.Floe("namespace create sales").status, 0);
  FloeRun create = dir.Floe("create sales.orders --schema 'id long, country string' --location " + Quote(old_location));
  ASSERT_EQ(create.status, 0) << create.err;
  std::ofstream(dir.path() / "orders.csv") << "id,country\n1,DE\n2,FR\n";
  ASSERT_EQ(dir.Floe("append sales.orders orders.csv").status, 0);
  fs::create_directories(dir.path() / "backup");
  fs::rename(dir.path() / "test-warehouse/orders", dir.path() / "backup/orders");

  FloeRun refused = dir.Floe("scan backup/orders");
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find(old_location + "/metadata/snap-"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--allow-moved-paths"), std::string::npos) << refused.err;

  FloeRun read = dir.Floe("scan backup/orders --format csv --allow-moved-paths");
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_EQ(read.out, "id,country\n1,DE\n2,FR\n");
  FloeRun files = dir.Floe("files backup/orders --format csv --allow-moved-paths");
  ASSERT_EQ(files.status, 0) << files.err;
  EXPECT_EQ(LineCount(files.out), 2u) << files.out;  // one data file, recorded at its old path
}

// A table in its own place is read as before, flag or not.
TEST(MovedTable, TableInItsRecordedPlaceNeedsNoFlag) {
  ScratchDir dir;
  const std::string location = "file://" + (dir.path() / "tables/orders").string();
  ASSERT_EQ(dir.Floe("namespace create sales").status, 0);
  ASSERT_EQ(dir.Floe("create sales.orders --schema 'id long' --location " + Quote(location)).status, 0);
  std::ofstream(dir.path() / "orders.csv") << "id\n7\n";
  ASSERT_EQ(dir.Floe("append sales.orders orders.csv").status, 0);
  EXPECT_EQ(dir.Floe("scan tables/orders --format csv").out, "id\n7\n");
  EXPECT_EQ(dir.Floe("scan tables/orders --format csv --allow-moved-paths").out, "id\n7\n");
}

}  // namespace
}  // namespace floe::cli_test
