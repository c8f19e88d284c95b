// Row lineage through merge-on-read updates and upserts on format 3 tables: the new version of a
// changed row keeps the old row's _row_id and takes the change's sequence number; a row an upsert
// inserts gets a new id; rows left alone keep both values. Read back through floe's scan.
#include <map>
#include <set>
#include <optional>

#include <gtest/gtest.h>

#include "meta/row_lineage.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"
#include "rows/upsert.h"
#include "scan/table_scan.h"

namespace floe {
namespace row_lineage_writes_test {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

struct Lineage {
  int64_t row_id;
  int64_t last_updated;
  int64_t amount;
  friend auto operator<=>(const Lineage&, const Lineage&) = default;
};

// Every live row's lineage, by order id.
std::map<int64_t, Lineage> ReadLineage(OrdersTable& t) {
  ScanOptions options;
  options.columns = {"order_id", "_row_id", "_last_updated_sequence_number", "amount_cents"};
  auto batch = ReadTable(*t.catalog().io(), t.Metadata(), options);
  EXPECT_TRUE(batch.has_value()) << (batch ? "" : batch.error().message);
  std::map<int64_t, Lineage> out;
  for (size_t r = 0; batch && r < batch->num_rows; ++r) {
    auto row = batch->Row(r);
    EXPECT_FALSE(row[1].is_null() || row[2].is_null()) << "order " << row[0].AsLong() << " lacks lineage";
    if (row[1].is_null() || row[2].is_null()) continue;
    EXPECT_FALSE(out.count(row[0].AsLong())) << "order " << row[0].AsLong() << " is live twice";
    out[row[0].AsLong()] = {row[1].AsLong(), row[2].AsLong(), row[3].AsLong()};
  }
  return out;
}

int64_t LastSequenceNumber(OrdersTable& t) { return t.Metadata().last_sequence_number; }

std::map<std::string, std::string> Mode(const std::string& mode) {
  return {{"write.update.mode", mode}, {"write.merge.mode", mode}, {"write.delete.mode", mode}};
}

std::vector<Order> SixOrders() {
  return {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 300}, {4, "FR", 400}, {5, "PL", 500}, {6, "PL", 600}};
}

TEST(RowLineageWrites, MergeOnReadUpdateKeepsTheRowsId) {
  OrdersTable t("country", Mode("merge-on-read"), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(SixOrders())).has_value());
  const auto before = ReadLineage(t);
  auto assignments = ParseAssignments("amount_cents = amount_cents + 1");
  ASSERT_TRUE(assignments.has_value());
  auto r = UpdateWhere(t.catalog(), t.id(), Where("order_id = 2 OR order_id = 5"), *assignments);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows_updated, 2);
  const auto after = ReadLineage(t);
  ASSERT_EQ(after.size(), before.size());
  const int64_t seq = LastSequenceNumber(t);
  for (const auto& [order, was] : before) {
    const Lineage& now = after.at(order);
    EXPECT_EQ(now.row_id, was.row_id) << "order " << order;
    if (order == 2 || order == 5) {
      EXPECT_EQ(now.last_updated, seq) << "order " << order;
      EXPECT_EQ(now.amount, was.amount + 1);
    } else {
      EXPECT_EQ(now, was) << "order " << order;
    }
  }
  // A second update of an updated row: still the same id.
  ASSERT_TRUE(UpdateWhere(t.catalog(), t.id(), Where("order_id = 2"), *assignments).has_value());
  EXPECT_EQ(ReadLineage(t).at(2).row_id, before.at(2).row_id);
  EXPECT_EQ(ReadLineage(t).at(2).last_updated, LastSequenceNumber(t));
}

