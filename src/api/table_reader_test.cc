// TableReader and ScanExport (floe/table_reader.h, floe/scan_export.h): one loaded state read as
// text, Parquet and listed rows; metadata tables; a copied folder refused or read with its
// paths mapped; and the errors the comments promise.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

class PublicReader : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-reader-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
    auto catalog = Connection::Open("sqlite://" + dir_ + "/catalog.db");
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
    catalog_.emplace(std::move(*catalog));
    ASSERT_TRUE(catalog_->CreateNamespace("db").has_value());
    auto table = catalog_->CreateTable("db.t", {.schema = "id long not null, note string"});
    ASSERT_TRUE(table.has_value()) << table.error().message;
    table_.emplace(std::move(*table));
    Rows rows;
    rows.columns = {"id", "note"};
    rows.rows = {{int64_t{1}, std::string("a, \"b\"")}, {int64_t{2}, Cell{}}, {int64_t{3}, std::string("x\xff")}};
    auto appended = table_->Append(rows);
    ASSERT_TRUE(appended.has_value()) << appended.error().message;
    first_ = appended->snapshot_id;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Text(const ScanExport& scan, ScanTextFormat format) {
    std::ostringstream out;
    auto written = scan.WriteText(format, out);
    EXPECT_TRUE(written.has_value()) << written.error().message;
    return out.str();
  }

  std::string dir_;
  std::optional<Connection> catalog_;
  std::optional<Table> table_;
  int64_t first_ = 0;
};

TEST_F(PublicReader, ExportsOneLoadedStateAsTextParquetAndListedRows) {
  auto reader = TableReader::Load(*table_);
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  Rows more;
  more.columns = {"id"};
  more.rows = {{int64_t{4}}};
  ASSERT_TRUE(table_->Append(more).has_value());  // after the load: not seen by this reader

  auto scan = reader->PlanScan({.where = "id <= 2"});
  ASSERT_TRUE(scan.has_value()) << scan.error().message;
  EXPECT_EQ(scan->columns(), (std::vector<std::string>{"id", "note"}));
  EXPECT_EQ(Text(*scan, ScanTextFormat::kCsv), "id,note\n1,\"a, \"\"b\"\"\"\n2,\n");
  EXPECT_EQ(Text(*scan, ScanTextFormat::kJsonl), "{\"id\":1,\"note\":\"a, \\\"b\\\"\"}\n{\"id\":2,\"note\":null}\n");

  auto all = reader->PlanScan({.columns = {"note"}});
  ASSERT_TRUE(all.has_value()) << all.error().message;
  std::vector<std::vector<ListedCell>> rows;
  ASSERT_TRUE(all->ForEachRow([&](std::vector<ListedCell>&& cells) -> Result<bool> {
                    rows.push_back(std::move(cells));
                    return true;
                  }).has_value());
  ASSERT_EQ(rows.size(), 3u);  // the row appended after the load is not read
  EXPECT_TRUE(rows[0][0].is_string);
  EXPECT_EQ(rows[1][0].text, "null");
  EXPECT_FALSE(rows[1][0].is_string);
  EXPECT_EQ(rows[2][0].text, "x\xff");  // a string's bytes as they are, UTF-8 or not

  const std::string parquet = dir_ + "/out.parquet";
  auto written = all->WriteParquet(parquet);
  ASSERT_TRUE(written.has_value()) << written.error().message;
  EXPECT_EQ(*written, 3);
  auto folder_rows = all->WriteParquet(parquet);
  ASSERT_FALSE(folder_rows.has_value());  // never replaced
  EXPECT_EQ(folder_rows.error().kind, ErrorKind::kAlreadyExists);
}

TEST_F(PublicReader, MetadataTablesAndHistoryAtASnapshot) {
  Rows more;
  more.columns = {"id"};
  more.rows = {{int64_t{4}}};
  ASSERT_TRUE(table_->Append(more).has_value());
  auto reader = TableReader::Load(*table_);
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  auto snapshots = reader->MetadataTable("snapshots");
  ASSERT_TRUE(snapshots.has_value()) << snapshots.error().message;
  EXPECT_EQ(snapshots->rows.size(), 2u);
  auto files = reader->MetadataTable("data_files", {.snapshot_id = first_});
  ASSERT_TRUE(files.has_value()) << files.error().message;
  EXPECT_EQ(files->rows.size(), 1u);
  EXPECT_EQ(reader->HistoryGraph().size(), 2u);
  for (const auto& name : TableReader::MetadataTableNames()) {
    EXPECT_TRUE(reader->MetadataTable(name).has_value()) << name;
  }
  auto unknown = reader->MetadataTable("nope");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().kind, ErrorKind::kInvalidArgument);
}

TEST_F(PublicReader, PlanErrorsNameWhatIsWrong) {
  auto reader = TableReader::Load(*table_);
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  auto bad_where = reader->PlanScan({.where = "id >"});
  ASSERT_FALSE(bad_where.has_value());
  EXPECT_EQ(bad_where.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(bad_where.error().message.find("filter 'id >'"), std::string::npos) << bad_where.error().message;
  auto column = reader->PlanScan({.columns = {"nope"}});
  ASSERT_FALSE(column.has_value());
  EXPECT_EQ(column.error().kind, ErrorKind::kInvalidArgument);
  auto snapshot = reader->PlanScan({.snapshot_id = 42});
  ASSERT_FALSE(snapshot.has_value());
  EXPECT_EQ(snapshot.error().kind, ErrorKind::kNotFound);
  auto missing = catalog_->GetTable("db.missing");
  ASSERT_TRUE(missing.has_value());
  auto loaded = TableReader::Load(*missing);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().kind, ErrorKind::kNotFound);
}

TEST_F(PublicReader, CopiedFolderIsRefusedOrReadFromWhereItIsNow) {
  const std::string copy = dir_ + "/copy";
  std::filesystem::copy(dir_ + "/db/t", copy, std::filesystem::copy_options::recursive);
  std::filesystem::remove_all(dir_ + "/db/t");  // only the copy is left

  auto refused = TableFolder::Open(copy, MovedPaths::kRefuse);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(refused.error().message.find("--allow-moved-paths"), std::string::npos) << refused.error().message;

  auto folder = TableFolder::Open(copy, MovedPaths::kAllow);
  ASSERT_TRUE(folder.has_value()) << folder.error().message;
  EXPECT_EQ(folder->folder(), copy);
  EXPECT_TRUE(folder->RecordsAnotherLocation());
  auto scan = TableReader::Of(*folder).PlanScan({.columns = {"id"}});
  ASSERT_TRUE(scan.has_value()) << scan.error().message;
  EXPECT_EQ(Text(*scan, ScanTextFormat::kCsv), "id\n1\n2\n3\n");
  EXPECT_EQ(TableFolder::FolderOf(copy + "/data/x.parquet"), copy);
  EXPECT_EQ(TableFolder::FolderOf(copy + "/metadata/v1.metadata.json"), copy);
}

}  // namespace
}  // namespace floe
