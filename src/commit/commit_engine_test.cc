// The commit engine runs every kind of commit the same way. These tests pin down the behaviours
// that differed while snapshot commits, transactions and row writes each had their own loop.
#include "commit/commit_engine.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "meta/table_properties.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "commit/spec_update.h"
#include "commit/transaction.h"
#include "rows/table_test_util.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OrdersTable;
using txn_test::ReachableFiles;
using txn_test::Where;

// A transaction on `catalog` that adds a column and appends one row written with it.
Result<CommitReport> AddColumnAndAppend(Catalog& catalog, const TableIdentifier& id, const CommitOptions& options) {
  Transaction tx(catalog, id);
  FLOE_RETURN_IF_ERROR(tx.Begin());
  FLOE_RETURN_IF_ERROR(tx.UpdateSchema(SchemaUpdate().AddColumn("note", Type::String())));
  DataWriter writer(*catalog.io(), tx.staged());
  ColumnBatch rows(tx.staged().CurrentSchema());
  FLOE_RETURN_IF_ERROR(rows.AppendRow({Literal::Long(7), Literal::String("DE"), Literal::Long(70),
                                       *Literal::String("2026-01-01T10:00:00").CastTo(Type::Timestamp()),
                                       Literal::String("hello")}));
  FLOE_RETURN_IF_ERROR(writer.Write(rows));
  FLOE_ASSIGN_OR_RETURN(std::vector<DataFile> files, writer.Finish());
  tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(std::move(files))));
  return tx.Commit(options);
}

void ExpectEveryReachableFileExists(OrdersTable& t) {
  for (const auto& path : ReachableFiles(t.catalog(), t.Metadata()))
    EXPECT_TRUE(std::filesystem::exists(path)) << "missing " << path;
}

TEST(CommitEngine, ATransactionReplayedWithItsIdempotencyKeyWritesNothing) {
  OrdersTable t;
  CommitOptions options;
  options.idempotency_key = "nightly-2026-12-01";
  auto first = AddColumnAndAppend(t.catalog(), t.id(), options);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_FALSE(first->idempotent_replay);
  const TableMetadata after_first = t.Metadata();
  ASSERT_NE(after_first.CurrentSnapshot(), nullptr);
  EXPECT_EQ(after_first.CurrentSnapshot()->summary.at(props::kIdempotencyKeySummaryDefault), *options.idempotency_key);

  // The orchestrator runs the job again from another connection.
  auto b = t.Open();
  Transaction again(*b, t.id());
  ASSERT_TRUE(again.Begin().has_value());
  ASSERT_TRUE(again.UpdateProperties({{"owner", "nightly"}}).has_value());
  auto replayed = again.Commit(options);
  ASSERT_TRUE(replayed.has_value()) << replayed.error().message;
  EXPECT_TRUE(replayed->idempotent_replay);
  EXPECT_EQ(replayed->snapshot_id, first->snapshot_id);
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(m.snapshots.size(), 1u);
  EXPECT_EQ(m.metadata_log.size(), after_first.metadata_log.size());  // no new document at all
  EXPECT_EQ(m.properties.count("owner"), 0u);
  EXPECT_EQ(t.Rows().size(), 1u);
}

TEST(CommitEngine, ATransactionWhoseLostRequestDidNotLandIsRetried) {
  OrdersTable t;
  FaultInjectingCatalog faulty(t.Open());
  faulty.FailBeforeApplyWhen([](int call) { return call == 1; });
  auto committed = AddColumnAndAppend(faulty, t.id(), {});
  ASSERT_TRUE(committed.has_value()) << committed.error().message;
  EXPECT_EQ(committed->attempts, 2);
  EXPECT_FALSE(committed->reconciled_unknown);
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(m.snapshots.size(), 1u);
  EXPECT_NE(m.CurrentSchema().FindField("note"), nullptr);
  EXPECT_EQ(t.Rows().size(), 1u);
  ExpectEveryReachableFileExists(t);
}

TEST(CommitEngine, AMetadataChangeWhoseLostRequestDidNotLandIsRetried) {
  OrdersTable t;
  FaultInjectingCatalog faulty(t.Open());
  faulty.FailBeforeApplyWhen([](int call) { return call == 1; });
  auto changed = AddColumn(faulty, t.id(), "note", Type::String());
  ASSERT_TRUE(changed.has_value()) << changed.error().message;
  EXPECT_NE(t.Metadata().CurrentSchema().FindField("note"), nullptr);
}

