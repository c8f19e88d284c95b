// Snapshot expiry: the retention rules, the commit, and deleting exactly what only the expired
// snapshots reached, after the commit.
#include "maint/expire_snapshots.h"

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "maint/compaction.h"
#include "maint/maint_test_util.h"
#include "rows/row_writes.h"
#include "commit/snapshot_refs.h"
#include "util/clock.h"

namespace floe {
namespace {

using maint_test::FilesOnDisk;
using maint_test::TableDir;
using maint_test::ReachedBy;
using maint_test::Tick;
using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

int64_t Head(OrdersTable& t) { return *t.Metadata().current_snapshot_id; }

int64_t Append(OrdersTable& t, const std::vector<Order>& rows) {
  Tick();
  EXPECT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(rows)).has_value());
  return Head(t);
}

std::set<int64_t> SnapshotIds(const TableMetadata& m) {
  std::set<int64_t> ids;
  for (const auto& s : m.snapshots) ids.insert(s.snapshot_id);
  return ids;
}

// Files on disk that are not metadata documents (nor the catalog).
std::set<std::string> DataAndManifests(OrdersTable& t) {
  std::set<std::string> out;
  for (const auto& f : FilesOnDisk(TableDir(t)))
    if (!f.ends_with(".metadata.json") && f.find("floe-expiry-") == std::string::npos) out.insert(f);
  return out;
}

std::set<std::string> Local(const std::set<std::string>& paths) {
  std::set<std::string> out;
  for (const auto& p : paths) out.insert(maint_test::LocalPathOf(p));
  return out;
}

TEST(ExpireSnapshots, TextbookCase) {
  OrdersTable t("country");
  FileIO& io = *t.catalog().io();
  const int64_t s1 = Append(t, {{1, "DE", 10}, {2, "FR", 20}, {3, "FR", 30}});  // a (DE), b (FR)
  const int64_t s2 = Append(t, {{4, "US", 40}});                                 // c
  Tick();
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());  // b rewritten
  const int64_t s3 = Head(t);
  Tick();
  CompactionOptions all;
  all.rewrite_all = true;
  ASSERT_TRUE(CompactTable(t.catalog(), t.id(), all).has_value());
  const int64_t s4 = Head(t);
  const auto rows3 = t.Rows(s3), rows4 = t.Rows(s4);
  ASSERT_EQ(rows3, rows4);
  ASSERT_EQ(rows3.size(), 3u);

  const TableMetadata before = t.Metadata();
  const std::set<std::string> reached_by_kept = Local(ReachedBy(io, before, {s3, s4}));
  const std::set<std::string> reached_by_expired = Local(ReachedBy(io, before, {s1, s2}));
  std::set<std::string> only_expired;
  for (const auto& f : reached_by_expired)
    if (!reached_by_kept.contains(f)) only_expired.insert(f);
  ASSERT_GE(only_expired.size(), 3u);  // at least b and the two manifest lists
  const std::set<std::string> on_disk = DataAndManifests(t);

  ExpireOptions options;
  options.retention.older_than_ms = before.SnapshotById(s3)->timestamp_ms;
  bool checked_after_commit = false;
  options.after_commit = [&] {
    // The commit landed and nothing is deleted yet.
    EXPECT_EQ(SnapshotIds(t.Metadata()), (std::set<int64_t>{s3, s4}));
    EXPECT_EQ(DataAndManifests(t), on_disk);
    checked_after_commit = true;
  };
  auto r = ExpireSnapshots(t.catalog(), t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(checked_after_commit);
  EXPECT_EQ(std::set<int64_t>(r->expired_snapshot_ids.begin(), r->expired_snapshot_ids.end()),
            (std::set<int64_t>{s1, s2}));
  EXPECT_TRUE(r->delete_failures.empty());
  EXPECT_EQ(r->files.manifest_lists.size(), 2u);

  // Exactly the files only S1 and S2 reached are gone; what S3 and S4 reach is all there.
  std::set<std::string> expected = on_disk;
  for (const auto& f : only_expired) expected.erase(f);
  EXPECT_EQ(DataAndManifests(t), expected);
  for (const auto& f : reached_by_kept) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  EXPECT_EQ(t.Rows(s3), rows3);
  EXPECT_EQ(t.Rows(s4), rows4);

  // Time travel to an expired snapshot names it.
  ScanOptions old;
  old.snapshot_id = s1;
  auto gone = ReadTable(io, t.Metadata(), old);
  ASSERT_FALSE(gone.has_value());
  EXPECT_NE(gone.error().message.find(std::to_string(s1)), std::string::npos) << gone.error().message;
  EXPECT_EQ(gone.error().message.find("No such file"), std::string::npos) << gone.error().message;
  ScanOptions as_of;
  as_of.as_of_ms = before.SnapshotById(s2)->timestamp_ms;
  auto before_log = ReadTable(io, t.Metadata(), as_of);
  ASSERT_FALSE(before_log.has_value());
  EXPECT_NE(before_log.error().message.find("expired"), std::string::npos) << before_log.error().message;

  // Nothing left to expire: no commit.
  auto again = ExpireSnapshots(t.catalog(), t.id(), options);
  ASSERT_TRUE(again.has_value());
  EXPECT_FALSE(again->committed);
  EXPECT_EQ(again->files.size(), 0);
}

