// A purge deletes only what the dropped table owns, and refuses before deleting anything.
#include "table_files/purge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "catalog/catalog.h"
#include "catalog/catalog_test_env.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

class PurgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = OpenCatalog("sqlite://" + dir_.path() + "/wh/catalog.db");
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    catalog_ = std::move(*catalog);
    ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
    CreateTableRequest request;
    request.schema = testing_env::SimpleSchema();
    auto table = catalog_->CreateTable(id_, request);
    ASSERT_TRUE(table) << table.error().ToString();
    table_ = *table;
    fs::create_directories(dir_.path() + "/outside");
    std::ofstream(canary_) << "canary";
  }

  // A snapshot whose manifest list is `list` (committed straight through the catalog, as a
  // library user or an old server could).
  void CommitSnapshotListing(const std::string& list) {
    Snapshot s;
    s.snapshot_id = 7;
    s.sequence_number = 1;
    s.timestamp_ms = 1000;
    s.manifest_list = list;
    s.summary = {{"operation", "append"}};
    TableCommit commit{id_, {}, {AddSnapshot{s}, SetSnapshotRef{"main", SnapshotRef{7, RefType::kBranch, {}, {}, {}}}}};
    auto committed = catalog_->CommitTable(commit);
    ASSERT_TRUE(committed) << committed.error().ToString();
    table_ = *committed;
  }

  void ExpectRefusedAndKept() {
    auto purged = catalog_->DropTable(id_, true);
    ASSERT_FALSE(purged);
    EXPECT_EQ(purged.error().kind, ErrorKind::kInvalidArgument) << purged.error().ToString();
    EXPECT_NE(purged.error().message.find("nothing deleted"), std::string::npos) << purged.error().message;
    EXPECT_TRUE(fs::exists(canary_));
    EXPECT_TRUE(catalog_->TableExists(id_).value()) << "a refused purge leaves the table in place";
    EXPECT_TRUE(fs::exists(table_.metadata_location));
  }

  testing_env::TempDir dir_{"floe-purge"};
  std::unique_ptr<Catalog> catalog_;
  TableIdentifier id_{{"db"}, "t"};
  LoadedTable table_;
  std::string canary_ = dir_.path() + "/outside/canary.avro";
};

TEST_F(PurgeTest, AManifestListOutsideTheTableRefusesThePurge) {
  CommitSnapshotListing(canary_);
  ExpectRefusedAndKept();
}

TEST_F(PurgeTest, AManifestListReachedThroughDotDotIsOutside) {
  CommitSnapshotListing(table_.metadata.location + "/../../outside/canary.avro");
  ExpectRefusedAndKept();
}

TEST_F(PurgeTest, StatisticsOutsideTheTableRefuseThePurge) {
  TableCommit commit{id_, {}, {}};
  StatisticsFile stats;
  stats.snapshot_id = 1;
  stats.statistics_path = canary_;
  commit.updates.push_back(SetStatistics{stats});
  auto committed = catalog_->CommitTable(commit);
  ASSERT_TRUE(committed) << committed.error().ToString();
  table_ = *committed;
  ExpectRefusedAndKept();
}

TEST_F(PurgeTest, AnUnreadableManifestListRefusesThePurgeBeforeTheDrop) {
  const std::string list = table_.metadata.location + "/metadata/snap-7.avro";
  std::ofstream(list) << "not avro at all";
  CommitSnapshotListing(list);
  auto purged = catalog_->DropTable(id_, true);
  ASSERT_FALSE(purged);
  EXPECT_TRUE(catalog_->TableExists(id_).value());
  EXPECT_TRUE(fs::exists(list));
  EXPECT_TRUE(fs::exists(table_.metadata_location));
}

TEST_F(PurgeTest, APlanListsOwnedFilesDocumentsLast) {
  auto plan = PlanPurge(*catalog_->io(), table_.metadata, table_.metadata_location);
  ASSERT_TRUE(plan) << plan.error().ToString();
  ASSERT_FALSE(plan->files.empty());
  EXPECT_EQ(plan->files.back(), table_.metadata_location);
  ASSERT_TRUE(catalog_->DropTable(id_, true));
  EXPECT_FALSE(fs::exists(table_.metadata_location));
  EXPECT_TRUE(fs::exists(canary_));
}

}  // namespace
}  // namespace floe
