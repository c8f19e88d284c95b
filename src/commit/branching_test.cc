// Branches, tags, rollback, fast-forward and cherry-pick; writes that target a branch and
// validation that follows the branch's history; transactions.
#include <gtest/gtest.h>

#include "commit/operations.h"
#include "rows/overwrite_writes.h"
#include "rows/row_writes.h"
#include "commit/snapshot_refs.h"
#include "commit/transaction.h"
#include "rows/table_test_util.h"
#include "write/data_writer.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

std::vector<Order> RowsOf(OrdersTable& t, const std::string& ref) {
  return t.Rows(t.Metadata().SnapshotForRef(ref)->snapshot_id);
}

RowWriteOptions On(const std::string& branch) {
  RowWriteOptions o;
  o.commit.branch = branch;
  return o;
}

TEST(Branches, WritesToABranchLeaveMainUntouched) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}})).has_value());
  const int64_t main_before = t.Metadata().CurrentSnapshot()->snapshot_id;
  RefRetention retention;
  retention.min_snapshots_to_keep = 3;
  retention.max_snapshot_age_ms = 86400000;
  auto created = CreateBranch(t.catalog(), t.id(), "dev", std::nullopt, retention);
  ASSERT_TRUE(created.has_value()) << created.error().message;
  EXPECT_EQ(created->metadata.refs.at("dev").min_snapshots_to_keep, 3);
  EXPECT_EQ(created->metadata.refs.at("dev").max_snapshot_age_ms, 86400000);

  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "NL", 3}}), On("dev")).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1"), On("dev")).has_value());
  EXPECT_EQ(t.Metadata().CurrentSnapshot()->snapshot_id, main_before);
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}, {2, "FR", 2}}));
  EXPECT_EQ(RowsOf(t, "dev"), (std::vector<Order>{{2, "FR", 2}, {3, "NL", 3}}));
  EXPECT_EQ(t.Metadata().refs.at("dev").min_snapshots_to_keep, 3);  // retention survives commits

  // Fast-forward main to dev: main now has exactly dev's rows.
  auto ff = FastForward(t.catalog(), t.id(), kMainBranch, "dev");
  ASSERT_TRUE(ff.has_value()) << ff.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{2, "FR", 2}, {3, "NL", 3}}));
  // Diverged histories cannot fast-forward.
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{4, "DE", 4}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{5, "DE", 5}}), On("dev")).has_value());
  auto diverged = FastForward(t.catalog(), t.id(), kMainBranch, "dev");
  ASSERT_FALSE(diverged.has_value());
  EXPECT_NE(diverged.error().message.find("is not an ancestor"), std::string::npos);
}

TEST(Branches, ValidationFollowsTheBranchHistory) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}})).has_value());
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "dev").has_value());
  auto b = t.Open();
  // B appends a matching German file to main: a serializable delete on dev does not care.
  RowWriteOptions a = On("dev");
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{6, "DE", 6}})).has_value()); });
  auto landed = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE' AND order_id = 1"), a);
  ASSERT_TRUE(landed.has_value()) << landed.error().message;
  // The same on dev itself conflicts.
  a.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{8, "DE", 8}}), On("dev")).has_value()); });
  auto refused = DeleteWhere(t.catalog(), t.id(), Where("country = 'DE'"), a);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("Found conflicting files"), std::string::npos) << refused.error().message;
  EXPECT_EQ(RowsOf(t, "dev"), (std::vector<Order>{{2, "DE", 2}, {8, "DE", 8}}));
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}, {2, "DE", 2}, {6, "DE", 6}}));
}

TEST(Branches, CherryPickAppliesExactlyTheSnapshotsChanges) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "audit").has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "FR", 2}}), On("audit")).has_value());
  const int64_t picked_append = t.Metadata().SnapshotForRef("audit")->snapshot_id;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "NL", 3}}), On("audit")).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{9, "PL", 9}})).has_value());

  auto picked = CherryPick(t.catalog(), t.id(), picked_append);
  ASSERT_TRUE(picked.has_value()) << picked.error().message;
  const TableMetadata head_table = t.Metadata();
  const Snapshot* head = head_table.CurrentSnapshot();
  EXPECT_EQ(head->summary.at("source-snapshot-id"), std::to_string(picked_append));
  EXPECT_EQ(head->operation(), "append");
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}, {2, "FR", 2}, {9, "PL", 9}}));
  EXPECT_EQ(RowsOf(t, "audit"), (std::vector<Order>{{1, "DE", 1}, {2, "FR", 2}, {3, "NL", 3}}));

  auto again = CherryPick(t.catalog(), t.id(), picked_append);
  ASSERT_FALSE(again.has_value());
  EXPECT_NE(again.error().message.find("already applied it"), std::string::npos) << again.error().message;

  // An overwrite on audit that removes a file main no longer has does not apply.
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1")).has_value());  // main rewrites/removes file 1
  ASSERT_TRUE(UpdateWhere(t.catalog(), t.id(), Where("order_id = 1"), *ParseAssignments("amount_cents = 10"),
                          On("audit"))
                  .has_value());
  const int64_t overwrite = t.Metadata().SnapshotForRef("audit")->snapshot_id;
  auto refused = CherryPick(t.catalog(), t.id(), overwrite);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(refused.error().message.find("Missing required files to delete"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{2, "FR", 2}, {9, "PL", 9}}));
}

