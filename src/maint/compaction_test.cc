// Compaction: small files rewritten per partition with their deletes applied; delete files
// nobody needs any more are removed; a delete landing on an input meanwhile refuses it.
#include <gtest/gtest.h>

#include "maint/compaction.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

const std::map<std::string, std::string> kMergeOnRead = {{"write.delete.mode", "merge-on-read"},
                                                         {"write.update.mode", "merge-on-read"}};

struct FileCounts {
  size_t data = 0, deletes = 0;
};

FileCounts Count(OrdersTable& t) {
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  EXPECT_TRUE(tasks.has_value());
  FileCounts c;
  std::set<std::string> deletes;
  for (const auto& task : *tasks) {
    ++c.data;
    for (const auto& d : task.deletes) deletes.insert(d.file.file_path);
  }
  c.deletes = deletes.size();
  return c;
}

TEST(Compaction, RewritesSmallFilesAndAppliesDeletes) {
  OrdersTable t("country", kMergeOnRead);
  for (int i = 0; i < 4; ++i)
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i * 10, "DE", i}, {i * 10 + 1, "FR", i}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 10 OR order_id = 21")).has_value());
  ASSERT_TRUE(UpdateWhere(t.catalog(), t.id(), Where("order_id = 30"), *ParseAssignments("amount_cents = 99")).has_value());
  const auto rows = t.Rows();
  FileCounts before = Count(t);
  EXPECT_EQ(before.data, 9u);
  EXPECT_GE(before.deletes, 2u);

  auto r = CompactTable(t.catalog(), t.id());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->committed);
  EXPECT_EQ(r->data_files_rewritten, 9);
  EXPECT_EQ(r->data_files_added, 2);  // one per partition
  EXPECT_EQ(r->delete_files_removed, static_cast<int64_t>(before.deletes));
  EXPECT_EQ(r->rows_rewritten, static_cast<int64_t>(rows.size()));
  const TableMetadata s_table = t.Metadata();
  const Snapshot* s = s_table.CurrentSnapshot();
  EXPECT_EQ(s->operation(), "replace");
  EXPECT_EQ(s->summary.at("removed-delete-files"), std::to_string(before.deletes));
  FileCounts after = Count(t);
  EXPECT_EQ(after.data, 2u);
  EXPECT_EQ(after.deletes, 0u);
  EXPECT_EQ(t.Rows(), rows);
  // Nothing left to do: no commit.
  auto again = CompactTable(t.catalog(), t.id());
  ASSERT_TRUE(again.has_value());
  EXPECT_FALSE(again->committed);
}

TEST(Compaction, KeepsDeleteFilesOtherFilesStillNeed) {
  OrdersTable t("", kMergeOnRead);  // unpartitioned: one delete file may span files
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "FR", 3}, {4, "FR", 4}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1 OR order_id = 3")).has_value());
  const auto rows = t.Rows();
  // Only files that may hold order 1: the delete file also points at the other file.
  CompactionOptions options;
  options.filter = Where("order_id < 3");
  options.min_input_files = 1;
  auto r = CompactTable(t.catalog(), t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->data_files_rewritten, 1);
  EXPECT_EQ(r->delete_files_removed, 0);
  EXPECT_EQ(t.Rows(), rows);
  EXPECT_EQ(Count(t).deletes, 1u);
}

// v3: one commit's deletion vectors share a Puffin file; compacting one partition drops the
// vector of the rewritten data file alone, the other partition's vector still applies.
TEST(Compaction, DropsTheDeletionVectorsOfRewrittenFilesOnly) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}, {3, "FR", 3}, {4, "FR", 4}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1 OR order_id = 3")).has_value());
  const auto rows = t.Rows();
  EXPECT_EQ(Count(t).deletes, 1u);  // two vectors, one Puffin file
  CompactionOptions options;
  options.filter = Where("country = 'DE'");
  options.min_input_files = 1;
  auto r = CompactTable(t.catalog(), t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->data_files_rewritten, 1);
  EXPECT_EQ(r->delete_files_removed, 1);
  EXPECT_EQ(t.Rows(), rows);
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  ASSERT_TRUE(tasks.has_value());
  size_t vectors = 0;
  for (const auto& task : *tasks)
    for (const auto& d : task.deletes) {
      EXPECT_TRUE(IsDeletionVector(d.file));
      EXPECT_EQ(d.file.referenced_data_file.value_or(""), task.file.file_path);
      EXPECT_EQ(task.file.partition, std::vector<Literal>{Literal::String("FR")});
      ++vectors;
    }
  EXPECT_EQ(vectors, 1u);
  // Compacting the rest drops the last vector too.
  CompactionOptions rest;
  rest.min_input_files = 1;
  auto all = CompactTable(t.catalog(), t.id(), rest);
  ASSERT_TRUE(all.has_value()) << all.error().message;
  EXPECT_EQ(t.Rows(), rows);
  EXPECT_EQ(Count(t).deletes, 0u);
}

