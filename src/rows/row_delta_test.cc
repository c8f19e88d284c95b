// Merge-on-read: the row-delta rows of DESIGN.md's conflict table as deterministic two-writer
// tests, and merge-on-read delete / update / upsert against copy-on-write on the same inputs.
#include <random>

#include <gtest/gtest.h>

#include "scan/table_scan.h"
#include "rows/merge_on_read.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"
#include "rows/upsert.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

std::vector<Order> FourOrders() { return {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 300}, {4, "FR", 400}}; }

const std::map<std::string, std::string> kMergeOnRead = {{"write.delete.mode", "merge-on-read"},
                                                         {"write.update.mode", "merge-on-read"},
                                                         {"write.merge.mode", "merge-on-read"}};

std::map<std::string, std::string> With(std::map<std::string, std::string> a,
                                        const std::map<std::string, std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

int64_t SummaryInt(const Snapshot& s, const std::string& key) {
  auto it = s.summary.find(key);
  return it == s.summary.end() ? 0 : std::stoll(it->second);
}

TEST(MergeOnRead, DeleteAddsOnlyPositionDeleteFiles) {
  OrdersTable t("country", kMergeOnRead);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto r = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2 OR order_id = 3"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows_deleted, 2);
  const TableMetadata s_table = t.Metadata();
  const Snapshot* s = s_table.CurrentSnapshot();
  EXPECT_EQ(s->operation(), "delete");
  EXPECT_EQ(SummaryInt(*s, "added-data-files"), 0);
  EXPECT_EQ(SummaryInt(*s, "added-delete-files"), 2);  // one per partition
  EXPECT_EQ(SummaryInt(*s, "added-position-deletes"), 2);
  EXPECT_EQ(SummaryInt(*s, "deleted-data-files"), 0);
  std::vector<Order> expected = {{1, "DE", 100}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);

  // The delete files are sorted position deletes with full file_path bounds.
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  ASSERT_TRUE(tasks.has_value());
  for (const auto& task : *tasks) {
    ASSERT_EQ(task.deletes.size(), 1u);
    const DataFile& del = task.deletes[0].file;
    EXPECT_EQ(del.content, FileContent::kPositionDeletes);
    EXPECT_NE(del.file_path.find("/data/"), std::string::npos);
    EXPECT_EQ(del.lower_bounds.at(2147483546), task.file.file_path);
    EXPECT_EQ(del.upper_bounds.at(2147483546), task.file.file_path);
    EXPECT_EQ(del.referenced_data_file.value_or(""), task.file.file_path);
  }
}

TEST(MergeOnRead, UpdateAddsDeletesAndNewRows) {
  OrdersTable t("country", kMergeOnRead);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto assignments = ParseAssignments("amount_cents = amount_cents + 1, country = 'NL'");
  ASSERT_TRUE(assignments.has_value()) << assignments.error().message;
  auto r = UpdateWhere(t.catalog(), t.id(), Where("order_id >= 3"), *assignments);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows_updated, 2);
  const TableMetadata s_table = t.Metadata();
  const Snapshot* s = s_table.CurrentSnapshot();
  EXPECT_EQ(s->operation(), "overwrite");
  EXPECT_EQ(SummaryInt(*s, "added-delete-files"), 1);
  EXPECT_EQ(SummaryInt(*s, "added-data-files"), 1);
  EXPECT_EQ(SummaryInt(*s, "deleted-data-files"), 0);
  std::vector<Order> expected = {{1, "DE", 100}, {2, "DE", 200}, {3, "NL", 301}, {4, "NL", 401}};
  EXPECT_EQ(t.Rows(), expected);
}

TEST(MergeOnRead, UpsertByEqualityDeletes) {
  OrdersTable t("", kMergeOnRead);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto r = Upsert(t.catalog(), t.id(), Batch({{2, "DE", 222}, {9, "PL", 900}}), {"order_id"});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  const TableMetadata s_table = t.Metadata();
  const Snapshot* s = s_table.CurrentSnapshot();
  EXPECT_EQ(SummaryInt(*s, "added-equality-deletes"), 2);
  EXPECT_EQ(SummaryInt(*s, "added-data-files"), 1);
  std::vector<Order> expected = {{1, "DE", 100}, {2, "DE", 222}, {3, "FR", 300}, {4, "FR", 400}, {9, "PL", 900}};
  EXPECT_EQ(t.Rows(), expected);
  // Upserting again replaces the replacement, not the new row of the same commit.
  ASSERT_TRUE(Upsert(t.catalog(), t.id(), Batch({{2, "DE", 2222}}), {"order_id"}).has_value());
  expected[1] = {2, "DE", 2222};
  EXPECT_EQ(t.Rows(), expected);
}

