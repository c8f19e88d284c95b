// DESIGN.md's conflict table, row by row: writer A starts from snapshot S; writer B commits at a
// chosen point inside A's commit (before A's swap, or before A's first attempt); the outcome, the
// error text and the rows afterwards are asserted.
#include <gtest/gtest.h>

#include "commit/commit_operation.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "commit/snapshot_refs.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

std::vector<Order> Initial() {
  return {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 300}, {4, "FR", 400}};
}

TEST(ConflictTable, AppendNeverConflicts_RetriedOnTopOfB) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{10, "DE", 1}})).has_value()); });
  auto a = AppendBatch(t.catalog(), t.id(), Batch({{20, "DE", 2}}), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->commit.attempts, 2);
  EXPECT_EQ(a->commit.conflicts, 1);
  // The retry reused A's manifest (its entries inherit snapshot id and sequence numbers) and
  // rewrote only the manifest list and the document; the lost attempt's are gone.
  int manifests = 0, lists = 0, documents = 0;
  for (const auto& entry : std::filesystem::directory_iterator(t.dir() + "/sales/orders/metadata")) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("snap-")) ++lists;
    else if (name.ends_with("-m0.avro")) ++manifests;
    else if (name.ends_with(".metadata.json")) ++documents;
  }
  EXPECT_EQ(manifests, 3) << "the initial batch's, B's and A's: one each";
  EXPECT_EQ(lists, 3) << "one per landed snapshot";
  EXPECT_EQ(documents, 4) << "the table's creation and one per landed snapshot";
  auto rows = t.Rows();
  EXPECT_EQ(rows.size(), 6u);
  EXPECT_TRUE(std::count(rows.begin(), rows.end(), Order{10, "DE", 1}));
  EXPECT_TRUE(std::count(rows.begin(), rows.end(), Order{20, "DE", 2}));
  // Sequence numbers strictly increase along main.
  auto m = t.Metadata();
  int64_t next = m.CurrentSnapshot()->sequence_number;
  for (const Snapshot* s : m.Ancestry(m.CurrentSnapshot()->snapshot_id)) {
    EXPECT_LE(s->sequence_number, next);
    next = s->sequence_number - 1;
  }
}

// B appends even German orders while A deletes `country = 'DE' AND order_id % 2 = 0`.
void DeleteWhileBAppendsMatching(const std::string& isolation, bool b_before_first_attempt,
                                 Result<RowWriteResult>* a_result, std::vector<Order>* rows_after) {
  OrdersTable t("country", {{"write.delete.isolation-level", isolation}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  auto b_appends = [&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{6, "DE", 600}, {8, "DE", 800}})).has_value()); };
  if (b_before_first_attempt) {
    a_options.after_files_written = b_appends;
  } else {
    a_options.commit.before_swap = OnFirstAttempt([&] { b_appends(); });
  }
  *a_result = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE' AND order_id % 2 = 0"), a_options);
  *rows_after = t.Rows();
}

TEST(ConflictTable, SerializableDeleteIsRefusedWhenBAppendedMatchingFile) {
  for (bool early : {false, true}) {
    Result<RowWriteResult> a = InvalidArgument("not run");
    std::vector<Order> rows;
    DeleteWhileBAppendsMatching("serializable", early, &a, &rows);
    ASSERT_FALSE(a.has_value());
    EXPECT_EQ(a.error().kind, ErrorKind::kValidationFailed);
    EXPECT_NE(a.error().message.find("Found conflicting files that can contain records matching"), std::string::npos)
        << a.error().message;
    EXPECT_NE(a.error().message.find("ref(name=\"country\") == \"DE\""), std::string::npos) << a.error().message;
    EXPECT_NE(a.error().message.find(".parquet"), std::string::npos) << "names B's file: " << a.error().message;
    // A changed nothing: all initial rows and B's rows are there.
    std::vector<Order> expected = Initial();
    expected.push_back({6, "DE", 600});
    expected.push_back({8, "DE", 800});
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(rows, expected);
  }
}