TEST(ExpireSnapshots, DryRunListsAndChangesNothing) {
  OrdersTable t("");
  const int64_t s1 = Append(t, {{1, "DE", 1}});
  Append(t, {{2, "DE", 2}});
  const TableMetadata before = t.Metadata();
  const auto on_disk = FilesOnDisk(TableDir(t));
  ExpireOptions options;
  options.dry_run = true;
  options.retention.older_than_ms = NowMillis();
  auto r = ExpireSnapshots(t.catalog(), t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->expired_snapshot_ids, (std::vector<int64_t>{s1}));
  EXPECT_EQ(r->files.manifest_lists.size(), 1u);
  EXPECT_FALSE(r->committed);
  EXPECT_EQ(t.Metadata().metadata_log.size(), before.metadata_log.size());
  EXPECT_EQ(FilesOnDisk(TableDir(t)), on_disk);
}

TEST(ExpireSnapshots, BranchesAndTagsKeepWhatTheyNeed) {
  OrdersTable t("");
  const int64_t s1 = Append(t, {{1, "DE", 1}});
  ASSERT_TRUE(CreateTag(t.catalog(), t.id(), "release", s1).has_value());
  const int64_t s2 = Append(t, {{2, "DE", 2}});
  RefRetention dev_keeps_two;
  dev_keeps_two.min_snapshots_to_keep = 2;
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "dev", s2, dev_keeps_two).has_value());
  const int64_t s3 = Append(t, {{3, "DE", 3}});
  const int64_t s4 = Append(t, {{4, "DE", 4}});
  const auto release_rows = t.Rows(s1);

  ExpireOptions options;
  options.retention.older_than_ms = NowMillis();
  auto r = ExpireSnapshots(t.catalog(), t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  // main keeps s4 only; dev keeps s2 and its parent s1; the tag keeps s1 too.
  EXPECT_EQ(std::set<int64_t>(r->expired_snapshot_ids.begin(), r->expired_snapshot_ids.end()),
            (std::set<int64_t>{s3}));
  const TableMetadata after = t.Metadata();
  EXPECT_EQ(SnapshotIds(after), (std::set<int64_t>{s1, s2, s4}));
  EXPECT_EQ(after.refs.at("release").snapshot_id, s1);
  EXPECT_EQ(after.refs.at("dev").snapshot_id, s2);
  EXPECT_EQ(t.Rows(s1), release_rows);
  ScanOptions dev;
  dev.ref = "dev";
  EXPECT_TRUE(ReadTable(*t.catalog().io(), after, dev).has_value());
}

TEST(ExpireSnapshots, RefAgeRemovesOldRefsButNeverMain) {
  OrdersTable t("");
  const int64_t s1 = Append(t, {{1, "DE", 1}});
  ASSERT_TRUE(CreateTag(t.catalog(), t.id(), "old", s1, /*max_ref_age_ms=*/1).has_value());
  ASSERT_TRUE(CreateTag(t.catalog(), t.id(), "forever", s1).has_value());
  Tick();
  auto r = ExpireSnapshots(t.catalog(), t.id(), ExpireOptions{});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->removed_refs, (std::vector<std::string>{"old"}));
  const TableMetadata after = t.Metadata();
  EXPECT_FALSE(after.refs.contains("old"));
  EXPECT_TRUE(after.refs.contains("forever"));
  EXPECT_EQ(*after.current_snapshot_id, s1);
}

TEST(ExpireSnapshots, TablePropertiesAreTheDefaults) {
  // history.expire.max-snapshot-age-ms: a tiny age expires everything but the head...
  OrdersTable t("", {{"history.expire.max-snapshot-age-ms", "1"}});
  Append(t, {{1, "DE", 1}});
  Append(t, {{2, "DE", 2}});
  const int64_t s3 = Append(t, {{3, "DE", 3}});
  Tick();
  auto r = ExpireSnapshots(t.catalog(), t.id(), ExpireOptions{});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(SnapshotIds(t.Metadata()), (std::set<int64_t>{s3}));

  // ...unless history.expire.min-snapshots-to-keep asks for more.
  OrdersTable u("", {{"history.expire.max-snapshot-age-ms", "1"}, {"history.expire.min-snapshots-to-keep", "2"}});
  Append(u, {{1, "DE", 1}});
  const int64_t u2 = Append(u, {{2, "DE", 2}});
  const int64_t u3 = Append(u, {{3, "DE", 3}});
  Tick();
  ASSERT_TRUE(ExpireSnapshots(u.catalog(), u.id(), ExpireOptions{}).has_value());
  EXPECT_EQ(SnapshotIds(u.Metadata()), (std::set<int64_t>{u2, u3}));

  // The default age (5 days) keeps fresh snapshots.
  OrdersTable v("");
  Append(v, {{1, "DE", 1}});
  Append(v, {{2, "DE", 2}});
  auto none = ExpireSnapshots(v.catalog(), v.id(), ExpireOptions{});
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->committed);
  EXPECT_EQ(v.Metadata().snapshots.size(), 2u);

  // A branch's own max-snapshot-age-ms overrides the table's.
  OrdersTable w("");
  const int64_t w1 = Append(w, {{1, "DE", 1}});
  const int64_t w2 = Append(w, {{2, "DE", 2}});
  RefRetention short_lived;
  short_lived.max_snapshot_age_ms = 1;
  ASSERT_TRUE(ReplaceBranch(w.catalog(), w.id(), "main", w2, short_lived).has_value());
  Tick();
  ASSERT_TRUE(ExpireSnapshots(w.catalog(), w.id(), ExpireOptions{}).has_value());
  EXPECT_EQ(SnapshotIds(w.Metadata()), (std::set<int64_t>{w2}));
  (void)w1;
}