TEST(Refs, TagsRollbackAndErrors) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  const Snapshot first = *t.Metadata().CurrentSnapshot();
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());
  const int64_t second = t.Metadata().CurrentSnapshot()->snapshot_id;

  auto tag = CreateTag(t.catalog(), t.id(), "v1", first.snapshot_id, 3600000);
  ASSERT_TRUE(tag.has_value()) << tag.error().message;
  EXPECT_EQ(tag->metadata.refs.at("v1").type, RefType::kTag);
  EXPECT_EQ(tag->metadata.refs.at("v1").max_ref_age_ms, 3600000);
  EXPECT_EQ(CreateTag(t.catalog(), t.id(), "v1").error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(CreateBranch(t.catalog(), t.id(), "b", 12345).error().kind, ErrorKind::kNotFound);
  // Writes to a tag are refused.
  auto to_tag = AppendBatch(t.catalog(), t.id(), Batch({{7, "DE", 7}}), On("v1"));
  ASSERT_FALSE(to_tag.has_value());
  EXPECT_NE(to_tag.error().message.find("is a tag"), std::string::npos);
  ASSERT_TRUE(ReplaceTag(t.catalog(), t.id(), "v1", second).has_value());
  EXPECT_EQ(t.Metadata().refs.at("v1").snapshot_id, second);
  EXPECT_EQ(t.Metadata().refs.at("v1").max_ref_age_ms, 3600000);
  EXPECT_EQ(DropBranch(t.catalog(), t.id(), "v1").error().kind, ErrorKind::kInvalidArgument);
  ASSERT_TRUE(DropTag(t.catalog(), t.id(), "v1").has_value());
  EXPECT_FALSE(t.Metadata().refs.count("v1"));
  EXPECT_EQ(DropBranch(t.catalog(), t.id(), "main").error().kind, ErrorKind::kInvalidArgument);

  // Rollback to an ancestor, then "set current" forward again (not an ancestor any more).
  ASSERT_TRUE(RollbackTo(t.catalog(), t.id(), first.snapshot_id).has_value());
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}}));
  auto not_ancestor = RollbackTo(t.catalog(), t.id(), second);
  ASSERT_FALSE(not_ancestor.has_value());
  EXPECT_NE(not_ancestor.error().message.find("not an ancestor"), std::string::npos);
  ASSERT_TRUE(SetCurrentSnapshot(t.catalog(), t.id(), second).has_value());
  EXPECT_EQ(t.Rows().size(), 2u);
  ASSERT_TRUE(RollbackToTime(t.catalog(), t.id(), first.timestamp_ms).has_value());
  EXPECT_EQ(t.Metadata().CurrentSnapshot()->snapshot_id, first.snapshot_id);
  EXPECT_EQ(RollbackToTime(t.catalog(), t.id(), first.timestamp_ms - 100000).error().kind, ErrorKind::kNotFound);
}

TEST(Refs, ConcurrentRefMovesDoNotOverwriteEachOther) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  const int64_t first = t.Metadata().CurrentSnapshot()->snapshot_id;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{2, "DE", 2}})).has_value());
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "dev").has_value());
  // Plan a rollback of dev, let another writer append to dev, then commit: refused.
  auto table = t.catalog().LoadTable(t.id());
  ASSERT_TRUE(table.has_value());
  MetadataChange change;
  change.what = "rollback";
  change.requirements.push_back(AssertRefSnapshotId{"dev", table->metadata.refs.at("dev").snapshot_id});
  SnapshotRef ref = table->metadata.refs.at("dev");
  ref.snapshot_id = first;
  change.updates.push_back(SetSnapshotRef{"dev", ref});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "DE", 3}}), On("dev")).has_value());
  auto refused = CommitMetadataChange(t.catalog(), t.id(), change);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("Requirement failed: branch dev has changed"), std::string::npos)
      << refused.error().message;
}