TEST(ConflictTable, SnapshotIsolationDeleteLandsAndBsRowsSurvive) {
  for (bool early : {false, true}) {
    Result<RowWriteResult> a = InvalidArgument("not run");
    std::vector<Order> rows;
    DeleteWhileBAppendsMatching("snapshot", early, &a, &rows);
    ASSERT_TRUE(a.has_value()) << a.error().message;
    EXPECT_EQ(a->rows_deleted, 1);  // order 2
    std::vector<Order> expected = {{1, "DE", 100}, {3, "FR", 300}, {4, "FR", 400}, {6, "DE", 600}, {8, "DE", 800}};
    EXPECT_EQ(rows, expected);
  }
}

TEST(ConflictTable, DeleteLandsWhenBAppendedOnlyFilesThatCannotMatch) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = [&](int attempt) {
    // Another partition: partition projection excludes it.
    if (attempt == 1) {
      ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{6, "FR", 600}})).has_value());
    }
  };
  auto a = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE' AND order_id % 2 = 0"), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->commit.attempts, 2);
  std::vector<Order> expected = {{1, "DE", 100}, {3, "FR", 300}, {4, "FR", 400}, {6, "FR", 600}};
  EXPECT_EQ(t.Rows(), expected);
}

TEST(ConflictTable, DeleteLandsWhenMetricsExcludeBsFile) {
  OrdersTable t("");  // unpartitioned: only column metrics can tell
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{1000, "DE", 5}})).has_value()); });
  auto a = DeleteWhere(t.catalog(), t.id(), Where("order_id < 3"), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}, {1000, "DE", 5}};
  EXPECT_EQ(t.Rows(), expected);
}

// B rewrote the file A rewrites. When B left A's rows alone, A is redone on B's replacement
// file (a rebase, key_validation.h); when B deleted A's row too, A is refused.
TEST(ConflictTable, DeleteIsRedoneWhenBRewroteAFileItRemovesButNotItsRows) {
  for (const std::string isolation : {"serializable", "snapshot"}) {
    OrdersTable t("country", {{"write.delete.isolation-level", isolation}});
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
    auto b = t.Open();
    RowWriteOptions a_options;
    a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value()); });
    auto a = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2"), a_options);
    ASSERT_TRUE(a.has_value()) << a.error().message;
    EXPECT_EQ(a->rebases, 1);
    // Both changes survive.
    std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
    EXPECT_EQ(t.Rows(), expected) << isolation;
  }
}

TEST(ConflictTable, DeleteIsRefusedWhenBRemovedAFileItRemovesAndDeletedItsRow) {
  for (const std::string isolation : {"serializable", "snapshot"}) {
    OrdersTable t("country", {{"write.delete.isolation-level", isolation}});
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
    auto b = t.Open();
    RowWriteOptions a_options;
    a_options.commit.before_swap =
        OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id <= 2")).has_value()); });
    auto a = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2"), a_options);
    ASSERT_FALSE(a.has_value());
    EXPECT_EQ(a.error().kind, ErrorKind::kValidationFailed);
    EXPECT_NE(a.error().message.find("Found concurrent deletes of rows this write changes: rows (2) in ["),
              std::string::npos)
        << a.error().message;
    // B's change survives; A's does not.
    std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
    EXPECT_EQ(t.Rows(), expected) << isolation;
  }
}

TEST(ConflictTable, UpdateFollowsTheSameRules) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
  auto assignments = ParseAssignments("amount_cents = amount_cents * 2");
  ASSERT_TRUE(assignments.has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{7, "FR", 700}})).has_value()); });
  auto a = UpdateWhere(t.catalog(), t.id(), Where("country = 'FR'"), *assignments, a_options);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kValidationFailed);
  // Without a concurrent writer the update lands.
  auto again = UpdateWhere(t.catalog(), t.id(), Where("country = 'FR'"), *assignments);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(again->rows_updated, 3);
  std::vector<Order> expected = {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 600}, {4, "FR", 800}, {7, "FR", 1400}};
  EXPECT_EQ(t.Rows(), expected);
}