// Every row write, each answered with an unexpected error after the catalog applied it: the
// commit may have landed, so none of its files may be deleted (invariant 5).
struct WriteCase {
  const char* name;
  const char* delete_mode;
  std::function<Result<RowWriteResult>(Catalog&, const TableIdentifier&)> write;
};

class UnexpectedErrorAfterTheSwap : public ::testing::TestWithParam<WriteCase> {};

TEST_P(UnexpectedErrorAfterTheSwap, NeverDeletesAFileTheTableReferences) {
  OrdersTable t("country", {{"write.delete.mode", GetParam().delete_mode}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}})).has_value());
  FaultInjectingCatalog faulty(t.Open());
  faulty.FailAfterApplyWhen([](int) { return true; });
  auto written = GetParam().write(faulty, t.id());
  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().kind, ErrorKind::kIOError) << written.error().message;
  EXPECT_EQ(faulty.commits_applied_but_unanswered(), 1);
  EXPECT_EQ(t.Metadata().snapshots.size(), 2u);  // it did land
  ExpectEveryReachableFileExists(t);
  EXPECT_FALSE(t.Rows().empty());  // every file a scan opens is there
}

INSTANTIATE_TEST_SUITE_P(
    RowWrites, UnexpectedErrorAfterTheSwap,
    ::testing::Values(
        WriteCase{"Append", "copy-on-write",
                  [](Catalog& c, const TableIdentifier& id) { return AppendBatch(c, id, Batch({{3, "FR", 3}})); }},
        WriteCase{"CopyOnWriteDelete", "copy-on-write",
                  [](Catalog& c, const TableIdentifier& id) { return DeleteWhere(c, id, Where("order_id = 1")); }},
        WriteCase{"MergeOnReadDelete", "merge-on-read",
                  [](Catalog& c, const TableIdentifier& id) { return DeleteWhere(c, id, Where("order_id = 1")); }},
        WriteCase{"CopyOnWriteUpdate", "copy-on-write",
                  [](Catalog& c, const TableIdentifier& id) {
                    auto sets = ParseAssignments("amount_cents = 9");
                    return UpdateWhere(c, id, Where("order_id = 2"), *sets);
                  }}),
    [](const ::testing::TestParamInfo<WriteCase>& info) { return std::string(info.param.name); });

// The certain failures still clean up: a refused delete leaves none of its new files behind.
TEST(CommitEngine, ARefusedCommitDeletesTheFilesItWrote) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}})).has_value());
  auto b = t.Open();
  RowWriteOptions options;
  std::vector<std::string> before_commit;
  options.commit.before_swap = txn_test::OnFirstAttempt([&] {
    ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{1, "DE", 5}})).has_value());  // may hold order 1
    for (const auto& entry : std::filesystem::recursive_directory_iterator(t.Metadata().location))
      if (entry.is_regular_file()) before_commit.push_back(entry.path().string());
  });
  auto refused = DeleteWhere(t.catalog(), t.id(), Where("order_id = 1"), options);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kValidationFailed) << refused.error().message;
  const std::set<std::string> reachable = ReachableFiles(t.catalog(), t.Metadata());
  for (const auto& path : before_commit) {
    if (path.ends_with(".parquet") && !reachable.count(path))
      EXPECT_FALSE(std::filesystem::exists(path)) << "left behind: " << path;
  }
  ExpectEveryReachableFileExists(t);
}

// Iceberg places manifests and manifest lists in the metadata folder, which
// write.metadata.path moves (TableOperations.metadataFileLocation); so does floe.
TEST(CommitEngine, ManifestsGoToWriteMetadataPath) {
  OrdersTable t;
  const std::string folder = t.dir() + "/elsewhere/meta";
  ASSERT_TRUE(UpdateProperties(t.catalog(), t.id(), {{"write.metadata.path", folder + "/"}}).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1")).has_value());
  const TableMetadata m = t.Metadata();
  int metadata_files = 0;
  for (const auto& path : ReachableFiles(t.catalog(), m)) {
    if (path.ends_with(".parquet")) continue;
    ++metadata_files;
    EXPECT_EQ(path.rfind(folder + "/", 0), 0u) << path;
    EXPECT_EQ(path.find("//", folder.size()), std::string::npos) << path;
  }
  EXPECT_GE(metadata_files, 4);  // two manifest lists and their manifests
  EXPECT_EQ(t.Rows().size(), 1u);
}

}  // namespace
}  // namespace floe
