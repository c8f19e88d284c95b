// Commits to several tables at once run through the one commit engine: both tables change or
// neither does, a race on either retries the whole commit, a lost answer is reconciled in every
// table, and a refusal in one table leaves the other untouched.
#include <filesystem>

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "commit/commit_engine.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "commit/transaction.h"
#include "rows/table_test_util.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::ReachableFiles;

const TableIdentifier kReturns{{"sales"}, "returns"};

// A second table beside the orders table, with the same columns, in the same catalog.
void CreateReturns(Catalog& catalog) {
  CreateTableRequest request;
  request.schema = *ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp");
  request.properties = {{"commit.retry.min-wait-ms", "1"}, {"commit.retry.max-wait-ms", "20"}};
  auto created = catalog.CreateTable(kReturns, request);
  ASSERT_TRUE(created.has_value()) << created.error().message;
}

// A transaction on `id` appending `orders`.
std::unique_ptr<Transaction> Appending(Catalog& catalog, const TableIdentifier& id, const std::vector<Order>& orders) {
  auto tx = std::make_unique<Transaction>(catalog, id);
  EXPECT_TRUE(tx->Begin().has_value());
  DataWriter writer(*catalog.io(), tx->staged());
  EXPECT_TRUE(writer.Write(Batch(orders)).has_value());
  auto files = writer.Finish();
  EXPECT_TRUE(files.has_value());
  tx->AddOperation(std::make_unique<FilesOperation>(FastAppend(std::move(*files))));
  return tx;
}

size_t RowCount(Catalog& catalog, const TableIdentifier& id) {
  auto table = catalog.LoadTable(id);
  EXPECT_TRUE(table.has_value());
  auto batch = ReadTable(*catalog.io(), table->metadata, {});
  EXPECT_TRUE(batch.has_value()) << (batch ? "" : batch.error().message);
  return batch ? batch->num_rows : 0;
}

size_t SnapshotCount(Catalog& catalog, const TableIdentifier& id) {
  auto table = catalog.LoadTable(id);
  EXPECT_TRUE(table.has_value());
  return table ? table->metadata.snapshots.size() : 0;
}

TEST(MultiTableCommit, BothTablesLandAndARaceOnEitherRetriesTheWholeCommit) {
  OrdersTable t;
  CreateReturns(t.catalog());
  auto other = t.Open();
  auto orders = Appending(t.catalog(), t.id(), {{1, "DE", 10}, {2, "FR", 20}});
  auto returns = Appending(t.catalog(), kReturns, {{1, "DE", -10}});
  CommitOptions options;
  // Another writer appends to the second table inside the first attempt, before its swap.
  options.before_swap = txn_test::OnFirstAttempt([&] {
    ASSERT_TRUE(AppendBatch(*other, kReturns, Batch({{9, "NL", -90}})).has_value());
  });
  auto reports = CommitTransactions(t.catalog(), {orders.get(), returns.get()}, options);
  ASSERT_TRUE(reports.has_value()) << reports.error().message;
  ASSERT_EQ(reports->size(), 2u);
  EXPECT_EQ((*reports)[0].attempts, 2);
  EXPECT_EQ((*reports)[0].conflicts, 1);
  EXPECT_EQ(t.Rows().size(), 2u);
  EXPECT_EQ(RowCount(t.catalog(), kReturns), 2u);  // the other writer's row and ours
  // Each report names its own table's new snapshot, which is its table's current one.
  auto orders_now = t.catalog().LoadTable(t.id());
  auto returns_now = t.catalog().LoadTable(kReturns);
  ASSERT_TRUE(orders_now && returns_now);
  EXPECT_EQ((*reports)[0].snapshot_id, orders_now->metadata.CurrentSnapshot()->snapshot_id);
  EXPECT_EQ((*reports)[1].snapshot_id, returns_now->metadata.CurrentSnapshot()->snapshot_id);
  EXPECT_EQ((*reports)[1].metadata_location, returns_now->metadata_location);
  EXPECT_EQ(SnapshotCount(t.catalog(), kReturns), 2u);
  // Committed is committed: a second commit of the same transactions is refused.
  auto again = CommitTransactions(t.catalog(), {orders.get(), returns.get()});
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind, ErrorKind::kInvalidArgument);
}

TEST(MultiTableCommit, ARefusalInOneTableLandsNeitherAndLeavesNoFilesOfEither) {
  OrdersTable t;
  CreateReturns(t.catalog());
  auto other = t.Open();
  auto orders = Appending(t.catalog(), t.id(), {{1, "DE", 10}});
  Transaction evolve(t.catalog(), kReturns);
  ASSERT_TRUE(evolve.Begin().has_value());
  ASSERT_TRUE(evolve.UpdateSchema(SchemaUpdate().AddColumn("reason", Type::String())).has_value());
  // Another writer changes the second table's schema first: the planned change is contradicted.
  Transaction first(*other, kReturns);
  ASSERT_TRUE(first.Begin().has_value());
  ASSERT_TRUE(first.UpdateSchema(SchemaUpdate().AddColumn("channel", Type::String())).has_value());
  ASSERT_TRUE(first.Commit().has_value());
  const std::string orders_metadata = t.Metadata().location + "/metadata";
  std::set<std::string> before;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(orders_metadata))
    before.insert(entry.path().string());

  auto refused = CommitTransactions(t.catalog(), {orders.get(), &evolve});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict) << refused.error().message;
  EXPECT_TRUE(t.Rows().empty());  // the orders table did not change either
  EXPECT_TRUE(t.Metadata().snapshots.empty());
  for (const auto& entry : std::filesystem::recursive_directory_iterator(orders_metadata))
    EXPECT_TRUE(before.count(entry.path().string())) << "left behind: " << entry.path();
}