void UpsertKeepsIds(const std::string& mode) {
  OrdersTable t("country", Mode(mode), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(SixOrders())).has_value());
  const auto before = ReadLineage(t);
  const int64_t next_row_id = t.Metadata().next_row_id.value_or(-1);
  // Order 3 changes country: its new version lands in another partition, same id.
  auto r = Upsert(t.catalog(), t.id(), Batch({{3, "PL", 333}, {4, "FR", 444}, {7, "DE", 700}, {8, "IT", 800}}),
                  {"order_id"});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows_updated, 2);
  const auto after = ReadLineage(t);
  ASSERT_EQ(after.size(), 8u);
  const int64_t seq = LastSequenceNumber(t);
  for (int64_t order : {1, 2, 5, 6}) EXPECT_EQ(after.at(order), before.at(order)) << mode << " order " << order;
  for (int64_t order : {3, 4}) {
    EXPECT_EQ(after.at(order).row_id, before.at(order).row_id) << mode << " order " << order;
    EXPECT_EQ(after.at(order).last_updated, seq) << mode << " order " << order;
  }
  EXPECT_EQ(after.at(3).amount, 333);
  std::set<int64_t> ids;
  for (const auto& [order, l] : after) ids.insert(l.row_id);
  EXPECT_EQ(ids.size(), after.size()) << mode << ": ids are unique";
  for (int64_t order : {7, 8}) {
    EXPECT_GE(after.at(order).row_id, next_row_id) << mode << " order " << order << " is new";
    EXPECT_EQ(after.at(order).last_updated, seq);
  }
}

TEST(RowLineageWrites, MergeOnReadUpsertKeepsReplacedIdsAndGivesInsertsNewOnes) { UpsertKeepsIds("merge-on-read"); }
TEST(RowLineageWrites, CopyOnWriteUpsertKeepsReplacedIdsAndGivesInsertsNewOnes) { UpsertKeepsIds("copy-on-write"); }

TEST(RowLineageWrites, MergeOnReadUpsertOnV3WritesNoEqualityDeletes) {
  OrdersTable t("country", Mode("merge-on-read"), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(SixOrders())).has_value());
  ASSERT_TRUE(Upsert(t.catalog(), t.id(), Batch({{1, "DE", 111}}), {"order_id"}).has_value());
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  ASSERT_TRUE(tasks.has_value()) << tasks.error().message;
  for (const auto& task : *tasks)
    for (const auto& d : task.deletes) EXPECT_TRUE(IsDeletionVector(d.file)) << d.file.file_path;
  EXPECT_EQ(ReadLineage(t).at(1).amount, 111);
}

// An update and an upsert that lose their race to a delete of other rows of the same data files
// merge its vectors (no redo), and still keep the changed rows' ids.
TEST(RowLineageWrites, MergedRetriesKeepIdsAndTheOtherDelete) {
  OrdersTable t("country", Mode("merge-on-read"), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(SixOrders())).has_value());
  const auto before = ReadLineage(t);
  auto b = t.Open();
  RowWriteOptions options;
  options.commit.before_swap = txn_test::OnFirstAttempt(
      [&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value()); });
  auto updated =
      UpdateWhere(t.catalog(), t.id(), Where("order_id = 2"), *ParseAssignments("amount_cents = 7"), options);
  ASSERT_TRUE(updated.has_value()) << updated.error().message;
  EXPECT_EQ(updated->vector_merges, 1);
  EXPECT_EQ(updated->rebases, 0);
  options.commit.before_swap = txn_test::OnFirstAttempt(
      [&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 3")).has_value()); });
  auto upserted = Upsert(t.catalog(), t.id(), Batch({{4, "FR", 44}, {9, "FR", 900}}), {"order_id"}, options);
  ASSERT_TRUE(upserted.has_value()) << upserted.error().message;
  EXPECT_EQ(upserted->vector_merges, 1);
  EXPECT_EQ(upserted->rebases, 0);
  const auto after = ReadLineage(t);
  EXPECT_FALSE(after.count(1));
  EXPECT_FALSE(after.count(3));
  ASSERT_TRUE(after.count(2) && after.count(4) && after.count(9));
  EXPECT_EQ(after.at(2).row_id, before.at(2).row_id);
  EXPECT_EQ(after.at(2).amount, 7);
  EXPECT_EQ(after.at(4).row_id, before.at(4).row_id);
  EXPECT_EQ(after.at(4).amount, 44);
  EXPECT_EQ(after.at(5), before.at(5));
  EXPECT_EQ(after.at(6), before.at(6));
  EXPECT_EQ(after.size(), 5u);
}

}  // namespace
}  // namespace row_lineage_writes_test
}  // namespace floe
