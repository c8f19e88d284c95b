// Row lineage in format 3 tables: what a user relies on is that every row has one id, ids of
// one snapshot's new rows are contiguous and never reused, the table's next-row-id follows the
// snapshots, a retry on a newer base takes new ids (as it takes a new sequence number), and
// an upgraded table's old rows get ids with the first commit after the upgrade.
#include <gtest/gtest.h>

#include <set>

#include "commit/row_id_assignment.h"
#include "commit/snapshot_refs.h"
#include "commit/spec_update.h"
#include "meta/row_lineage.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"
#include "table_files/manifest_io.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::OrdersTable;

struct LineageRow {
  int64_t order_id;
  std::optional<int64_t> row_id;
  int64_t last_updated;
};

std::vector<LineageRow> Lineage(OrdersTable& t) {
  ScanOptions options;
  options.columns = {"order_id", "_row_id", "_last_updated_sequence_number"};
  auto batch = ReadTable(*t.catalog().io(), t.Metadata(), options);
  EXPECT_TRUE(batch.has_value()) << (batch ? "" : batch.error().message);
  std::vector<LineageRow> out;
  for (size_t r = 0; batch && r < batch->num_rows; ++r) {
    auto row = batch->Row(r);
    out.push_back({row[0].AsLong(), row[1].is_null() ? std::nullopt : std::optional<int64_t>(row[1].AsLong()),
                   row[2].AsLong()});
  }
  std::sort(out.begin(), out.end(), [](const LineageRow& a, const LineageRow& b) { return a.order_id < b.order_id; });
  return out;
}

TEST(RowIdAssignment, OnlyDataManifestsWithoutAnIdAreAssignedInListOrder) {
  TableMetadata table;
  table.format_version = 3;
  table.next_row_id = 1000;
  std::vector<ManifestFile> manifests(4);
  manifests[0].first_row_id = 925;  // carried over: kept
  manifests[0].added_rows_count = 75;
  manifests[1].added_rows_count = 100;
  manifests[1].existing_rows_count = 25;
  manifests[2].content = ManifestContent::kDeletes;  // never given one
  manifests[2].added_rows_count = 7;
  manifests[3].added_rows_count = 125;
  manifests[3].deleted_rows_count = 5;  // entries a reader may still give ids to
  RowIdRange range = AssignRowIds(table, manifests);
  EXPECT_EQ(range.first_row_id, 1000);
  EXPECT_EQ(manifests[0].first_row_id, 925);
  EXPECT_EQ(manifests[1].first_row_id, 1000);
  EXPECT_FALSE(manifests[2].first_row_id.has_value());
  EXPECT_EQ(manifests[3].first_row_id, 1125);
  EXPECT_EQ(range.added_rows, 255);
}

TEST(RowLineage, AppendsTakeContiguousIdsAndAdvanceNextRowId) {
  OrdersTable t("country", {{"format-version", "3"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}, {3, "FR", 3}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{4, "DE", 4}, {5, "NL", 5}})).has_value());
  const TableMetadata m = t.Metadata();
  ASSERT_EQ(m.snapshots.size(), 2u);
  EXPECT_EQ(m.snapshots[0].first_row_id, 0);
  EXPECT_EQ(m.snapshots[0].added_rows, 3);
  EXPECT_EQ(m.snapshots[1].first_row_id, 3);
  EXPECT_EQ(m.snapshots[1].added_rows, 2);
  EXPECT_EQ(m.next_row_id, 5);
  auto list = ReadManifestList(*t.catalog().io(), m, *m.CurrentSnapshot());
  ASSERT_TRUE(list.has_value());
  for (const ManifestFile& f : *list) EXPECT_TRUE(f.first_row_id.has_value()) << f.manifest_path;

  std::set<int64_t> ids;
  for (const LineageRow& r : Lineage(t)) {
    ASSERT_TRUE(r.row_id.has_value()) << r.order_id;
    ids.insert(*r.row_id);
    EXPECT_EQ(r.last_updated, r.order_id <= 3 ? 1 : 2) << r.order_id;
    EXPECT_EQ(*r.row_id < 3, r.order_id <= 3) << "each snapshot's rows in its own range";
  }
  EXPECT_EQ(ids, (std::set<int64_t>{0, 1, 2, 3, 4}));
}