TEST(ExpireSnapshots, RetainLastKeepsThatMany) {
  OrdersTable t("");
  std::vector<int64_t> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(Append(t, {{i, "DE", i}}));
  ExpireOptions options;
  options.retention.older_than_ms = NowMillis();
  options.retention.retain_last = 3;
  ASSERT_TRUE(ExpireSnapshots(t.catalog(), t.id(), options).has_value());
  EXPECT_EQ(SnapshotIds(t.Metadata()), (std::set<int64_t>{ids[2], ids[3], ids[4]}));
  EXPECT_EQ(t.Rows().size(), 5u);
}

TEST(ExpireSnapshots, BadArgumentsChangeNothing) {
  OrdersTable t("");
  Append(t, {{1, "DE", 1}});
  Append(t, {{2, "DE", 2}});
  const TableMetadata before = t.Metadata();
  ExpireOptions future;
  future.retention.older_than_ms = NowMillis() + 60 * 60 * 1000;
  auto r = ExpireSnapshots(t.catalog(), t.id(), future);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(r.error().message.find("--older-than"), std::string::npos);
  ExpireOptions zero;
  zero.retention.retain_last = 0;
  r = ExpireSnapshots(t.catalog(), t.id(), zero);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("--retain-last"), std::string::npos);
  // An unreadable retention property is refused naming it.
  txn_test::SetPropertyUnchecked(t, "history.expire.min-snapshots-to-keep", "lots");
  r = ExpireSnapshots(t.catalog(), t.id(), ExpireOptions{});
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("history.expire.min-snapshots-to-keep"), std::string::npos);
  EXPECT_EQ(t.Metadata().snapshots.size(), before.snapshots.size());
}

TEST(ExpireSnapshots, AWriterCommittingMeanwhileIsNotUndone) {
  OrdersTable t("");
  const int64_t s1 = Append(t, {{1, "DE", 1}});
  Append(t, {{2, "DE", 2}});
  // Inside our first swap another writer tags s1 and appends s3: the plan (expire s1 and s2)
  // is stale, so it must be made again and keep s1 for the tag and s3 as the head.
  FaultInjectingCatalog faulty(t.Open());
  auto b = t.Open();
  int64_t s3 = 0;
  faulty.FailBeforeApplyWhen([&](int call) {
    if (call == 1) {
      EXPECT_TRUE(CreateTag(*b, t.id(), "keep", s1).has_value());
      EXPECT_TRUE(AppendBatch(*b, t.id(), Batch({{3, "DE", 3}})).has_value());
      s3 = Head(t);
    }
    return false;
  });
  ExpireOptions options;
  options.now_ms = NowMillis() + 1000;  // later than the racing commits
  options.retention.older_than_ms = *options.now_ms;
  auto r = ExpireSnapshots(faulty, t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(SnapshotIds(t.Metadata()), (std::set<int64_t>{s1, s3}));
  EXPECT_EQ(t.Metadata().refs.at("keep").snapshot_id, s1);
  EXPECT_EQ(t.Rows().size(), 3u);
  EXPECT_EQ(t.Rows(s1).size(), 1u);
}

TEST(ExpireSnapshots, ALostAnswerIsReconciled) {
  OrdersTable t("");
  const int64_t s1 = Append(t, {{1, "DE", 1}});
  const int64_t s2 = Append(t, {{2, "DE", 2}});
  FaultInjectingCatalog faulty(t.Open());
  faulty.DropAnswerWhen([](int call) { return call == 1; });
  ExpireOptions options;
  options.retention.older_than_ms = NowMillis();
  auto r = ExpireSnapshots(faulty, t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->expired_snapshot_ids, (std::vector<int64_t>{s1}));
  EXPECT_EQ(SnapshotIds(t.Metadata()), (std::set<int64_t>{s2}));
  EXPECT_EQ(r->files.manifest_lists.size(), 1u);
}

}  // namespace
}  // namespace floe
