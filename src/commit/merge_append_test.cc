// Merge append, the default of AppendRows/AppendBatch: once a table has
// commit.manifest.min-count-to-merge data manifests of a spec, an append folds them (up to
// commit.manifest.target-size-bytes) into one manifest with its own new files. What a user
// relies on: every row stays, history still reads as it did, old entries keep the snapshot and
// sequence numbers they were added with (delete files are matched by them), the properties are
// honoured, and no manifest the table does not list is left behind, also after a lost race.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "table_files/manifest_io.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;

std::vector<ManifestFile> CurrentManifests(OrdersTable& t) {
  const TableMetadata m = t.Metadata();
  auto list = ReadManifestList(*t.catalog().io(), m, *m.CurrentSnapshot());
  EXPECT_TRUE(list.has_value()) << (list ? "" : list.error().message);
  return list ? *list : std::vector<ManifestFile>{};
}

// Manifests in the table's metadata folder that no snapshot lists: files a commit left behind.
std::vector<std::string> UnlistedManifests(OrdersTable& t) {
  const TableMetadata m = t.Metadata();
  std::set<std::string> listed;
  for (const Snapshot& s : m.snapshots) {
    auto list = ReadManifestList(*t.catalog().io(), m, s);
    EXPECT_TRUE(list.has_value());
    if (list)
      for (const ManifestFile& f : *list) listed.insert(std::filesystem::path(f.manifest_path).filename().string());
  }
  std::vector<std::string> unlisted;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(t.dir())) {
    const std::string name = entry.path().filename().string();
    if (entry.path().parent_path().filename() != "metadata" || !name.ends_with(".avro") || name.starts_with("snap-"))
      continue;
    if (!listed.count(name)) unlisted.push_back(name);
  }
  return unlisted;
}