TEST(MultiTableCommit, ALostAnswerIsReconciledInEveryTable) {
  OrdersTable t;
  CreateReturns(t.catalog());
  FaultInjectingCatalog faulty(t.Open());
  faulty.DropAnswerWhen([](int call) { return call == 1; });
  auto orders = Appending(faulty, t.id(), {{1, "DE", 10}});
  auto returns = Appending(faulty, kReturns, {{1, "DE", -10}});
  auto reports = CommitTransactions(faulty, {orders.get(), returns.get()});
  ASSERT_TRUE(reports.has_value()) << reports.error().message;
  EXPECT_EQ(faulty.commits_applied_but_unanswered(), 1);
  EXPECT_TRUE((*reports)[0].reconciled_unknown);
  EXPECT_EQ((*reports)[0].attempts, 1);
  EXPECT_EQ(SnapshotCount(t.catalog(), t.id()), 1u);  // landed once, not twice
  EXPECT_EQ(SnapshotCount(t.catalog(), kReturns), 1u);
  for (const auto& path : ReachableFiles(t.catalog(), t.Metadata()))
    EXPECT_TRUE(std::filesystem::exists(path)) << "missing " << path;
}

TEST(MultiTableCommit, ARequestLostOnItsWayIsRetriedInEveryTable) {
  OrdersTable t;
  CreateReturns(t.catalog());
  FaultInjectingCatalog faulty(t.Open());
  faulty.FailBeforeApplyWhen([](int call) { return call == 1; });
  auto orders = Appending(faulty, t.id(), {{1, "DE", 10}});
  auto returns = Appending(faulty, kReturns, {{1, "DE", -10}});
  auto reports = CommitTransactions(faulty, {orders.get(), returns.get()});
  ASSERT_TRUE(reports.has_value()) << reports.error().message;
  EXPECT_EQ((*reports)[1].attempts, 2);
  EXPECT_FALSE((*reports)[1].reconciled_unknown);
  EXPECT_EQ(RowCount(t.catalog(), t.id()), 1u);
  EXPECT_EQ(RowCount(t.catalog(), kReturns), 1u);
}

TEST(MultiTableCommit, AnIdempotencyKeyReplayedOnBothTablesWritesNothing) {
  OrdersTable t;
  CreateReturns(t.catalog());
  CommitOptions options;
  options.idempotency_key = "close-of-day-2026-12-01";
  auto orders = Appending(t.catalog(), t.id(), {{1, "DE", 10}});
  auto returns = Appending(t.catalog(), kReturns, {{1, "DE", -10}});
  auto first = CommitTransactions(t.catalog(), {orders.get(), returns.get()}, options);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  // The job runs again.
  auto orders_again = Appending(t.catalog(), t.id(), {{1, "DE", 10}});
  auto returns_again = Appending(t.catalog(), kReturns, {{1, "DE", -10}});
  auto replayed = CommitTransactions(t.catalog(), {orders_again.get(), returns_again.get()}, options);
  ASSERT_TRUE(replayed.has_value()) << replayed.error().message;
  EXPECT_TRUE((*replayed)[0].idempotent_replay);
  EXPECT_EQ((*replayed)[0].snapshot_id, (*first)[0].snapshot_id);
  EXPECT_EQ((*replayed)[1].snapshot_id, (*first)[1].snapshot_id);
  EXPECT_EQ(RowCount(t.catalog(), t.id()), 1u);
  EXPECT_EQ(RowCount(t.catalog(), kReturns), 1u);
}

TEST(MultiTableCommit, ATableNamedTwiceOrAStorageCatalogIsRefusedAndNothingLands) {
  OrdersTable t;
  auto one = Appending(t.catalog(), t.id(), {{1, "DE", 10}});
  auto two = Appending(t.catalog(), t.id(), {{2, "FR", 20}});
  auto twice = CommitTransactions(t.catalog(), {one.get(), two.get()});
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().kind, ErrorKind::kInvalidArgument) << twice.error().message;
  EXPECT_TRUE(t.Rows().empty());

  // A storage-only catalog swaps one table's pointer at a time: several are NotSupported.
  const std::string folder = t.dir() + "/storage";
  auto storage = OpenCatalog("file://" + folder);
  ASSERT_TRUE(storage.has_value()) << storage.error().message;
  ASSERT_TRUE((*storage)->CreateNamespace({"sales"}, {}).has_value());
  CreateReturns(**storage);
  CreateTableRequest request;
  request.schema = *ParseSchemaText("order_id long not null, country string, amount_cents long, ts timestamp");
  ASSERT_TRUE((*storage)->CreateTable(t.id(), request).has_value());
  auto orders = Appending(**storage, t.id(), {{1, "DE", 10}});
  auto returns = Appending(**storage, kReturns, {{1, "DE", -10}});
  auto refused = CommitTransactions(**storage, {orders.get(), returns.get()});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kNotSupported) << refused.error().message;
  EXPECT_NE(refused.error().message.find("cannot commit 2 tables atomically"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(SnapshotCount(**storage, t.id()), 0u);
  EXPECT_EQ(SnapshotCount(**storage, kReturns), 0u);
}

}  // namespace
}  // namespace floe
