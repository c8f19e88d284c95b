// Commits whose swap answers are lost: the writer reloads, finds its snapshot and reports
// success; nothing is committed twice and no file a snapshot references is deleted.
#include <filesystem>

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OrdersTable;
using txn_test::Where;

using txn_test::ReachableFiles;

TEST(LostAnswer, AppliedCommitsWithLostAnswersLandOnceAndKeepTheirFiles) {
  OrdersTable t;
  FaultInjectingCatalog faulty(t.Open());
  faulty.DropAnswerWhen([](int call) { return call % 2 == 1; });  // every other answer is lost
  for (int i = 0; i < 6; ++i) {
    auto r = AppendBatch(faulty, t.id(), Batch({{i, "DE", i}}));
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(r->commit.reconciled_unknown, i % 2 == 0);
    EXPECT_EQ(r->commit.attempts, 1);
  }
  EXPECT_EQ(faulty.commits_applied_but_unanswered(), 3);
  auto m = t.Metadata();
  EXPECT_EQ(m.snapshots.size(), 6u);  // no duplicate snapshot
  EXPECT_EQ(t.Rows().size(), 6u);     // no duplicate or missing row
  for (const auto& path : ReachableFiles(t.catalog(), m))
    EXPECT_TRUE(std::filesystem::exists(path)) << "missing " << path;
}

TEST(LostAnswer, ACopyOnWriteDeleteWithALostAnswerIsNotRedone) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}})).has_value());
  FaultInjectingCatalog faulty(t.Open());
  faulty.DropAnswerWhen([](int) { return true; });
  auto r = DeleteWhere(faulty, t.id(), Where("order_id = 1"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->commit.reconciled_unknown);
  auto m = t.Metadata();
  EXPECT_EQ(m.snapshots.size(), 2u);
  ASSERT_EQ(t.Rows().size(), 1u);
  EXPECT_EQ(t.Rows()[0].order_id, 2);
  for (const auto& path : ReachableFiles(t.catalog(), m))
    EXPECT_TRUE(std::filesystem::exists(path)) << "missing " << path;
}

TEST(LostAnswer, ALostRequestIsRetriedAfterTheReloadShowsItDidNotLand) {
  OrdersTable t;
  FaultInjectingCatalog faulty(t.Open());
  faulty.FailBeforeApplyWhen([](int call) { return call == 1; });
  auto r = AppendBatch(faulty, t.id(), Batch({{1, "DE", 1}}));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->commit.attempts, 2);
  EXPECT_FALSE(r->commit.reconciled_unknown);
  auto m = t.Metadata();
  EXPECT_EQ(m.snapshots.size(), 1u);
  EXPECT_EQ(t.Rows().size(), 1u);
  for (const auto& path : ReachableFiles(t.catalog(), m))
    EXPECT_TRUE(std::filesystem::exists(path)) << "missing " << path;
}

TEST(LostAnswer, AnIdempotencyKeyMakesARetryAfterALostAnswerSafe) {
  OrdersTable t;
  FaultInjectingCatalog faulty(t.Open());
  faulty.DropAnswerWhen([](int) { return true; });
  RowWriteOptions options;
  options.commit.idempotency_key = "job-7";
  ASSERT_TRUE(AppendBatch(faulty, t.id(), Batch({{1, "DE", 1}}), options).has_value());
  // The orchestrator did not trust the first run and runs the batch again.
  auto again = AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}}), options);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->commit.idempotent_replay);
  EXPECT_EQ(t.Rows().size(), 1u);
}

}  // namespace
}  // namespace floe