// Appends order `id` of Germany on its own, as one commit.
void AppendOrder(Catalog& catalog, OrdersTable& t, int64_t id, const RowWriteOptions& options = {}) {
  auto r = AppendBatch(catalog, t.id(), Batch({{id, "DE", id * 100}}), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
}

std::vector<Order> Orders(int64_t from, int64_t to) {
  std::vector<Order> out;
  for (int64_t id = from; id <= to; ++id) out.push_back({id, "DE", id * 100});
  return out;
}

TEST(MergeAppend, FoldsTheManifestsOnceMinCountIsReached) {
  OrdersTable t("country", {{"commit.manifest.min-count-to-merge", "4"}});
  for (int64_t id = 1; id <= 3; ++id) AppendOrder(t.catalog(), t, id);
  ASSERT_EQ(CurrentManifests(t).size(), 3u) << "below min-count-to-merge every append adds a manifest";
  const TableMetadata before = t.Metadata();
  const int64_t third_snapshot = before.CurrentSnapshot()->snapshot_id;

  AppendOrder(t.catalog(), t, 4);
  const TableMetadata after = t.Metadata();
  const Snapshot& head = *after.CurrentSnapshot();
  EXPECT_EQ(head.summary.at("operation"), "append");
  const std::vector<ManifestFile> manifests = CurrentManifests(t);
  ASSERT_EQ(manifests.size(), 1u);
  EXPECT_EQ(manifests[0].added_snapshot_id, head.snapshot_id);
  EXPECT_EQ(manifests[0].sequence_number, head.sequence_number);
  EXPECT_EQ(manifests[0].min_sequence_number, 1) << "the oldest entry's data sequence number";

  auto entries = ReadManifestEntries(*t.catalog().io(), after, manifests[0]);
  ASSERT_TRUE(entries.has_value()) << entries.error().message;
  ASSERT_EQ(entries->size(), 4u);
  std::map<int64_t, const ManifestEntry*> by_sequence;
  for (const ManifestEntry& e : *entries) by_sequence[e.sequence_number.value_or(-1)] = &e;
  ASSERT_EQ(by_sequence.size(), 4u) << "each entry keeps the sequence number it was added with";
  for (int64_t seq = 1; seq <= 3; ++seq) {
    ASSERT_TRUE(by_sequence.count(seq)) << seq;
    EXPECT_EQ(by_sequence[seq]->status, EntryStatus::kExisting);
    const Snapshot* added_by = after.SnapshotById(by_sequence[seq]->snapshot_id.value_or(0));
    ASSERT_NE(added_by, nullptr) << "an existing entry names the snapshot that added it";
    EXPECT_EQ(added_by->sequence_number, seq);
  }
  ASSERT_TRUE(by_sequence.count(head.sequence_number));
  EXPECT_EQ(by_sequence[head.sequence_number]->status, EntryStatus::kAdded);
  EXPECT_EQ(by_sequence[head.sequence_number]->snapshot_id, head.snapshot_id);

  EXPECT_EQ(t.Rows(), Orders(1, 4));
  EXPECT_EQ(t.Rows(third_snapshot), Orders(1, 3)) << "history reads as it did: the old manifests stay";
  EXPECT_EQ(UnlistedManifests(t), std::vector<std::string>{}) << "the merged-away new manifest is removed";

  // The count starts again from the merged manifest.
  for (int64_t id = 5; id <= 6; ++id) AppendOrder(t.catalog(), t, id);
  EXPECT_EQ(CurrentManifests(t).size(), 3u);
  EXPECT_EQ(t.Rows(), Orders(1, 6));
}

TEST(MergeAppend, MergeEnabledFalseKeepsEveryManifest) {
  OrdersTable t("country", {{"commit.manifest.min-count-to-merge", "2"}, {"commit.manifest.merge.enabled", "false"}});
  for (int64_t id = 1; id <= 5; ++id) AppendOrder(t.catalog(), t, id);
  EXPECT_EQ(CurrentManifests(t).size(), 5u);
  EXPECT_EQ(t.Rows(), Orders(1, 5));
}

TEST(MergeAppend, AFastAppendNeverMerges) {
  OrdersTable t("country", {{"commit.manifest.min-count-to-merge", "2"}});
  RowWriteOptions fast;
  fast.merge_append = false;
  for (int64_t id = 1; id <= 5; ++id) AppendOrder(t.catalog(), t, id, fast);
  EXPECT_EQ(CurrentManifests(t).size(), 5u);
  EXPECT_EQ(t.Rows(), Orders(1, 5));
}

TEST(MergeAppend, TargetSizeBoundsTheMergedManifest) {
  OrdersTable probe("country", {{"commit.manifest.merge.enabled", "false"}});
  AppendOrder(probe.catalog(), probe, 1);
  const int64_t one_manifest = CurrentManifests(probe)[0].manifest_length;

  // Room for our new manifest and two more of the same size: the others stay as they are.
  const std::string target = std::to_string(3 * one_manifest + one_manifest / 2);
  OrdersTable t("country", {{"commit.manifest.min-count-to-merge", "5"}, {"commit.manifest.target-size-bytes", target}});
  for (int64_t id = 1; id <= 5; ++id) AppendOrder(t.catalog(), t, id);
  const std::vector<ManifestFile> manifests = CurrentManifests(t);
  ASSERT_EQ(manifests.size(), 3u) << "one merged (ours + 2) and 2 left alone";
  EXPECT_EQ(manifests[0].added_files_count + manifests[0].existing_files_count, 3);
  EXPECT_EQ(t.Rows(), Orders(1, 5));
  EXPECT_EQ(UnlistedManifests(t), std::vector<std::string>{});
}

TEST(MergeAppend, AMergeThatLosesTheRaceIsRedoneOnTheNewHeadAndLeavesNothing) {
  OrdersTable t("country", {{"commit.manifest.min-count-to-merge", "3"}});
  for (int64_t id = 1; id <= 2; ++id) AppendOrder(t.catalog(), t, id);
  // A's first attempt merges the two manifests with its own; B lands a third first (a fast
  // append, so that B itself does not merge).
  auto b = t.Open();
  RowWriteOptions fast;
  fast.merge_append = false;
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { AppendOrder(*b, t, 10, fast); });
  auto a = AppendBatch(t.catalog(), t.id(), Batch({{20, "DE", 2000}}), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->commit.attempts, 2);
  const std::vector<ManifestFile> manifests = CurrentManifests(t);
  ASSERT_EQ(manifests.size(), 1u) << "the retry folds B's manifest too";
  EXPECT_EQ(manifests[0].added_files_count + manifests[0].existing_files_count, 4);
  std::vector<Order> expected = Orders(1, 2);
  expected.push_back({10, "DE", 1000});
  expected.push_back({20, "DE", 2000});
  EXPECT_EQ(t.Rows(), expected);
  EXPECT_EQ(UnlistedManifests(t), std::vector<std::string>{})
      << "neither the lost attempt's merged manifest nor the merged-away new one is left";
}

// Values another engine wrote without checking (floe refuses them when set): the append that
// needs one is refused naming it, and nothing changes.
TEST(MergeAppend, AnUnreadableManifestOrFileSizePropertyRefusesTheAppend) {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"commit.manifest.min-count-to-merge", "many"},
           {"commit.manifest.merge.enabled", "yes"},
           {"write.target-file-size-bytes", "128MB"}}) {
    OrdersTable t;
    AppendOrder(t.catalog(), t, 1);
    txn_test::SetPropertyUnchecked(t, key, value);
    const std::string before = t.catalog().LoadTable(t.id())->metadata_location;
    auto r = AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 200}}));
    ASSERT_FALSE(r.has_value()) << key;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument) << r.error().message;
    EXPECT_NE(r.error().message.find(key + "='" + value + "'"), std::string::npos) << r.error().message;
    EXPECT_EQ(t.catalog().LoadTable(t.id())->metadata_location, before) << key;
    EXPECT_EQ(t.Rows(), Orders(1, 1)) << key;
  }
  // A fast append never reads the merge properties, so it is not refused for them.
  OrdersTable t;
  txn_test::SetPropertyUnchecked(t, "commit.manifest.merge.enabled", "yes");
  RowWriteOptions fast;
  fast.merge_append = false;
  AppendOrder(t.catalog(), t, 1, fast);
  EXPECT_EQ(t.Rows(), Orders(1, 1));
}

}  // namespace
}  // namespace floe
