// Orphan removal: only unreached files older than the window go; every spelling of a reached
// path counts as reached; files reached only by an older metadata document in the log stay.
#include "maint/orphan_files.h"

#include <gtest/gtest.h>

#include <fstream>

#include "maint/expire_snapshots.h"
#include "maint/maint_test_util.h"
#include "maint/path_identity.h"
#include "commit/metadata_commit.h"
#include "rows/row_writes.h"
#include "util/clock.h"

namespace floe {
namespace {

using maint_test::FilesOnDisk;
using maint_test::TableDir;
using txn_test::Batch;
using txn_test::OrdersTable;

// A file as a killed writer leaves it, `age_ms` old.
std::string Leftover(const std::string& path, int64_t age_ms) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << "half a file";
  auto when = std::filesystem::file_time_type::clock::now() - std::chrono::milliseconds(age_ms);
  std::filesystem::last_write_time(path, when);
  return path;
}

constexpr int64_t kFourDays = 4LL * 24 * 3600 * 1000;

TEST(PathIdentity, SpellingsOfOneFileAreEqual) {
  EXPECT_EQ(CanonicalPath("file:/w/t/a.parquet"), "/w/t/a.parquet");
  EXPECT_EQ(CanonicalPath("file:///w/t/a.parquet"), "/w/t/a.parquet");
  EXPECT_EQ(CanonicalPath("file://localhost/w/t/a.parquet"), "/w/t/a.parquet");
  EXPECT_EQ(CanonicalPath("/w//t/a.parquet"), "/w/t/a.parquet");
  EXPECT_EQ(CanonicalPath("s3a://bucket/t//a.parquet"), "s3://bucket/t/a.parquet");
  EXPECT_EQ(CanonicalPath("s3n://bucket/t/a.parquet"), "s3://bucket/t/a.parquet");
  EXPECT_NE(CanonicalPath("s3://other/t/a.parquet"), CanonicalPath("s3://bucket/t/a.parquet"));
  EXPECT_EQ(CanonicalPath("/w/t/a%3A.parquet"), "/w/t/a%3A.parquet");  // never decoded
}

TEST(RemoveOrphanFiles, DeletesOldUnreachedFilesOnly) {
  OrdersTable t("country");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}})).has_value());
  const std::string dir = TableDir(t);
  const auto live = FilesOnDisk(dir);
  const std::string old_orphan = Leftover(dir + "/data/country=DE/killed-writer.parquet", kFourDays);
  const std::string old_manifest = Leftover(dir + "/metadata/lost-attempt-m0.avro", kFourDays);
  const std::string young = Leftover(dir + "/data/in-flight.parquet", 1000);
  // Old files that ARE reached must stay however old they are.
  for (const auto& f : live) std::filesystem::last_write_time(f, std::filesystem::last_write_time(old_orphan));

  OrphanOptions dry;
  dry.dry_run = true;
  auto listed = RemoveOrphanFiles(t.catalog(), t.id(), dry);
  ASSERT_TRUE(listed.has_value()) << listed.error().message;
  std::set<std::string> orphans;
  for (const auto& p : listed->orphans) orphans.insert(maint_test::LocalPathOf(p));
  EXPECT_EQ(orphans, (std::set<std::string>{old_manifest, old_orphan}));
  EXPECT_TRUE(std::filesystem::exists(old_orphan));

  auto r = RemoveOrphanFiles(t.catalog(), t.id());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->orphans.size(), 2u);
  EXPECT_EQ(r->young_files_kept, 1);
  EXPECT_FALSE(std::filesystem::exists(old_orphan));
  EXPECT_FALSE(std::filesystem::exists(old_manifest));
  EXPECT_TRUE(std::filesystem::exists(young));
  for (const auto& f : live) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  EXPECT_EQ(t.Rows().size(), 2u);
}

TEST(RemoveOrphanFiles, KeepsWhatAnOlderDocumentInTheLogReaches) {
  OrdersTable t("");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());
  // Expire the first snapshot without deleting its files: rewind the expiry to before it.
  const TableMetadata before = t.Metadata();
  const std::string first_list = maint_test::LocalPathOf(before.snapshots.front().manifest_list);
  MetadataChange change;
  change.updates.push_back(RemoveSnapshots{{before.snapshots.front().snapshot_id}});
  ASSERT_TRUE(CommitMetadataChange(t.catalog(), t.id(), change).has_value());
  std::filesystem::last_write_time(first_list, std::filesystem::file_time_type::clock::now() -
                                                   std::chrono::milliseconds(kFourDays));
  auto r = RemoveOrphanFiles(t.catalog(), t.id());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->orphans.empty());
  EXPECT_TRUE(std::filesystem::exists(first_list));
  EXPECT_GE(r->metadata_documents_read, 3);
}

TEST(RemoveOrphanFiles, RefusesAFutureWindowAndALocationOutsideTheTable) {
  OrdersTable t("");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  const std::string orphan = Leftover(TableDir(t) + "/data/x.parquet", kFourDays);
  OrphanOptions future;
  future.older_than_ms = NowMillis() + 3600 * 1000;
  auto r = RemoveOrphanFiles(t.catalog(), t.id(), future);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("future"), std::string::npos);
  OrphanOptions outside;
  outside.location = t.dir();
  r = RemoveOrphanFiles(t.catalog(), t.id(), outside);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("not inside the table's location"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(orphan));
  // A prefix inside the table limits the sweep.
  OrphanOptions metadata_only;
  metadata_only.location = TableDir(t) + "/metadata";
  r = RemoveOrphanFiles(t.catalog(), t.id(), metadata_only);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->orphans.empty());
  EXPECT_TRUE(std::filesystem::exists(orphan));
}

}  // namespace
}  // namespace floe
