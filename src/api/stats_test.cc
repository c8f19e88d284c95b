// Table::Stats and TableFolder (floe/stats.h, floe/table_folder.h): the same figures from the
// catalog and from the table's folder read without it, and the error kinds the comments promise.
#include <filesystem>

#include <gtest/gtest.h>

#include "floe/floe.h"
#include "util/uuid.h"

namespace floe {
namespace {

class PublicStats : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-stats-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
    auto catalog = Connection::Open("sqlite://" + dir_ + "/catalog.db");
    ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
    catalog_.emplace(std::move(*catalog));
    ASSERT_TRUE(catalog_->CreateNamespace("db").has_value());
    auto table = catalog_->CreateTable("db.t", {.schema = "id long not null, country string", .partition_by = "country"});
    ASSERT_TRUE(table.has_value()) << table.error().message;
    table_.emplace(std::move(*table));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
  std::optional<Connection> catalog_;
  std::optional<Table> table_;
};

TEST_F(PublicStats, CatalogAndFolderAgreeOnFilesPerPartition) {
  Rows rows;
  rows.columns = {"id", "country"};
  for (int64_t i = 0; i < 6; ++i) rows.rows.push_back({i, std::string(i % 2 ? "DE" : "FR")});
  ASSERT_TRUE(table_->Append(rows).has_value());
  ASSERT_TRUE(table_->Append(rows).has_value());

  auto stats = table_->Stats();
  ASSERT_TRUE(stats.has_value()) << stats.error().message;
  EXPECT_EQ(stats->snapshots, 2);
  EXPECT_EQ(stats->total.records, 12);
  EXPECT_EQ(stats->total.data_files, 4);
  ASSERT_EQ(stats->partitions.size(), 2u);
  EXPECT_EQ(stats->partitions[0].records, 6);

  auto folder = TableFolder::Open(dir_ + "/db/t");
  ASSERT_TRUE(folder.has_value()) << folder.error().message;
  EXPECT_TRUE(folder->metadata_location().ends_with(".metadata.json")) << folder->metadata_location();
  auto read = folder->Stats();
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->snapshot_id, stats->snapshot_id);
  EXPECT_EQ(read->total.records, 12);
  EXPECT_EQ(read->total.data_bytes, stats->total.data_bytes);
  EXPECT_EQ(read->partitions.size(), 2u);
}

TEST_F(PublicStats, ErrorKinds) {
  auto dropped = catalog_->GetTable("db.missing");
  ASSERT_TRUE(dropped.has_value());
  auto missing = dropped->Stats();
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);

  auto nothing = TableFolder::Open(dir_ + "/no-such-folder");
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().kind, ErrorKind::kNotFound) << nothing.error().message;

  EXPECT_TRUE(TableFolder::IsS3Uri("s3://bucket/t"));
  EXPECT_FALSE(TableFolder::IsS3Uri("/tmp/t"));
}

}  // namespace
}  // namespace floe
