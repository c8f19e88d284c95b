// Key-aware validation (key_validation.h), in one process: writer B commits inside A's first
// attempt (before its swap); A's outcome, its message and the rows afterwards are asserted.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "rows/key_validation.h"
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

std::set<std::string> ParquetFilesUnder(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.path().extension() == ".parquet") out.insert(e.path().string());
  return out;
}

std::vector<Order> OddKeys() { return {{1, "DE", 100}, {3, "DE", 300}, {5, "DE", 500}, {7, "DE", 700}}; }

// B's file spans A's key (its bounds 2..8 hold 5) without holding it: file metrics say "may",
// the rows say no.
TEST(KeyValidation, UpsertLandsNextToAConcurrentFileWhoseBoundsSpanItsKey) {
  OrdersTable t("country", {{"write.merge.isolation-level", "serializable"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.commit.before_swap =
      OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{2, "DE", 2}, {8, "DE", 8}})).has_value()); });
  auto r = Upsert(t.catalog(), t.id(), Batch({{5, "DE", 555}}), {"order_id"}, a);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 100}, {2, "DE", 2}, {3, "DE", 300}, {5, "DE", 555}, {7, "DE", 700},
                                          {8, "DE", 8}}));
}

TEST(KeyValidation, SerializableRefusalNamesTheKeyAndTheFile) {
  OrdersTable t("country", {{"write.merge.isolation-level", "serializable"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{4, "DE", 4}})).has_value()); });
  auto r = Upsert(t.catalog(), t.id(), Batch({{4, "DE", 444}}), {"order_id"}, a);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(r.error().message.find("rows (4) in ["), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(".parquet]"), std::string::npos) << r.error().message;
  auto rows = t.Rows();
  EXPECT_EQ(std::count(rows.begin(), rows.end(), Order{4, "DE", 4}), 1) << "B's row stays, A's never landed";
}

TEST(KeyValidation, PastTheReadCapFallsBackToFileMetricsAndSaysSo) {
  OrdersTable t("country", {{"write.merge.isolation-level", "serializable"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.key_check_max_files = 0;
  a.commit.before_swap =
      OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{2, "DE", 2}, {8, "DE", 8}})).has_value()); });
  auto r = Upsert(t.catalog(), t.id(), Batch({{5, "DE", 555}}), {"order_id"}, a);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("judged by file metrics only: the key check reads at most 0 concurrent files"),
            std::string::npos)
      << r.error().message;
}

// A merge-on-read upsert that loses the swap round after round: each round, B lands an upsert
// of other keys (a data file whose bounds span A's key). Every retry validates against all of
// B's commits since A's snapshot, but reads only the files that landed since its previous
// attempt: with a cap of 3 files per validation, A still judges by key after 4 lost rounds
// (4 concurrent files) and lands. Its retries rewrite only metadata: the data and delete files
// it wrote before its first attempt are the ones that land (a redo would have replaced them).
TEST(KeyValidation, ARetryReadsOnlyTheFilesThatLandedSinceItsLastAttempt) {
  OrdersTable t("country", {{"write.merge.isolation-level", "serializable"},
                            {"write.merge.mode", "merge-on-read"},
                            {"commit.retry.num-retries", "10"},
                            {"commit.retry.min-wait-ms", "1"},
                            {"commit.retry.max-wait-ms", "2"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  constexpr int kLostRounds = 4;
  RowWriteOptions a;
  a.key_check_max_files = 3;
  std::set<std::string> written_first;  // every Parquet file of the table once A's are written
  a.after_files_written = [&] { written_first = ParquetFilesUnder(t.dir()); };
  int attempts = 0;
  a.commit.before_swap = [&](int attempt) {
    attempts = attempt;
    if (attempt > kLostRounds) return;
    // Keys -1 and 101, -2 and 102, ...: every file's bounds span A's key 5.
    ASSERT_TRUE(Upsert(*b, t.id(), Batch({{-attempt, "DE", 1}, {100 + attempt, "DE", 1}}), {"order_id"}).has_value());
  };
  auto r = Upsert(t.catalog(), t.id(), Batch({{5, "DE", 555}}), {"order_id"}, a);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(attempts, kLostRounds + 1);
  EXPECT_EQ(r->rebases, 0);
  std::set<std::string> now = ParquetFilesUnder(t.dir());
  for (const auto& f : written_first) EXPECT_TRUE(now.count(f)) << f << " was replaced";
  EXPECT_EQ(now.size(), written_first.size() + kLostRounds) << "A's files plus one data file per round of B";
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{-4, "DE", 1}, {-3, "DE", 1}, {-2, "DE", 1}, {-1, "DE", 1}, {1, "DE", 100},
                                          {3, "DE", 300}, {5, "DE", 555}, {7, "DE", 700}, {101, "DE", 1},
                                          {102, "DE", 1}, {103, "DE", 1}, {104, "DE", 1}}));
}