TEST(RowLineage, ARetryTakesIdsFromTheNewBase) {
  OrdersTable t("country", {{"format-version", "3"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{2, "FR", 2}, {3, "FR", 3}})).has_value()); });
  auto landed = AppendBatch(t.catalog(), t.id(), Batch({{4, "NL", 4}}), a);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  const TableMetadata m = t.Metadata();
  ASSERT_EQ(m.snapshots.size(), 3u);
  EXPECT_EQ(m.CurrentSnapshot()->first_row_id, 3) << "B took 1 and 2; A's retry starts after them";
  EXPECT_EQ(m.next_row_id, 4);
  std::set<int64_t> ids;
  for (const LineageRow& r : Lineage(t)) ids.insert(r.row_id.value_or(-1));
  EXPECT_EQ(ids, (std::set<int64_t>{0, 1, 2, 3}));
}

TEST(RowLineage, ACommitOnAnotherBranchTakesIdsAndTheAppendRetries) {
  OrdersTable t("country", {{"format-version", "3"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "dev").has_value());
  auto b = t.Open();
  RowWriteOptions on_dev;
  on_dev.commit.branch = "dev";
  RowWriteOptions a;
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{2, "FR", 2}}), on_dev).has_value()); });
  auto landed = AppendBatch(t.catalog(), t.id(), Batch({{3, "NL", 3}}), a);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(m.CurrentSnapshot()->first_row_id, 2) << "dev's append took id 1 although main did not move";
  EXPECT_EQ(m.next_row_id, 3);
}

TEST(RowLineage, UpgradeGivesOldRowsIdsWithTheNextCommit) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}})).has_value());
  auto upgraded = UpdateProperties(t.catalog(), t.id(), {{"format-version", "3"}}, {});
  ASSERT_TRUE(upgraded.has_value()) << upgraded.error().message;
  EXPECT_EQ(upgraded->metadata.format_version, 3);
  EXPECT_EQ(upgraded->metadata.next_row_id, 0);
  EXPECT_FALSE(upgraded->metadata.properties.count("format-version")) << "reserved: never stored";
  for (const LineageRow& r : Lineage(t)) EXPECT_FALSE(r.row_id.has_value()) << "a v2 snapshot has no ids";

  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "FR", 3}})).has_value());
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(m.CurrentSnapshot()->first_row_id, 0);
  EXPECT_EQ(m.CurrentSnapshot()->added_rows, 3) << "the old file's rows are given ids too";
  EXPECT_EQ(m.next_row_id, 3);
  std::set<int64_t> ids;
  for (const LineageRow& r : Lineage(t)) {
    ASSERT_TRUE(r.row_id.has_value()) << r.order_id;
    ids.insert(*r.row_id);
    EXPECT_EQ(r.last_updated, r.order_id <= 2 ? 1 : 2);
  }
  EXPECT_EQ(ids, (std::set<int64_t>{0, 1, 2}));
}

TEST(RowLineage, FormatVersionPropertyOnlyGoesUp) {
  OrdersTable t("country", {{"format-version", "3"}});
  const TableMetadata before = t.Metadata();
  auto down = UpdateProperties(t.catalog(), t.id(), {{"format-version", "2"}}, {});
  ASSERT_FALSE(down.has_value());
  EXPECT_EQ(down.error().message, "Cannot downgrade v3 table to v2 (format-version can only go up)");
  auto removed = UpdateProperties(t.catalog(), t.id(), {}, {"format-version"});
  ASSERT_FALSE(removed.has_value());
  EXPECT_NE(removed.error().message.find("format-version cannot be removed"), std::string::npos);
  auto bad = UpdateProperties(t.catalog(), t.id(), {{"format-version", "4"}}, {});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("format-version='4'"), std::string::npos) << bad.error().message;
  EXPECT_EQ(t.Metadata().last_updated_ms, before.last_updated_ms) << "nothing changed";
  auto same = UpdateProperties(t.catalog(), t.id(), {{"format-version", "3"}, {"x", "y"}}, {});
  ASSERT_TRUE(same.has_value()) << same.error().message;
  EXPECT_EQ(same->metadata.properties.count("format-version"), 0u);
  EXPECT_EQ(same->metadata.properties.at("x"), "y");
}

}  // namespace
}  // namespace floe
