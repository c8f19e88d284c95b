// Rewriting manifests: regrouped by partition, no data changed (files, snapshot ids and
// sequence numbers kept), refused when a manifest it replaces changed meanwhile.
#include "maint/rewrite_manifests.h"

#include <gtest/gtest.h>

#include "scan/manifest_reading.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::OrdersTable;
using txn_test::Where;

// Data file path -> (data sequence number, adding snapshot) for main's head.
std::map<std::string, std::pair<int64_t, int64_t>> Entries(OrdersTable& t, size_t* manifests = nullptr) {
  const TableMetadata m = t.Metadata();
  FileIO& io = *t.catalog().io();
  auto list = ReadManifestList(io, m, *m.CurrentSnapshot());
  EXPECT_TRUE(list.has_value());
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  if (manifests) *manifests = list->size();
  for (const auto& mf : *list) {
    auto entries = ReadManifestEntries(io, m, mf);
    EXPECT_TRUE(entries.has_value());
    for (const auto& e : *entries)
      if (e.status != EntryStatus::kDeleted) out[e.file.file_path] = {*e.sequence_number, *e.snapshot_id};
  }
  return out;
}

TEST(RewriteManifests, RegroupsWithoutChangingData) {
  OrdersTable t("country", {{"commit.manifest.merge.enabled", "false"}});
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i * 10, "DE", i}, {i * 10 + 1, "FR", i}})).has_value());
  size_t before_count = 0;
  const auto before = Entries(t, &before_count);
  EXPECT_EQ(before_count, 6u);
  const auto rows = t.Rows();

  auto r = RewriteManifests(t.catalog(), t.id());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->committed);
  EXPECT_EQ(r->manifests_replaced, 6);
  EXPECT_EQ(r->manifests_written, 1);  // all fit the 8 MB target
  EXPECT_EQ(r->entries, 12);
  size_t after_count = 0;
  EXPECT_EQ(Entries(t, &after_count), before);  // same files, sequence numbers and snapshots
  EXPECT_EQ(after_count, 1u);
  EXPECT_EQ(t.Rows(), rows);
  EXPECT_EQ(t.Metadata().CurrentSnapshot()->operation(), "replace");

  // Once regrouped there is nothing more to do.
  auto again = RewriteManifests(t.catalog(), t.id());
  ASSERT_TRUE(again.has_value());
  EXPECT_FALSE(again->committed);
}

TEST(RewriteManifests, ATinyTargetSplitsByPartition) {
  OrdersTable t("country", {{"commit.manifest.merge.enabled", "false"}});
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i * 10, "DE", i}, {i * 10 + 1, "FR", i}})).has_value());
  const auto before = Entries(t);
  RewriteManifestsOptions tiny;
  tiny.target_size_bytes = 1;  // one entry per manifest
  auto split = RewriteManifests(t.catalog(), t.id(), tiny);
  ASSERT_TRUE(split.has_value()) << split.error().message;
  EXPECT_EQ(split->manifests_written, 6);
  EXPECT_EQ(Entries(t), before);
  EXPECT_EQ(t.Rows().size(), 6u);
}

TEST(RewriteManifests, RefusedWhenAReplacedManifestChanged) {
  OrdersTable t("country", {{"commit.manifest.merge.enabled", "false"}});
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i * 10, "DE", i}})).has_value());
  auto b = t.Open();
  RewriteManifestsOptions options;
  options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 10")).has_value()); });
  auto r = RewriteManifests(t.catalog(), t.id(), options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(r.error().message.find("manifest is missing"), std::string::npos) << r.error().message;
  EXPECT_EQ(t.Rows().size(), 2u);  // B's delete survives
  // An append meanwhile is carried over.
  options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{99, "FR", 9}})).has_value()); });
  auto landed = RewriteManifests(t.catalog(), t.id(), options);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  EXPECT_EQ(t.Rows().size(), 3u);
}

}  // namespace
}  // namespace floe
