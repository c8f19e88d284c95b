// Reads every Parquet file of the shared fixtures (written by Spark/parquet-mr and DuckDB)
// and checks the rows that fixtures/README.md lists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "parquet/describe.h"
#include "parquet/parquet_reader.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

std::string FixturesDir() {
  if (const char* env = std::getenv("FLOE_FIXTURES")) return env;
  return std::string(FLOE_SOURCE_DIR) + "/../shared/fixtures";
}

std::string Persistent() { return FixturesDir() + "/tables/duckdb-iceberg/data/persistent/"; }

std::vector<std::string> Rows(const ColumnBatch& b) {
  std::vector<std::string> out;
  for (size_t r = 0; r < b.num_rows; ++r) {
    std::string line;
    for (const auto& v : b.Row(r)) line += (line.empty() ? "" : "|") + (v.is_null() ? std::string("NULL") : v.ToString());
    out.push_back(line);
  }
  return out;
}

Result<std::vector<std::string>> ReadRows(const std::string& path, const ReadOptions& opts = {}) {
  FLOE_ASSIGN_OR_RETURN(auto file, ParquetFile::OpenPath(path));
  FLOE_ASSIGN_OR_RETURN(ColumnBatch b, ReadParquetFile(file, opts));
  return Rows(b);
}

class Fixtures : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(Persistent())) GTEST_SKIP() << "skipped: no fixtures";
  }
};

TEST_F(Fixtures, ReadsTheRowsTheReadmeLists) {
  struct Case {
    std::string file;
    std::vector<std::string> rows;
  };
  const std::string eq = "equality_deletes/warehouse/mydb/mytable/data/";
  const std::string hive = "hive_partitioned_table/data/";
  const std::string v1 = "iceberg_v1_deprecated/default/legacy_v1/data/";
  const std::string ts = "partition_timestamp/default.db/partition_timestamp/data/";
  std::vector<Case> cases = {
      {eq + "00000-9-8b7ad7ff-1bf1-4522-9b6b-da181d84a8d6-0-00001.parquet",
       {"1|a|2025-01-01", "2|b|2025-01-02", "3|c|2025-01-03", "4|d|2025-01-04"}},
      {eq + "00000-12-3ac0d3a9-e19f-4bef-a39a-30030476b8aa-0-00001.parquet", {"5|e|2025-01-05", "6|f|2025-01-06"}},
      {eq + "delete-242a4468-1e89-489f-aa1b-eafd83a379db.parquet", {"1"}},
      {eq + "delete-2ca427ee-335e-412b-85d9-cb2ffd9ecfde.parquet", {"f"}},
      {eq + "delete-6b31fafe-0aa5-4197-b4e8-052dbc2afa98.parquet", {"3|c"}},
      {eq + "delete-93d19556-6cbf-4720-a9a3-3cd5004ad532.parquet", {"b"}},
      {hive + "event_date=2024-01-01/00000-3-249d8105-f013-47e6-8600-a855387633e5-00001.parquet", {"12345|click"}},
      {hive + "event_date=2024-01-02/00000-3-249d8105-f013-47e6-8600-a855387633e5-00002.parquet", {"67890|purchase"}},
      {hive + "event_date=2024-01-03/event_type=click/00000-8-c8ef1f50-38e5-4f6c-bc66-8b6410198355-00002.parquet", {"24680"}},
      {hive + "event_date=2024-01-03/event_type=view/00000-8-c8ef1f50-38e5-4f6c-bc66-8b6410198355-00001.parquet", {"13579"}},
      {hive + "event_date=2024-01-04/event_type=purchase/00000-8-c8ef1f50-38e5-4f6c-bc66-8b6410198355-00003.parquet", {"97531"}},
      {hive + "event_date=2024-01-04/event_type=view/00000-8-c8ef1f50-38e5-4f6c-bc66-8b6410198355-00004.parquet", {"86420"}},
      {v1 + "category=alpha/00000-3-f0ac2992-4f01-4ee2-b833-f46763b728bd-0-00001.parquet", {"1|alpha|10", "3|alpha|NULL"}},
      {v1 + "category=beta/00000-3-f0ac2992-4f01-4ee2-b833-f46763b728bd-0-00002.parquet", {"2|beta|20"}},
      {ts + "partition_col=2023-05-15T14%3A30%3A45/00000-0-6b55fc2b-ce03-407e-9585-336c4675e611.parquet", {"12345|click"}},
      {ts + "partition_col=2023-08-22T09%3A15%3A20/00000-1-6b55fc2b-ce03-407e-9585-336c4675e611.parquet", {"67890|purchase"}},
  };
  // Every .parquet file of the fixtures is covered by a case.
  size_t on_disk = 0;
  for (const auto& e : fs::recursive_directory_iterator(FixturesDir() + "/tables"))
    if (e.path().extension() == ".parquet") ++on_disk;
  EXPECT_EQ(on_disk, cases.size());
  for (const auto& c : cases) {
    auto rows = ReadRows(Persistent() + c.file);
    ASSERT_TRUE(rows) << c.file << ": " << rows.error().ToString();
    EXPECT_EQ(*rows, c.rows) << c.file;
    auto file = ParquetFile::OpenPath(Persistent() + c.file);
    auto desc = DescribeParquetFile(**file);
    EXPECT_EQ(desc["num_rows"].get<int64_t>(), static_cast<int64_t>(c.rows.size()));
  }
}

TEST_F(Fixtures, ProjectsByFieldIdWithPromotionAndMissingColumns) {
  std::string path = Persistent() + "iceberg_v1_deprecated/default/legacy_v1/data/category=alpha/00000-3-f0ac2992-4f01-4ee2-b833-f46763b728bd-0-00001.parquet";
  // Field 3 ("amount", int in the file) read as long under a new name; field 9 is absent.
  Schema projection(1, {{3, "renamed_amount", Type::Long(), false, ""}, {9, "added", Type::String(), false, ""},
                        {1, "id", Type::Int(), true, ""}});
  ReadOptions opts;
  opts.projection = projection;
  auto rows = ReadRows(path, opts);
  ASSERT_TRUE(rows) << rows.error().ToString();
  EXPECT_EQ(*rows, (std::vector<std::string>{"10|NULL|1", "NULL|NULL|3"}));
}

TEST_F(Fixtures, RowGroupFilterSeesStatisticsAndSkips) {
  std::string path = Persistent() + "equality_deletes/warehouse/mydb/mytable/data/00000-9-8b7ad7ff-1bf1-4522-9b6b-da181d84a8d6-0-00001.parquet";
  auto file = ParquetFile::OpenPath(path);
  ASSERT_TRUE(file);
  ReadOptions opts;
  std::vector<RowGroupStatistics> seen;
  opts.row_group_filter = [&](const RowGroupStatistics& s) {
    seen.push_back(s);
    return s.columns.at(1).max.AsInt() < 3;  // "id < 3" could match only if the minimum is below 3
  };
  auto reader = ParquetReader::Make(*file, opts);
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch);
  EXPECT_FALSE(batch->has_value());
  EXPECT_EQ((*reader)->row_groups_skipped(), 1);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].columns.at(1).min.AsInt(), 1);
  EXPECT_EQ(seen[0].columns.at(1).max.AsInt(), 4);
  EXPECT_EQ(seen[0].columns.at(2).min.AsBytes(), "a");
  EXPECT_EQ(seen[0].columns.at(3).max.ToString(), "2025-01-04");
  EXPECT_EQ(seen[0].columns.at(1).null_count, 0);
}

}  // namespace
}  // namespace floe::parquet