TEST(Transactions, SchemaChangeAndAppendInOneCommit) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  const size_t metadata_versions = t.Metadata().metadata_log.size();
  Transaction tx(t.catalog(), t.id());
  ASSERT_TRUE(tx.Begin().has_value());
  ASSERT_TRUE(tx.UpdateSchema(SchemaUpdate().AddColumn("note", Type::String())).has_value());
  // Rows with the new column, written against the staged schema.
  ColumnBatch rows(tx.staged().CurrentSchema());
  ASSERT_TRUE(rows.AppendRow({Literal::Long(2), Literal::String("FR"), Literal::Long(2),
                              *Literal::String("2026-01-01T10:00:00").CastTo(Type::Timestamp()),
                              Literal::String("hello")})
                  .has_value());
  DataWriter writer(*t.catalog().io(), tx.staged());
  ASSERT_TRUE(writer.Write(rows).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value());
  tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(*files)));
  // Another writer appends meanwhile: the transaction is retried as a whole and lands.
  auto b = t.Open();
  CommitOptions options;
  options.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{3, "NL", 3}})).has_value()); });
  auto committed = tx.Commit(options);
  ASSERT_TRUE(committed.has_value()) << committed.error().message;
  EXPECT_EQ(committed->attempts, 2);
  auto m = t.Metadata();
  EXPECT_EQ(m.metadata_log.size(), metadata_versions + 2);  // B's commit and ours: one version each
  EXPECT_EQ(m.CurrentSnapshot()->schema_id, m.current_schema_id);
  ScanOptions scan;
  scan.filter_text = "note = 'hello'";
  auto hello = ReadTable(*t.catalog().io(), m, scan);
  ASSERT_TRUE(hello.has_value()) << hello.error().message;
  EXPECT_EQ(hello->num_rows, 1u);
  EXPECT_EQ(t.Rows().size(), 3u);
}

TEST(Transactions, RefusedWhenAnotherSchemaChangeLandedFirst) {
  OrdersTable t;
  Transaction tx(t.catalog(), t.id());
  ASSERT_TRUE(tx.UpdateSchema(SchemaUpdate().AddColumn("note", Type::String())).has_value());
  DataWriter writer(*t.catalog().io(), tx.staged());
  ASSERT_TRUE(writer.Write(Batch({{1, "DE", 1}})).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value());
  tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(*files)));
  auto b = t.Open();
  ASSERT_TRUE(AddColumn(*b, t.id(), "channel", Type::String()).has_value());
  auto refused = tx.Commit();
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(refused.error().message.find("Requirement failed: current schema changed"), std::string::npos)
      << refused.error().message;
  auto m = t.Metadata();
  EXPECT_FALSE(m.CurrentSchema().FindField("note"));
  EXPECT_FALSE(m.CurrentSnapshot());  // the append did not land either
}

TEST(Transactions, DeleteAndAppendTogetherOrNotAtAll) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}})).has_value());
  auto start = t.Metadata();
  Transaction tx(t.catalog(), t.id());
  ASSERT_TRUE(tx.Begin().has_value());
  tx.AddOperation(std::make_unique<FilesOperation>(
      OverwriteByFilter(Where("country = 'DE'"), {}, start.CurrentSnapshot()->snapshot_id, IsolationLevel::kSerializable)));
  DataWriter writer(*t.catalog().io(), tx.staged());
  ASSERT_TRUE(writer.Write(Batch({{10, "DE", 10}})).has_value());
  tx.AddOperation(std::make_unique<FilesOperation>(FastAppend(*writer.Finish())));
  auto first = tx.Commit();
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{2, "FR", 2}, {10, "DE", 10}}));
  auto m = t.Metadata();
  EXPECT_EQ(m.CurrentSnapshot()->operation(), "append");
  EXPECT_EQ(m.SnapshotById(*m.CurrentSnapshot()->parent_snapshot_id)->operation(), "delete");

  // A transaction whose validation fails commits nothing, not even its other parts.
  const std::string location = t.catalog().LoadTable(t.id())->metadata_location;
  Transaction bad(t.catalog(), t.id());
  ASSERT_TRUE(bad.Begin().has_value());
  ASSERT_TRUE(bad.UpdateProperties({{"owner", "x"}}).has_value());
  // Starts from the first snapshot; the files it removes are gone.
  bad.AddOperation(std::make_unique<FilesOperation>(
      OverwriteByFilter(Where("country = 'FR'"), {}, start.CurrentSnapshot()->snapshot_id, IsolationLevel::kSerializable)));
  auto b = t.Open();
  ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{11, "FR", 11}})).has_value());
  auto refused = bad.Commit();
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kValidationFailed) << refused.error().message;
  EXPECT_FALSE(t.Metadata().properties.count("owner"));
}

