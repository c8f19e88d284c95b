// Snapshot summaries through every kind of commit (append, copy-on-write delete and update,
// merge-on-read delete, compaction): the operation name, the added and removed counts of the
// commit, and totals that equal what the snapshot's manifests hold, as engines that show
// table statistics from the summary (Spark, Trino, PyIceberg) rely on.
#include <gtest/gtest.h>

#include "table_files/manifest_io.h"
#include "maint/compaction.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OrdersTable;
using txn_test::Where;

int64_t SummaryInt(const Snapshot& s, const std::string& key) {
  auto it = s.summary.find(key);
  EXPECT_NE(it, s.summary.end()) << "summary lacks " << key;
  return it == s.summary.end() ? -1 : std::stoll(it->second);
}

// The totals a summary must carry, counted from the snapshot's live manifest entries.
struct Totals {
  int64_t data_files = 0, records = 0, files_size = 0, delete_files = 0, position_deletes = 0;
};

Totals FromManifests(OrdersTable& t, const TableMetadata& m, const Snapshot& s) {
  Totals out;
  auto manifests = ReadManifestList(*t.catalog().io(), m, s);
  EXPECT_TRUE(manifests.has_value());
  for (const ManifestFile& mf : manifests ? *manifests : std::vector<ManifestFile>{}) {
    auto entries = ReadManifestEntries(*t.catalog().io(), m, mf);
    EXPECT_TRUE(entries.has_value());
    for (const ManifestEntry& e : entries ? *entries : std::vector<ManifestEntry>{}) {
      if (e.status == EntryStatus::kDeleted) continue;
      out.files_size += e.file.file_size_in_bytes;
      if (e.file.content == FileContent::kData) {
        ++out.data_files;
        out.records += e.file.record_count;
      } else {
        ++out.delete_files;
        if (e.file.content == FileContent::kPositionDeletes) out.position_deletes += e.file.record_count;
      }
    }
  }
  return out;
}

// The current snapshot's summary agrees with its manifests; returns the snapshot.
Snapshot CheckTotals(OrdersTable& t, const std::string& operation) {
  const TableMetadata m = t.Metadata();
  const Snapshot& s = *m.CurrentSnapshot();
  EXPECT_EQ(s.summary.at("operation"), operation);
  const Totals want = FromManifests(t, m, s);
  EXPECT_EQ(SummaryInt(s, "total-data-files"), want.data_files) << operation;
  EXPECT_EQ(SummaryInt(s, "total-records"), want.records) << operation;
  EXPECT_EQ(SummaryInt(s, "total-files-size"), want.files_size) << operation;
  EXPECT_EQ(SummaryInt(s, "total-delete-files"), want.delete_files) << operation;
  EXPECT_EQ(SummaryInt(s, "total-position-deletes"), want.position_deletes) << operation;
  EXPECT_EQ(SummaryInt(s, "total-equality-deletes"), 0) << operation;
  return s;
}

TEST(SnapshotSummaries, EveryCommitsCountsAndTotalsMatchItsManifests) {
  OrdersTable t("country");

  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}, {3, "FR", 3}})).has_value());
  Snapshot s = CheckTotals(t, "append");
  EXPECT_EQ(SummaryInt(s, "added-data-files"), 2);  // one per partition
  EXPECT_EQ(SummaryInt(s, "added-records"), 3);
  EXPECT_GT(SummaryInt(s, "added-files-size"), 0);
  EXPECT_EQ(SummaryInt(s, "total-records"), 3);

  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{4, "FR", 4}})).has_value());
  s = CheckTotals(t, "append");
  EXPECT_EQ(SummaryInt(s, "added-records"), 1);
  EXPECT_EQ(SummaryInt(s, "total-records"), 4);
  EXPECT_EQ(SummaryInt(s, "total-data-files"), 3);

  // Copy-on-write: the German file (2 rows) is replaced by one holding the row that stays.
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1")).has_value());
  s = CheckTotals(t, "overwrite");
  EXPECT_EQ(SummaryInt(s, "deleted-data-files"), 1);
  EXPECT_EQ(SummaryInt(s, "deleted-records"), 2);
  EXPECT_EQ(SummaryInt(s, "added-data-files"), 1);
  EXPECT_EQ(SummaryInt(s, "added-records"), 1);
  EXPECT_GT(SummaryInt(s, "removed-files-size"), 0);
  EXPECT_EQ(SummaryInt(s, "total-records"), 3);

  // A delete that matches whole files only removes them.
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());
  s = CheckTotals(t, "delete");
  EXPECT_EQ(SummaryInt(s, "deleted-data-files"), 1);
  EXPECT_EQ(SummaryInt(s, "deleted-records"), 1);
  EXPECT_EQ(SummaryInt(s, "total-records"), 2);

  ASSERT_TRUE(UpdateWhere(t.catalog(), t.id(), Where("order_id = 3"), *ParseAssignments("amount_cents = 30")).has_value());
  s = CheckTotals(t, "overwrite");
  EXPECT_EQ(SummaryInt(s, "total-records"), 2);

  // Merge-on-read: a position delete file; records are counted from data files, so the
  // total stays while the deletes are counted apart.
  RowWriteOptions merge_on_read;
  merge_on_read.mode = WriteMode::kMergeOnRead;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{5, "FR", 5}, {6, "FR", 6}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 5"), merge_on_read).has_value());
  s = CheckTotals(t, "delete");
  EXPECT_EQ(SummaryInt(s, "added-delete-files"), 1);
  EXPECT_EQ(SummaryInt(s, "added-position-delete-files"), 1);
  EXPECT_EQ(SummaryInt(s, "added-position-deletes"), 1);
  EXPECT_EQ(SummaryInt(s, "total-position-deletes"), 1);
  EXPECT_EQ(SummaryInt(s, "total-records"), 4);

  // Compaction applies the delete and drops the delete file.
  auto compacted = CompactTable(t.catalog(), t.id());
  ASSERT_TRUE(compacted.has_value()) << compacted.error().message;
  ASSERT_TRUE(compacted->committed);
  s = CheckTotals(t, "replace");
  EXPECT_EQ(SummaryInt(s, "removed-delete-files"), 1);
  EXPECT_EQ(SummaryInt(s, "total-delete-files"), 0);
  EXPECT_EQ(SummaryInt(s, "total-position-deletes"), 0);
  EXPECT_EQ(SummaryInt(s, "total-records"), 3);
  EXPECT_EQ(t.Rows().size(), 3u);
}

}  // namespace
}  // namespace floe