// Each command reads its own property: a snapshot-isolated update lands over B's matching
// append (B's row keeps its value), while a delete-only setting leaves updates serializable.
TEST(ConflictTable, UpdateIsolationIsItsOwnProperty) {
  auto assignments = ParseAssignments("amount_cents = amount_cents * 2");
  ASSERT_TRUE(assignments.has_value());
  for (const auto& [property, lands] :
       std::vector<std::pair<std::string, bool>>{{"write.update.isolation-level", true},
                                                 {"write.delete.isolation-level", false}}) {
    OrdersTable t("country", {{property, "snapshot"}});
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
    auto b = t.Open();
    RowWriteOptions a_options;
    a_options.commit.before_swap =
        OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{7, "FR", 700}})).has_value()); });
    auto a = UpdateWhere(t.catalog(), t.id(), Where("country = 'FR'"), *assignments, a_options);
    ASSERT_EQ(a.has_value(), lands) << property << ": " << (a ? "landed" : a.error().message);
    std::vector<Order> expected = lands ? std::vector<Order>{{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 600},
                                                             {4, "FR", 800}, {7, "FR", 700}}
                                        : std::vector<Order>{{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 300},
                                                             {4, "FR", 400}, {7, "FR", 700}};
    EXPECT_EQ(t.Rows(), expected) << property;
  }
}

TEST(ConflictTable, AnUnknownIsolationLevelIsRefusedNamingThePropertyAndChangesNothing) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(Initial())).has_value());
  // floe refuses the value when it is set through it; another engine may not.
  txn_test::SetPropertyUnchecked(t, "write.delete.isolation-level", "read-committed");
  const std::string before = t.catalog().LoadTable(t.id())->metadata_location;
  auto a = DeleteWhere(t.catalog(), t.id(), Where("country = 'FR'"));
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(a.error().message.find("write.delete.isolation-level is 'read-committed'"), std::string::npos)
      << a.error().message;
  EXPECT_EQ(t.catalog().LoadTable(t.id())->metadata_location, before);
  EXPECT_EQ(t.Rows(), Initial());
}

// The files of the table's current snapshot, by reading its manifests.
std::vector<DataFile> LiveDataFiles(OrdersTable& t) {
  auto m = t.Metadata();
  ScanOptions options;
  auto tasks = PlanFiles(*t.catalog().io(), m, options);
  EXPECT_TRUE(tasks.has_value());
  std::vector<DataFile> out;
  for (const auto& task : *tasks) out.push_back(task.file);
  return out;
}

TEST(ConflictTable, RewriteIsRefusedWhenBRemovedOneOfItsInputs) {
  OrdersTable t("");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());
  auto inputs = LiveDataFiles(t);
  ASSERT_EQ(inputs.size(), 2u);
  const int64_t start = t.Metadata().CurrentSnapshot()->snapshot_id;
  // A replaces both inputs (the rule under test is the validation, not the rewritten rows).
  auto b = t.Open();
  ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value());  // B removes an input
  FilesOperation rewrite(RewriteFiles(inputs, {}, {}, start));
  auto a = CommitOperation(t.catalog(), t.id(), rewrite);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(a.error().message.find("Missing required files to delete"), std::string::npos) << a.error().message;
  std::vector<Order> expected = {{2, "DE", 2}};
  EXPECT_EQ(t.Rows(), expected);
}

TEST(ConflictTable, RewriteLandsOnTopOfAnAppend) {
  OrdersTable t("");
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());
  auto inputs = LiveDataFiles(t);
  const int64_t start = t.Metadata().CurrentSnapshot()->snapshot_id;
  auto b = t.Open();
  ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{3, "FR", 3}})).has_value());
  // A rewrite that replaces the two inputs with nothing but keeps B's file: validation passes
  // (an append never touches a rewrite's inputs), so the commit lands.
  FilesOperation rewrite(RewriteFiles(inputs, {}, {}, start));
  auto a = CommitOperation(t.catalog(), t.id(), rewrite);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(t.Metadata().CurrentSnapshot()->operation(), "replace");
  std::vector<Order> expected = {{3, "FR", 3}};
  EXPECT_EQ(t.Rows(), expected);
}

// A delete that keeps losing the race (B lands an order in another partition before every swap
// of A's: no conflict, only a lost swap) spends its retries and gives up.
TEST(ConflictTable, RetriesRunOutWithAClearError) {
  OrdersTable t("country", {{"commit.retry.num-retries", "2"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  auto b = t.Open();
  int64_t next_id = 100;
  RowWriteOptions a_options;
  a_options.commit.before_swap = [&](int) {
    ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{next_id++, "FR", 1}})).has_value());
  };
  auto a = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE'"), a_options);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(a.error().message.find("gave up after 3 attempts"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("commit.retry.num-retries=2"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("kept conflicting"), std::string::npos) << a.error().message;
  EXPECT_EQ(t.Rows().size(), 4u);  // the German order and B's three
}