// A keyless delete: B's appended rows may match by metrics (2..4 spans 3) but none is 3.
TEST(KeyValidation, SerializableDeleteByFilterLandsWhenNoConcurrentRowMatches) {
  OrdersTable t("country", {{"write.delete.isolation-level", "serializable"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.commit.before_swap =
      OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{2, "DE", 2}, {4, "DE", 4}})).has_value()); });
  auto r = DeleteWhere(t.catalog(), t.id(), Where("order_id = 3"), a);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(t.Rows().size(), 5u);
  // The same delete refuses a concurrent row that does match.
  RowWriteOptions again;
  again.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{3, "DE", 33}})).has_value()); });
  auto lands = DeleteWhere(t.catalog(), t.id(), Where("order_id = 5"), again);
  ASSERT_TRUE(lands.has_value()) << "no row 3 is 5: " << lands.error().message;
  RowWriteOptions third;
  third.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{7, "DE", 77}})).has_value()); });
  auto matching = DeleteWhere(t.catalog(), t.id(), Where("order_id = 7"), third);
  ASSERT_FALSE(matching.has_value());
  EXPECT_NE(matching.error().message.find("rows (7) in ["), std::string::npos) << matching.error().message;
}

// Copy-on-write: B rewrote the file A rewrites (B deleted another key of it). A is redone on
// B's replacement file instead of refused.
TEST(KeyValidation, CopyOnWriteRebasesOntoTheReplacementOfItsInputFile) {
  OrdersTable t("country", {{"write.delete.mode", "copy-on-write"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value()); });
  auto r = DeleteWhere(t.catalog(), t.id(), Where("order_id = 5"), a);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rebases, 1);
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{3, "DE", 300}, {7, "DE", 700}}));
}

// An update reads the rows it rewrites: B deleting one of them is a real conflict.
TEST(KeyValidation, UpdateIsRefusedWhenAConcurrentCommitDeletedOneOfItsRows) {
  OrdersTable t("country", {{"write.delete.mode", "merge-on-read"}, {"write.update.mode", "copy-on-write"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(OddKeys())).has_value());
  auto b = t.Open();
  RowWriteOptions a;
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 3")).has_value()); });
  auto assignments = ParseAssignments("amount_cents = amount_cents + 1");
  ASSERT_TRUE(assignments.has_value());
  auto r = UpdateWhere(t.catalog(), t.id(), Where("order_id = 3"), *assignments, a);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("Found concurrent deletes of rows this write changes: rows (3) in ["),
            std::string::npos)
      << r.error().message;
}

TEST(KeyValidation, LastRowPerKeyKeepsTheLatestOfEachKeyInOrder) {
  auto schema = ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp");
  auto rows = LastRowPerKey(Batch({{1, "DE", 1}, {2, "DE", 2}, {1, "FR", 3}}), *schema, {"order_id"});
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->num_rows, 2u);
  EXPECT_EQ(rows->columns[0].longs, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(rows->columns[2].longs, (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(LastRowPerKey(Batch({{1, "DE", 1}}), *schema, {}).has_value()) << "no key and no identifier fields";
}

}  // namespace
}  // namespace floe
