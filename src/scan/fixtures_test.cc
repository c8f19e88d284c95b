// Every table in the fixtures (written by Spark, PyIceberg and DuckDB) reads exactly the rows
// fixtures/README.md lists, opened without a catalog (from its folder) and, for the PyIceberg
// table, through its SQLite catalog. Reads go through a FileIO rebased on
// fixtures/tables/duckdb-iceberg, which is what the tables' relative paths are relative to.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "catalog/catalog_test_env.h"
#include "io/local_file_io.h"
#include "scan/metadata_tables.h"
#include "scan/scan_test_util.h"
#include "scan/static_table.h"
#include "scan/table_scan.h"
#include "table_files/rebased_file_io.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using testing::RowStrings;

std::string FixturesDir() {
  if (const char* env = std::getenv("FLOE_FIXTURES")) return env;
  std::string beside = std::string(FLOE_SOURCE_DIR) + "/../shared/fixtures";
  return fs::exists(beside) ? beside : "";
}

class Fixtures : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FixturesDir();
    if (dir_.empty()) GTEST_SKIP() << "skipped: no fixtures";
    base_ = dir_ + "/tables/duckdb-iceberg";
    io_ = std::make_shared<RebasedFileIO>(std::make_shared<LocalFileIO>(), base_);
  }

  StaticTable Open(const std::string& location) {
    auto t = OpenStaticTable(*io_, location);
    EXPECT_TRUE(t) << t.error().ToString();
    return t ? *t : StaticTable{};
  }

  std::vector<std::string> Read(const TableMetadata& table, ScanOptions options = {}) {
    auto rows = ReadTable(*io_, table, options);
    EXPECT_TRUE(rows) << rows.error().ToString();
    return rows ? RowStrings(*rows) : std::vector<std::string>{"<error>"};
  }

  std::string dir_, base_;
  std::shared_ptr<FileIO> io_;
};

// A row in the reader's text form, built from typed values so the test does not depend on
// how a date or timestamp prints.
std::string Row(std::vector<Literal> values) {
  std::string line;
  for (size_t i = 0; i < values.size(); ++i) line += (i ? "|" : "") + (values[i].is_null() ? "NULL" : values[i].ToString());
  return line;
}
Literal Date(const char* text) { return *Literal::String(text).CastTo(Type::Date()); }
Literal Ts(const char* text) { return *Literal::String(text).CastTo(Type::Timestamp()); }
std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

constexpr const char* kEqualityDeletes = "data/persistent/equality_deletes/warehouse/mydb/mytable";

TEST_F(Fixtures, EqualityDeletesSpark) {
  StaticTable t = Open(kEqualityDeletes);
  EXPECT_NE(t.metadata_location.find("v7.metadata.json"), std::string::npos) << t.metadata_location;
  EXPECT_EQ(Read(t.metadata), Sorted({Row({Literal::Int(4), Literal::String("d"), Date("2025-01-04")}),
                                      Row({Literal::Int(5), Literal::String("e"), Date("2025-01-05")})}));
}

TEST_F(Fixtures, HivePartitionedTableWithSpecEvolution) {
  StaticTable t = Open("data/persistent/hive_partitioned_table");
  ScanOptions options;
  options.columns = {"event_date", "event_type", "user_id"};
  EXPECT_EQ(Read(t.metadata, options),
            Sorted({Row({Date("2024-01-01"), Literal::String("click"), Literal::Long(12345)}),
                    Row({Date("2024-01-02"), Literal::String("purchase"), Literal::Long(67890)}),
                    Row({Date("2024-01-03"), Literal::String("click"), Literal::Long(24680)}),
                    Row({Date("2024-01-03"), Literal::String("view"), Literal::Long(13579)}),
                    Row({Date("2024-01-04"), Literal::String("purchase"), Literal::Long(97531)}),
                    Row({Date("2024-01-04"), Literal::String("view"), Literal::Long(86420)})}));
}