// An append never conflicts: a race it loses is re-applied on the new head without spending
// commit.retry.num-retries (only total-timeout-ms bounds it). B wins the first 6 swaps of A's.
TEST(ConflictTable, AnAppendThatLosesRacesDoesNotSpendItsRetries) {
  OrdersTable t("country", {{"commit.retry.num-retries", "2"},
                            {"commit.retry.min-wait-ms", "1"},
                            {"commit.retry.max-wait-ms", "5"}});
  auto b = t.Open();
  int64_t next_id = 100;
  RowWriteOptions a_options;
  a_options.commit.before_swap = [&](int attempt) {
    if (attempt <= 6) ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{next_id++, "FR", 1}})).has_value());
  };
  auto a = AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}}), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->commit.attempts, 7);
  EXPECT_EQ(a->commit.conflicts, 6);
  EXPECT_EQ(t.Rows().size(), 7u);  // B's six and A's one, once
}

TEST(Idempotency, ARerunOfACommittedBatchWritesNothing) {
  OrdersTable t;
  RowWriteOptions options;
  options.commit.idempotency_key = "batch-2026-01-01";
  auto first = AppendBatch(t.catalog(), t.id(), Batch(Initial()), options);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_FALSE(first->commit.idempotent_replay);
  auto files_before = std::distance(std::filesystem::recursive_directory_iterator(t.dir()),
                                    std::filesystem::recursive_directory_iterator());
  auto second = AppendBatch(t.catalog(), t.id(), Batch(Initial()), options);
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_TRUE(second->commit.idempotent_replay);
  EXPECT_EQ(second->commit.snapshot_id, first->commit.snapshot_id);
  auto files_after = std::distance(std::filesystem::recursive_directory_iterator(t.dir()),
                                   std::filesystem::recursive_directory_iterator());
  EXPECT_EQ(files_before, files_after);
  EXPECT_EQ(t.Rows().size(), Initial().size());
  EXPECT_EQ(t.Metadata().snapshots.size(), 1u);
}

// The key's summary property is the table's to choose (an orchestrator's own, e.g. a batch id
// other engines also write); the key counts anywhere in the target branch's ancestry, and only
// there.
TEST(Idempotency, TheKeysPropertyIsConfigurableAndOnlyTheBranchsHistoryCounts) {
  OrdersTable t("country", {{"floe.commit.idempotency-key-property", "batch-id"}});
  RowWriteOptions keyed;
  keyed.commit.idempotency_key = "run-17";
  auto first = AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}}), keyed);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_EQ(t.Metadata().CurrentSnapshot()->summary.at("batch-id"), "run-17");
  EXPECT_FALSE(t.Metadata().CurrentSnapshot()->summary.count("floe.idempotency-key"));
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());  // not the head any more

  auto rerun = AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}}), keyed);
  ASSERT_TRUE(rerun.has_value()) << rerun.error().message;
  EXPECT_TRUE(rerun->commit.idempotent_replay);
  EXPECT_EQ(rerun->commit.snapshot_id, first->commit.snapshot_id);

  // A snapshot whose summary another writer gave the same property counts too.
  RowWriteOptions other_engine;
  other_engine.commit.summary["batch-id"] = "run-18";
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "FR", 3}}), other_engine).has_value());
  keyed.commit.idempotency_key = "run-18";
  auto replay = AppendBatch(t.catalog(), t.id(), Batch({{3, "FR", 3}}), keyed);
  ASSERT_TRUE(replay.has_value());
  EXPECT_TRUE(replay->commit.idempotent_replay);

  // On another branch the key of main's history does not count.
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "audit", first->commit.snapshot_id).has_value());
  RowWriteOptions on_branch = keyed;
  on_branch.commit.branch = "audit";
  on_branch.commit.idempotency_key = "run-18";
  auto branch_write = AppendBatch(t.catalog(), t.id(), Batch({{4, "IT", 4}}), on_branch);
  ASSERT_TRUE(branch_write.has_value()) << branch_write.error().message;
  EXPECT_FALSE(branch_write->commit.idempotent_replay);
  const std::vector<Order> main_rows = {{1, "DE", 1}, {2, "DE", 2}, {3, "FR", 3}};
  EXPECT_EQ(t.Rows(), main_rows);
}

}  // namespace
}  // namespace floe