TEST(MergeOnRead, UpsertRefusesDuplicateKeysAndMissingKeyColumns) {
  OrdersTable t("", kMergeOnRead);
  auto dup = Upsert(t.catalog(), t.id(), Batch({{2, "DE", 1}, {2, "FR", 2}}), {"order_id"});
  ASSERT_FALSE(dup.has_value());
  EXPECT_NE(dup.error().message.find("more than once"), std::string::npos) << dup.error().message;
  auto missing = Upsert(t.catalog(), t.id(), Batch({{2, "DE", 1}}), {"nope"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("'nope'"), std::string::npos) << missing.error().message;
  auto no_identifier = Upsert(t.catalog(), t.id(), Batch({{2, "DE", 1}}), {});
  ASSERT_FALSE(no_identifier.has_value());
  EXPECT_NE(no_identifier.error().message.find("identifier"), std::string::npos);
  EXPECT_FALSE(t.Metadata().CurrentSnapshot());
}

// ---- DESIGN.md's conflict table, row-delta rows ----

// A deletes order 2 by merge-on-read while B (in A's commit, before its swap) deletes order 1
// of the same partition by merge-on-read: B added a delete file matching A's filter.
void RowDeltaWhileBAddsDeletes(const std::string& isolation, Result<RowWriteResult>* a, std::vector<Order>* rows) {
  OrdersTable t("country", With(kMergeOnRead, {{"write.delete.isolation-level", isolation}}));
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value()); });
  *a = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE' AND order_id = 2"), a_options);
  *rows = t.Rows();
}

// B's delete file may match A's filter by its partition, but deletes another row (order 1):
// judged by key (key_validation.h), both land.
TEST(RowDeltaConflicts, SerializableLandsWhenBsDeleteFileDeletesOtherRows) {
  Result<RowWriteResult> a = InvalidArgument("not run");
  std::vector<Order> rows;
  RowDeltaWhileBAddsDeletes("serializable", &a, &rows);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(rows, expected);
}

TEST(RowDeltaConflicts, UpdateRefusedWhenBsDeleteFileDeletesItsRow) {
  OrdersTable t("country", With(kMergeOnRead, {{"write.update.isolation-level", "serializable"}}));
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 2")).has_value()); });
  auto a = UpdateWhere(t.catalog(), t.id(), Where("order_id = 2"), *ParseAssignments("amount_cents = 2"), a_options);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(a.error().message.find("Found concurrent deletes of rows this write changes: rows (2) in ["),
            std::string::npos)
      << a.error().message;
  EXPECT_NE(a.error().message.find("-deletes.parquet"), std::string::npos) << a.error().message;
  std::vector<Order> expected = {{1, "DE", 100}, {3, "FR", 300}, {4, "FR", 400}};  // B's delete only
  EXPECT_EQ(t.Rows(), expected);
}

TEST(RowDeltaConflicts, SnapshotIsolationLandsBoth) {
  Result<RowWriteResult> a = InvalidArgument("not run");
  std::vector<Order> rows;
  RowDeltaWhileBAddsDeletes("snapshot", &a, &rows);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->commit.attempts, 2);
  std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(rows, expected);
}

TEST(RowDeltaConflicts, ConcurrentUpdatesOfOneRowNeverLeaveTwoVersions) {
  OrdersTable t("country", With(kMergeOnRead, {{"write.update.isolation-level", "snapshot"}}));
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(UpdateWhere(*b, t.id(), Where("order_id = 2"), *ParseAssignments("amount_cents = 1")).has_value()); });
  auto a = UpdateWhere(t.catalog(), t.id(), Where("order_id = 2"), *ParseAssignments("amount_cents = 2"), a_options);
  ASSERT_FALSE(a.has_value());
  EXPECT_NE(a.error().message.find("Found concurrent deletes of rows this write changes: rows (2)"), std::string::npos)
      << a.error().message;
  std::vector<Order> expected = {{1, "DE", 100}, {2, "DE", 1}, {3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
}

TEST(RowDeltaConflicts, SerializableRefusedWhenBAppendedMatchingData) {
  OrdersTable t("country", kMergeOnRead);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{5, "DE", 500}})).has_value()); });
  auto a = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE'"), a_options);
  ASSERT_FALSE(a.has_value());
  EXPECT_NE(a.error().message.find("Found conflicting files that can contain records matching"), std::string::npos)
      << a.error().message;
  EXPECT_EQ(t.Rows().size(), 5u);
}

// B rewrote (copy-on-write) the file A's position deletes point at, deleting another row: A
// is redone on B's replacement file (a rebase) and both land.
TEST(RowDeltaConflicts, RedoneWhenBRemovedTheDataFileItsDeletesPointAt) {
  for (const std::string isolation : {"serializable", "snapshot"}) {
    OrdersTable t("country", With(kMergeOnRead, {{"write.delete.isolation-level", isolation}}));
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
    auto b = t.Open();
    RowWriteOptions a_options;
    a_options.commit.before_swap = [&](int attempt) {
      // B rewrites the German file (copy-on-write), removing the file A's deletes point at.
      RowWriteOptions cow;
      cow.mode = WriteMode::kCopyOnWrite;
      if (attempt == 1) {
        ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1"), cow).has_value());
      }
    };
    auto a = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2"), a_options);
    ASSERT_TRUE(a.has_value()) << isolation << ": " << a.error().message;
    EXPECT_EQ(a->rebases, 1) << isolation;
    std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
    EXPECT_EQ(t.Rows(), expected) << isolation;
  }
}