TEST_F(Fixtures, IcebergV1WithoutManifestList) {
  StaticTable t = Open("data/persistent/iceberg_v1_deprecated/default/legacy_v1");
  EXPECT_EQ(t.metadata.format_version, 1);
  EXPECT_EQ(Read(t.metadata), Sorted({Row({Literal::Int(1), Literal::String("alpha"), Literal::Int(10)}),
                                      Row({Literal::Int(2), Literal::String("beta"), Literal::Int(20)}),
                                      Row({Literal::Int(3), Literal::String("alpha"), Literal::Null(Type::Int())})}));
  // Sequence numbers of a v1 table read as 0.
  auto tasks = PlanFiles(*io_, t.metadata, {});
  ASSERT_TRUE(tasks) << tasks.error().ToString();
  ASSERT_EQ(tasks->size(), 2u);
  for (const auto& task : *tasks) EXPECT_EQ(task.data_sequence_number, 0);
}

const std::vector<std::string>& PartitionTimestampRows() {
  static const std::vector<std::string> rows =
      Sorted({Row({Ts("2023-05-15T14:30:45"), Literal::Long(12345), Literal::String("click")}),
              Row({Ts("2023-08-22T09:15:20"), Literal::Long(67890), Literal::String("purchase")})});
  return rows;
}

TEST_F(Fixtures, PartitionTimestampFromFolder) {
  StaticTable t = Open("data/persistent/partition_timestamp/default.db/partition_timestamp");
  EXPECT_NE(t.metadata_location.find("00001-"), std::string::npos) << t.metadata_location;
  EXPECT_EQ(Read(t.metadata), PartitionTimestampRows());
}

TEST_F(Fixtures, PartitionTimestampFromOneMetadataFile) {
  StaticTable t = Open("data/persistent/partition_timestamp/default.db/partition_timestamp/metadata/"
                       "00001-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json");
  EXPECT_EQ(Read(t.metadata), PartitionTimestampRows());
}

TEST_F(Fixtures, PartitionTimestampThroughThePyIcebergCatalog) {
  testing_env::TempDir tmp("floe-scan");
  std::string db = tmp.path() + "/pyiceberg_catalog.db";
  fs::copy_file(base_ + "/data/persistent/partition_timestamp/pyiceberg_catalog.db", db);
  fs::permissions(db, fs::perms::owner_write, fs::perm_options::add);
  CatalogOptions options;
  options.base_dir = base_;
  auto catalog = OpenCatalog("sqlite://" + db, options);
  ASSERT_TRUE(catalog) << catalog.error().ToString();
  auto table = (*catalog)->LoadTable({{"default"}, "partition_timestamp"});
  ASSERT_TRUE(table) << table.error().ToString();
  auto rows = ReadTable(*(*catalog)->io(), table->metadata, {});
  ASSERT_TRUE(rows) << rows.error().ToString();
  EXPECT_EQ(RowStrings(*rows), PartitionTimestampRows());
}

TEST_F(Fixtures, TimeTravelOnEqualityDeletes) {
  StaticTable t = Open(kEqualityDeletes);
  auto ids = [&](ScanOptions o) {
    o.columns = {"id"};
    return Read(t.metadata, o);
  };
  ScanOptions first;
  first.snapshot_id = 853766660775201079;  // the first append: ids 1-4, no deletes yet
  EXPECT_EQ(ids(first), (std::vector<std::string>{"1", "2", "3", "4"}));
  ScanOptions fifth;
  fifth.snapshot_id = 3340507003387467420;  // after three deletes (ids 1, 2, 3) and the append of 5, 6
  EXPECT_EQ(ids(fifth), (std::vector<std::string>{"4", "5", "6"}));
  ScanOptions as_of;
  as_of.as_of_ms = 1758879647963 - 1;  // just before that append
  EXPECT_EQ(ids(as_of), (std::vector<std::string>{"4"}));
  ScanOptions main;
  main.ref = "main";
  EXPECT_EQ(ids(main), (std::vector<std::string>{"4", "5"}));
  // The trap: v7 names a manifest list for snapshot 7342794868382145167 that is not on disk.
  // Reading that snapshot fails clearly (and reading any other one never touches it).
  ScanOptions missing;
  missing.snapshot_id = 7342794868382145167;
  auto r = ReadTable(*io_, t.metadata, missing);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotFound) << r.error().ToString();
  EXPECT_NE(r.error().message.find("snap-7342794868382145167-1-"), std::string::npos) << r.error().message;
}