TEST(ReplacePartitions, ReplacesOnlyTouchedPartitions) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}})).has_value());
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{3, "DE", 3}})).has_value());
  auto r = ReplacePartitionsWith(t.catalog(), t.id(), Batch({{10, "DE", 10}, {11, "NL", 11}}));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{2, "FR", 2}, {10, "DE", 10}, {11, "NL", 11}}));
  EXPECT_EQ(t.Metadata().CurrentSnapshot()->operation(), "overwrite");
}

TEST(ReplacePartitions, AlsoRemovesTheDeleteFilesOfThosePartitions) {
  OrdersTable t("country", {{"write.delete.mode", "merge-on-read"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}, {3, "FR", 3}, {4, "FR", 4}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1 OR order_id = 3")).has_value());
  ASSERT_EQ(t.Metadata().CurrentSnapshot()->summary.at("total-delete-files"), "2");
  ASSERT_TRUE(ReplacePartitionsWith(t.catalog(), t.id(), Batch({{10, "DE", 10}})).has_value());
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("total-delete-files"), "1");  // FR's stays
  EXPECT_EQ(m.CurrentSnapshot()->summary.at("removed-delete-files"), "1");
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{4, "FR", 4}, {10, "DE", 10}}));
}

TEST(ReplacePartitions, SerializableRefusesConcurrentFilesInThosePartitions) {
  for (bool same_partition : {true, false}) {
    OrdersTable t;
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}})).has_value());
    auto b = t.Open();
    OverwriteOptions options;
    options.write.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{5, same_partition ? "DE" : "FR", 5}})).has_value()); });
    auto r = ReplacePartitionsWith(t.catalog(), t.id(), Batch({{10, "DE", 10}}), options);
    if (same_partition) {
      ASSERT_FALSE(r.has_value());
      EXPECT_NE(r.error().message.find("in the replaced partitions"), std::string::npos) << r.error().message;
      EXPECT_EQ(t.Rows(), (std::vector<Order>{{1, "DE", 1}, {2, "FR", 2}, {5, "DE", 5}}));
    } else {
      ASSERT_TRUE(r.has_value()) << r.error().message;
      EXPECT_EQ(t.Rows(), (std::vector<Order>{{2, "FR", 2}, {5, "FR", 5}, {10, "DE", 10}}));
    }
  }
  // Snapshot isolation replaces B's file too.
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  auto b = t.Open();
  OverwriteOptions options;
  options.isolation = IsolationLevel::kSnapshot;
  options.write.commit.before_swap = OnFirstAttempt([&] { ASSERT_TRUE(AppendBatch(*b, t.id(), Batch({{5, "DE", 5}})).has_value()); });
  ASSERT_TRUE(ReplacePartitionsWith(t.catalog(), t.id(), Batch({{10, "DE", 10}}), options).has_value());
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{10, "DE", 10}}));
}

TEST(DeleteFiles, MetadataOnlyWhenWholeFilesMatch) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "FR", 2}, {3, "NL", 3}})).has_value());
  auto before = t.Metadata();
  auto r = DeleteFilesWhere(t.catalog(), t.id(), Where("country = 'DE' OR country = 'NL'"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->files_removed, 2);
  EXPECT_EQ(r->rows_deleted, 2);
  const TableMetadata s_table = t.Metadata();
  const Snapshot* s = s_table.CurrentSnapshot();
  EXPECT_EQ(s->operation(), "delete");
  EXPECT_FALSE(s->summary.count("added-data-files"));
  EXPECT_EQ(t.Rows(), (std::vector<Order>{{2, "FR", 2}}));
  // Strict metrics: order_id >= 2 holds for every row of the FR file (bounds 2..2).
  ASSERT_TRUE(DeleteFilesWhere(t.catalog(), t.id(), Where("order_id >= 2")).has_value());
  EXPECT_TRUE(t.Rows().empty());
  // A partial match is refused: it would need a rewrite.
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{4, "DE", 4}, {5, "DE", 5}})).has_value());
  const std::string location = t.catalog().LoadTable(t.id())->metadata_location;
  auto partial = DeleteFilesWhere(t.catalog(), t.id(), Where("order_id = 4"));
  ASSERT_FALSE(partial.has_value());
  EXPECT_NE(partial.error().message.find("some, but not all, rows match"), std::string::npos)
      << partial.error().message;
  EXPECT_EQ(t.catalog().LoadTable(t.id())->metadata_location, location);
}

}  // namespace
}  // namespace floe