TEST(RowDeltaConflicts, LandsWhenBChangedAnotherPartition) {
  OrdersTable t("country", kMergeOnRead);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 3")).has_value()); });
  auto a = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE' AND order_id = 2"), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  std::vector<Order> expected = {{1, "DE", 100}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
}

// ---- merge-on-read gives the same rows as copy-on-write ----

struct Layout {
  std::string partition_by;
  std::vector<std::string> upsert_keys;
};

class ModesAgree : public ::testing::TestWithParam<int> {};

TEST_P(ModesAgree, RandomOperations) {
  const Layout layouts[] = {{"country", {"order_id"}}, {"country", {"country", "order_id"}}, {"", {"order_id"}}};
  const Layout& layout = layouts[GetParam()];
  OrdersTable cow(layout.partition_by);
  OrdersTable mor(layout.partition_by, kMergeOnRead);
  std::mt19937 rng(1234 + GetParam());
  const char* countries[] = {"DE", "FR", "NL"};
  int64_t next_id = 1;
  auto random_orders = [&](int n) {
    std::vector<Order> out;
    for (int i = 0; i < n; ++i)
      out.push_back({next_id++, countries[rng() % 3], static_cast<int64_t>(rng() % 1000)});
    return out;
  };
  int delete_files_seen = 0;
  for (int step = 0; step < 24; ++step) {
    int op = step < 2 ? 0 : static_cast<int>(rng() % 4);
    std::string what;
    Result<RowWriteResult> a = InvalidArgument("unset"), b = InvalidArgument("unset");
    if (op == 0) {
      auto batch = Batch(random_orders(6));
      what = "append";
      a = AppendBatch(cow.catalog(), cow.id(), batch);
      b = AppendBatch(mor.catalog(), mor.id(), batch);
    } else if (op == 1) {
      std::string filter = rng() % 2 ? "order_id % " + std::to_string(2 + rng() % 4) + " = 1"
                                     : "amount_cents < " + std::to_string(rng() % 400) + " AND country = '" +
                                           countries[rng() % 3] + "'";
      what = "delete " + filter;
      a = DeleteWhere(cow.catalog(), cow.id(), Where(filter));
      b = DeleteWhere(mor.catalog(), mor.id(), Where(filter));
    } else if (op == 2) {
      std::string filter = "amount_cents > " + std::to_string(rng() % 1000);
      auto set = ParseAssignments("amount_cents = amount_cents + 7, country = '" + std::string(countries[rng() % 3]) + "'");
      ASSERT_TRUE(set.has_value());
      what = "update " + filter;
      a = UpdateWhere(cow.catalog(), cow.id(), Where(filter), *set);
      b = UpdateWhere(mor.catalog(), mor.id(), Where(filter), *set);
    } else {
      // Some existing keys (from the current rows) and some new ones.
      auto rows = cow.Rows();
      std::vector<Order> upserts;
      std::set<int64_t> used;
      for (int i = 0; i < 3 && !rows.empty(); ++i) {
        Order o = rows[rng() % rows.size()];
        if (!used.insert(o.order_id).second) continue;
        o.amount_cents += 1000;
        if (rng() % 2) o.country = countries[rng() % 3];  // the new version may move partition
        upserts.push_back(o);
      }
      for (const auto& o : random_orders(2)) upserts.push_back(o);
      what = "upsert";
      a = Upsert(cow.catalog(), cow.id(), Batch(upserts), layout.upsert_keys);
      b = Upsert(mor.catalog(), mor.id(), Batch(upserts), layout.upsert_keys);
    }
    ASSERT_TRUE(a.has_value()) << what << ": " << a.error().message;
    ASSERT_TRUE(b.has_value()) << what << ": " << b.error().message;
    ASSERT_EQ(cow.Rows(), mor.Rows()) << "after step " << step << ": " << what;
    if (op != 0 && b->committed) {
      const TableMetadata s_table = mor.Metadata();
  const Snapshot* s = s_table.CurrentSnapshot();
      EXPECT_EQ(SummaryInt(*s, "deleted-data-files"), 0) << what;
      EXPECT_GT(SummaryInt(*s, "added-delete-files"), 0) << what;
      delete_files_seen += SummaryInt(*s, "added-delete-files");
    }
  }
  EXPECT_GT(delete_files_seen, 3);
  EXPECT_FALSE(cow.Rows().empty());
}

INSTANTIATE_TEST_SUITE_P(Layouts, ModesAgree, ::testing::Values(0, 1, 2));

}  // namespace
}  // namespace floe