TEST_F(Fixtures, FilterOnPartitionColumnOpensOnlyMatchingManifests) {
  StaticTable t = Open("data/persistent/hive_partitioned_table");
  ScanOptions options;
  options.filter_text = "event_date = '2024-01-01'";
  auto plan = PlanScan(*io_, t.metadata, options);
  ASSERT_TRUE(plan) << plan.error().ToString();
  // Two manifests (one per spec); only the spec-0 manifest holds 2024-01-01.
  EXPECT_EQ(plan->stats.manifests_total, 2);
  EXPECT_EQ(plan->stats.manifests_opened, 1);
  EXPECT_EQ(plan->stats.manifests_pruned, 1);
  ASSERT_EQ(plan->tasks.size(), 1u);
  options.columns = {"user_id"};
  EXPECT_EQ(Read(t.metadata, options), (std::vector<std::string>{"12345"}));
  // A filter on a column of the files (not the partition) keeps its residual.
  ScanOptions by_user;
  by_user.filter_text = "user_id > 50000";
  by_user.columns = {"user_id"};
  EXPECT_EQ(Read(t.metadata, by_user), (std::vector<std::string>{"67890", "86420", "97531"}));
}

TEST_F(Fixtures, MetadataTables) {
  StaticTable t = Open(kEqualityDeletes);
  auto snapshots = ReadMetadataTable(*io_, t.metadata, "snapshots");
  ASSERT_TRUE(snapshots);
  EXPECT_EQ(snapshots->rows.size(), 6u);
  EXPECT_EQ(snapshots->At(0, "operation"), "append");
  auto history = ReadMetadataTable(*io_, t.metadata, "history");
  ASSERT_TRUE(history);
  EXPECT_EQ(history->rows.size(), 8u);  // the snapshot log, rollbacks included
  auto files = ReadMetadataTable(*io_, t.metadata, "delete_files");
  ASSERT_TRUE(files) << files.error().ToString();
  EXPECT_EQ(files->rows.size(), 4u);
  for (size_t r = 0; r < files->rows.size(); ++r) EXPECT_EQ(files->At(r, "content"), 2);
  auto data = ReadMetadataTable(*io_, t.metadata, "data_files");
  ASSERT_TRUE(data);
  EXPECT_EQ(data->rows.size(), 2u);
  auto log = ReadMetadataTable(*io_, t.metadata, "metadata_log_entries", {}, t.metadata_location);
  ASSERT_TRUE(log);
  EXPECT_EQ(log->rows.size(), 7u);  // v1..v6 in the log, plus v7 itself
  EXPECT_EQ(log->At(6, "latest_snapshot_id"), 1916084761853986166);

  StaticTable hive = Open("data/persistent/hive_partitioned_table");
  auto partitions = ReadMetadataTable(*io_, hive.metadata, "partitions");
  ASSERT_TRUE(partitions) << partitions.error().ToString();
  EXPECT_EQ(partitions->rows.size(), 6u);
  auto manifests = ReadMetadataTable(*io_, hive.metadata, "manifests");
  ASSERT_TRUE(manifests);
  ASSERT_EQ(manifests->rows.size(), 2u);
  std::set<int> specs;
  for (size_t r = 0; r < 2; ++r) specs.insert(manifests->At(r, "partition_spec_id").get<int>());
  EXPECT_EQ(specs, (std::set<int>{0, 1}));
}

}  // namespace
}  // namespace floe