TEST(Compaction, RefusedWhenADeleteTouchingAnInputLanded) {
  OrdersTable t("country", kMergeOnRead);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());
  auto b = t.Open();
  CompactionOptions options;
  options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 2")).has_value()); });
  auto r = CompactTable(t.catalog(), t.id(), options);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(r.error().message.find("Cannot commit, found new delete for replaced data file"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}}));  // B's delete survives
  // A delete in another partition does not stop it.
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "FR", 3}})).has_value());
  options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 3")).has_value()); });
  options.filter = Where("country = 'DE'");
  auto landed = CompactTable(t.catalog(), t.id(), options);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}}));
}

TEST(Compaction, PartialProgressCostsOnlyTheConflictingGroup) {
  OrdersTable t("country", kMergeOnRead);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(),
                            Batch({{i * 10, "DE", i}, {i * 10 + 1, "FR", i}, {i * 10 + 2, "US", i}}))
                    .has_value());
  const auto rows = t.Rows();
  auto b = t.Open();
  CompactionOptions options;
  options.partial_progress = true;
  options.max_commits = 3;  // one group (partition) per commit
  // While the first group is being committed, another writer deletes a row of FR.
  options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 11")).has_value()); });
  auto r = CompactTable(t.catalog(), t.id(), options);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->groups.size(), 3u);
  int committed = 0;
  for (const auto& g : r->groups) {
    if (g.committed) {
      ++committed;
      continue;
    }
    // The refusal names the group and its files.
    EXPECT_EQ(g.partition, "country=FR");
    EXPECT_NE(g.error.find("group country=FR"), std::string::npos) << g.error;
    EXPECT_NE(g.error.find(g.inputs.front()), std::string::npos) << g.error;
  }
  EXPECT_EQ(committed, 2);
  EXPECT_EQ(r->commits, 2);
  auto expected = rows;
  std::erase_if(expected, [](const Order& o) { return o.order_id == 11; });
  EXPECT_EQ(t.Rows(), expected);  // B's delete survives
  // Without partial progress the same conflict costs the whole job.
  OrdersTable u("country", kMergeOnRead);
  for (int i = 0; i < 2; ++i)
    ASSERT_TRUE(AppendBatch(u.catalog(), u.id(), Batch({{i * 10, "DE", i}, {i * 10 + 1, "FR", i}})).has_value());
  auto c = u.Open();
  CompactionOptions whole;
  whole.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*c, u.id(), Where("order_id = 11")).has_value()); });
  auto refused = CompactTable(u.catalog(), u.id(), whole);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(refused.error().message.find("group country=DE"), std::string::npos) << refused.error().message;
}

TEST(Compaction, TargetFileSizeAndBadOptions) {
  OrdersTable t("");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{i, "DE", i}})).has_value());
  CompactionOptions bad;
  bad.partial_progress = true;
  bad.max_commits = 0;
  auto r = CompactTable(t.catalog(), t.id(), bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("max-commits"), std::string::npos);
  CompactionOptions small_target;
  small_target.target_file_size_bytes = 1;  // every file rolls at once: one row per file
  small_target.small_file_bytes = 1 << 30;
  auto rolled = CompactTable(t.catalog(), t.id(), small_target);
  ASSERT_TRUE(rolled.has_value()) << rolled.error().message;
  EXPECT_EQ(rolled->data_files_rewritten, 3);
  EXPECT_EQ(rolled->data_files_added, 3);
  EXPECT_EQ(t.Rows().size(), 3u);
}

}  // namespace
}  // namespace floe
