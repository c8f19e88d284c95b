// Every writing operation records its files in a write intent before it creates them, so what a
// writer killed mid-attempt left is reclaimed from the intents alone (maint/intent_reclamation.h).
//
// For each operation family (copy-on-write delete and update, merge-on-read delete, upsert,
// overwrite, a library transaction through floe::CommitTogether, and the commits that write no
// data file: add-files of files written earlier, a cherry-pick, a rollback, which writes only
// its metadata document) a child process (this test
// binary again, in its child mode) runs the operation on a table of committed rows and kills
// itself with SIGKILL once the attempt's files are written: at the swap for the data-writing
// operations (its data or delete files are on storage, its manifests and manifest list named
// and written or being written), before the commit for the transaction (its data files are),
// and for the commits that write no data file once the catalog awaited everything the commit
// writes before its swap (manifests and manifest list; on a SQL catalog also the new metadata
// document; in the storage catalog writing the document is the swap, so a rollback leaves
// nothing). Then, in the parent:
//   - every file the dead writer left is named by an intent (add-files: but the data files it
//     was given, which are the caller's and stay);
//   - ReclaimFromIntents deletes exactly those, lists none of the table's storage, and keeps
//     every file the landed commits reach: the table reads the same rows.
// On SQLite, PostgreSQL (FLOE_TEST_PG_URI), the storage catalog on local disk, and the storage
// catalog on S3 (FLOE_TEST_S3_ENDPOINT, moto).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "catalog/fault_injecting_catalog.h"
#include "catalog/intent_store.h"
#include "floe/catalog.h"
#include "floe/transaction.h"
#include "maint/intent_reclamation.h"
#include "scan/table_scan.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "rows/merge_on_read.h"
#include "commit/operations.h"
#include "rows/overwrite_writes.h"
#include "rows/row_writes.h"
#include "commit/snapshot_refs.h"
#include "rows/upsert.h"
#include "types/schema_text.h"
#include "util/clock.h"
#include "write/data_writer.h"
#include "floe_process.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

using testing_env::Backend;

constexpr const char* kSchema = "order_id long not null, note string";
constexpr const char* kChildEnv = "FLOE_INTENT_TEST_CHILD";  // "<op>\n<uri>\n<catalog name>\n<ns>"
constexpr int64_t kRows = 3000;

enum class Op { kCowDelete, kCowUpdate, kMorDelete, kUpsert, kOverwrite, kTransaction, kAddFiles, kCherryPick, kRollback };

// The branch a cherry-pick takes its snapshot from (an append the parent lands there first).
constexpr const char* kSideBranch = "side";

const char* OpName(Op op) {
  switch (op) {
    case Op::kCowDelete: return "CowDelete";
    case Op::kCowUpdate: return "CowUpdate";
    case Op::kMorDelete: return "MorDelete";
    case Op::kUpsert: return "Upsert";
    case Op::kOverwrite: return "Overwrite";
    case Op::kTransaction: return "Transaction";
    case Op::kAddFiles: return "AddFiles";
    case Op::kCherryPick: return "CherryPick";
    case Op::kRollback: return "Rollback";
  }
  return "?";
}

ColumnBatch Rows(int64_t first, int64_t count, const std::string& note) {
  ColumnBatch rows(*ParseSchemaText(kSchema));
  for (int64_t i = 0; i < count; ++i) (void)rows.AppendRow({Literal::Long(first + i), Literal::String(note)});
  return rows;
}

[[noreturn]] void Die() {
  raise(SIGKILL);
  _exit(99);  // never reached
}

// The catalog it wraps (its write intents too), except that a commit through it dies once the
// catalog has written what it writes before its swap (TableCommit::await_files is called there).
class DieBeforeSwapCatalog : public FaultInjectingCatalog, public IntentStore {
 public:
  DieBeforeSwapCatalog(std::unique_ptr<Catalog> inner, IntentStore& store)
      : FaultInjectingCatalog(std::move(inner)), store_(store) {}
  CatalogCapabilities capabilities() override {
    CatalogCapabilities capabilities = FaultInjectingCatalog::capabilities();
    capabilities.intent_store = this;
    return capabilities;
  }
  Result<LoadedTable> CommitTable(const TableCommit& commit) override {
    TableCommit dying = commit;
    dying.await_files = [await = commit.await_files]() -> Status {
      if (await) (void)await();
      Die();
    };
    return FaultInjectingCatalog::CommitTable(dying);
  }
  Status RecordIntent(const TableIdentifier& id, const std::string& folder, const std::string& attempt_id,
                      int64_t batch, const std::vector<std::string>& paths) override {
    return store_.RecordIntent(id, folder, attempt_id, batch, paths);
  }
  Status ClearIntent(const TableIdentifier& id, const std::string& folder, const std::string& attempt_id,
                     int64_t batches) override {
    return store_.ClearIntent(id, folder, attempt_id, batches);
  }
  Result<std::vector<WriteIntentBatch>> ListIntents(const TableIdentifier& id, const std::string& folder) override {
    return store_.ListIntents(id, folder);
  }

 private:
  IntentStore& store_;
};

// The child: runs `op` on table <ns>.orders and dies with SIGKILL mid-attempt. Any return is a
// failure of the operation itself (exit code 3, its message on stderr).
int RunChild(Op op, const std::string& uri, const std::string& name, const std::string& ns) {
  const TableIdentifier id{{ns}, "orders"};
  auto fail = [](const Error& e) {
    std::fprintf(stderr, "child: %s\n", e.message.c_str());
    return 3;
  };
  if (op == Op::kTransaction) {
    ConnectionOptions options;
    options.name = name;
    auto connection = Connection::Open(uri, options);
    if (!connection) return fail(connection.error());
    auto table = connection->LoadTable(ns + ".orders");
    if (!table) return fail(table.error());
    auto tx = table->NewTransaction();
    if (!tx) return fail(tx.error());
    floe::Rows rows{{"order_id", "note"}, {}};
    for (int64_t i = 0; i < 2000; ++i) rows.rows.push_back({int64_t{900000 + i}, std::string("killed")});
    if (Status st = tx->Append(rows); !st) return fail(st.error());
    WriteOptions write;
    write.before_commit = Die;
    auto committed = CommitTogether({&*tx}, write);
    return committed ? 4 : fail(committed.error());
  }
  CatalogOptions options;
  options.name = name;
  auto opened = OpenCatalog(uri, options);
  if (!opened) return fail(opened.error());
  Catalog& catalog = **opened;
  if (op == Op::kRollback) {
    auto table = catalog.LoadTable(id);
    if (!table) return fail(table.error());
    const Snapshot* head = table->metadata.CurrentSnapshot();
    if (!head || !head->parent_snapshot_id) return fail(Error{ErrorKind::kNotFound, "no snapshot to roll back to"});
    IntentStore* store = IntentStoreOf(catalog);
    if (!store) return fail(Error{ErrorKind::kInvalidArgument, "the catalog keeps no intents"});
    DieBeforeSwapCatalog dying(std::move(*opened), *store);
    auto rolled = RollbackTo(dying, id, *head->parent_snapshot_id);
    return rolled ? 4 : fail(rolled.error());
  }
  if (op == Op::kAddFiles || op == Op::kCherryPick) {
    auto table = catalog.LoadTable(id);
    if (!table) return fail(table.error());
    IntentStore* store = IntentStoreOf(catalog);
    if (!store) return fail(Error{ErrorKind::kInvalidArgument, "the catalog keeps no intents"});
    // Killed once the commit's manifests and manifest list are written (and a SQL catalog's
    // document): at CommitOptions::before_swap they are still being written in the background,
    // and a write cut short leaves nothing (an unnamed file linked when complete; a PUT).
    DieBeforeSwapCatalog dying(std::move(*opened), *store);
    Result<CommitReport> report = InvalidArgument("no operation");
    if (op == Op::kAddFiles) {
      // Files written earlier, by another tool: unnamed, and the caller's, not the commit's.
      DataWriter writer(*catalog.io(), table->metadata);
      if (Status st = writer.Write(Rows(800000, 100, "added")); !st) return fail(st.error());
      auto files = writer.Finish();
      if (!files) return fail(files.error());
      FilesOperation operation(FastAppend(std::move(*files)));
      report = CommitOperation(dying, id, operation);
    } else {
      const Snapshot* side = table->metadata.SnapshotForRef(kSideBranch);
      if (!side) return fail(Error{ErrorKind::kNotFound, "no branch side"});
      report = CherryPick(dying, id, side->snapshot_id);
    }
    return report ? 4 : fail(report.error());
  }
  RowWriteOptions write;
  write.commit.before_swap = [](int) { Die(); };
  const Expr filter = LessThan("order_id", Literal::Long(kRows / 2));
  Result<RowWriteResult> result = InvalidArgument("no operation");
  switch (op) {
    case Op::kCowDelete:
      write.mode = WriteMode::kCopyOnWrite;
      result = DeleteWhere(catalog, id, filter, write);
      break;
    case Op::kCowUpdate: {
      write.mode = WriteMode::kCopyOnWrite;
      auto sets = ParseAssignments("note = 'updated'");
      if (!sets) return fail(sets.error());
      result = UpdateWhere(catalog, id, filter, *sets, write);
      break;
    }
    case Op::kMorDelete:
      write.mode = WriteMode::kMergeOnRead;
      result = DeleteWhere(catalog, id, filter, write);
      break;
    case Op::kUpsert:
      write.mode = WriteMode::kCopyOnWrite;
      result = Upsert(catalog, id, Rows(kRows - 100, 200, "upserted"), {"order_id"}, write);
      break;
    case Op::kOverwrite: {
      OverwriteOptions overwrite;
      overwrite.write = write;
      result = ReplacePartitionsWith(catalog, id, Rows(0, 100, "overwritten"), overwrite);
      break;
    }
    case Op::kTransaction:
    case Op::kAddFiles:
    case Op::kCherryPick:
    case Op::kRollback: break;
  }
  return result ? 4 : fail(result.error());
}

// Child mode: set by the parent's environment; skipped in a normal run.
TEST(IntentOperationsChild, RunAndDie) {
  const char* spec = std::getenv(kChildEnv);
  if (spec == nullptr) GTEST_SKIP() << "the child of IntentOperations (runs only when " << kChildEnv << " is set)";
  std::vector<std::string> parts;
  std::string rest = spec;
  for (size_t nl; (nl = rest.find('\n')) != std::string::npos; rest = rest.substr(nl + 1)) parts.push_back(rest.substr(0, nl));
  parts.push_back(rest);
  ASSERT_EQ(parts.size(), 4u);
  _exit(RunChild(static_cast<Op>(std::atoi(parts[0].c_str())), parts[1], parts[2], parts[3]));
}

class IntentOperations : public ::testing::TestWithParam<std::tuple<Backend, Op>> {
 protected:
  void SetUp() override {
    place_ = testing_env::MakePlace(std::get<0>(GetParam()), dir_.path());
    if (place_.uri.empty()) {
      if (place_.skip_reason.starts_with("skipped")) GTEST_SKIP() << place_.skip_reason;
      FAIL() << place_.skip_reason;
    }
    CatalogOptions options;
    options.name = place_.name;
    auto opened = OpenCatalog(place_.uri, options);
    ASSERT_TRUE(opened.has_value()) << opened.error().message;
    catalog_ = std::move(*opened);
    ns_ = "i" + place_.name;
    id_ = TableIdentifier{{ns_}, "orders"};
    ASSERT_TRUE(catalog_->CreateNamespace(id_.ns, {}).has_value());
    CreateTableRequest request;
    request.schema = *ParseSchemaText(kSchema);
    request.properties["write.target-file-size-bytes"] = "1";  // a file every 1,024 rows
    auto created = catalog_->CreateTable(id_, request);
    ASSERT_TRUE(created.has_value()) << created.error().message;
    location_ = created->metadata.location;
    auto appended = AppendBatch(*catalog_, id_, Rows(0, kRows, "committed"));
    ASSERT_TRUE(appended.has_value()) << appended.error().message;
  }

  TableMetadata Metadata() { return catalog_->LoadTable(id_)->metadata; }

  // Every file under the table's location, intents excepted (the test's view; the sweep lists nothing).
  std::set<std::string> Files() {
    std::set<std::string> out;
    auto listed = catalog_->io()->ListPrefix(location_ + "/");
    EXPECT_TRUE(listed.has_value()) << listed.error().message;
    if (listed)
      for (const auto& f : *listed)
        if (!IsIntentObject(f.path)) out.insert(f.path);
    return out;
  }

  std::set<std::string> Recorded() {
    std::set<std::string> out;
    auto listed = IntentStoreOf(*catalog_)->ListIntents(id_, MetadataFolder(Metadata()));
    EXPECT_TRUE(listed.has_value()) << listed.error().message;
    if (listed)
      for (const auto& batch : *listed) out.insert(batch.paths.begin(), batch.paths.end());
    return out;
  }

  std::vector<std::string> SortedRows() {
    auto rows = ReadTable(*catalog_->io(), Metadata(), ScanOptions{});
    EXPECT_TRUE(rows.has_value()) << rows.error().message;
    std::vector<std::string> out;
    if (rows)
      for (size_t r = 0; r < rows->num_rows; ++r) out.push_back(rows->Row(r)[0].ToString() + rows->Row(r)[1].ToString());
    std::sort(out.begin(), out.end());
    return out;
  }

  testing_env::TempDir dir_{"floe-intent-ops"};
  testing_env::CatalogPlace place_;
  std::unique_ptr<Catalog> catalog_;
  std::string ns_;
  TableIdentifier id_;
  std::string location_;
};

TEST_P(IntentOperations, AWriterKilledMidAttemptLeavesOnlyWhatItsIntentReclaims) {
  const Op op = std::get<1>(GetParam());
  ASSERT_NE(IntentStoreOf(*catalog_), nullptr);
  if (op == Op::kCherryPick) {
    ASSERT_TRUE(CreateBranch(*catalog_, id_, kSideBranch).has_value());
    RowWriteOptions side;
    side.commit.branch = kSideBranch;
    auto appended = AppendBatch(*catalog_, id_, Rows(700000, 50, "side"), side);
    ASSERT_TRUE(appended.has_value()) << appended.error().message;
  }
  if (op == Op::kRollback) {  // a snapshot to roll back from
    auto appended = AppendBatch(*catalog_, id_, Rows(600000, 50, "rolled back"));
    ASSERT_TRUE(appended.has_value()) << appended.error().message;
  }
  EXPECT_TRUE(Recorded().empty()) << "the landed append left its intent";
  const std::set<std::string> landed = Files();
  const std::vector<std::string> rows_before = SortedRows();

  const std::string spec = std::to_string(static_cast<int>(op)) + "\n" + place_.uri + "\n" + place_.name + "\n" + ns_;
  pid_t pid = test::SpawnProcess("/proc/self/exe", {"--gtest_filter=IntentOperationsChild.RunAndDie"},
                                 {.path = dir_.path() + "/child.txt", .with_stderr = true}, {{kChildEnv, spec}});
  ASSERT_GT(pid, 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << OpName(op) << " child did not die mid-attempt (exit " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1)
      << "); see " << dir_.path() << "/child.txt";

  // What the dead attempt left: its new data or delete files, and (past the commit's start)
  // its manifests and manifest list. Each is named by an intent.
  std::set<std::string> left;
  for (const auto& f : Files())
    if (!landed.contains(f)) left.insert(f);
  // Add-files: the data files were the caller's before the commit began; they stay unnamed.
  std::set<std::string> given;
  if (op == Op::kAddFiles)
    for (const auto& f : left)
      if (f.ends_with(".parquet")) given.insert(f);
  for (const auto& f : given) left.erase(f);
  const Backend backend = std::get<0>(GetParam());
  const bool sql = backend == Backend::kSqlite || backend == Backend::kPostgres;
  if (op == Op::kRollback && !sql) {
    EXPECT_TRUE(left.empty()) << *left.begin() << " left: the storage catalog's document is its swap";
    return;
  }
  // The commits that write no data file leave what they wrote before the swap: add-files and a
  // cherry-pick their manifest and manifest list, and on a SQL catalog each its document.
  if (op == Op::kAddFiles || op == Op::kCherryPick || op == Op::kRollback) {
    std::set<std::string> kinds;
    for (const auto& f : left)
      kinds.insert(f.ends_with(".metadata.json") ? "document"
                   : f.find("/snap-") != std::string::npos ? "manifest list"
                   : f.ends_with("-m0.avro")               ? "manifest"
                                                           : f);
    std::set<std::string> expected;
    if (sql) expected.insert("document");
    if (op != Op::kRollback) expected.insert({"manifest list", "manifest"});
    EXPECT_EQ(kinds, expected);
  }
  ASSERT_FALSE(left.empty());
  bool saw_data = false;
  const std::set<std::string> recorded = Recorded();
  for (const auto& f : left) {
    EXPECT_TRUE(recorded.contains(f)) << f << " was created without an intent naming it";
    saw_data = saw_data || f.ends_with(".parquet");
  }
  // A cherry-pick and a rollback write no data file; add-files wrote its own before the commit.
  EXPECT_EQ(saw_data, op != Op::kAddFiles && op != Op::kCherryPick && op != Op::kRollback);
  if (op == Op::kAddFiles) {
    EXPECT_FALSE(given.empty());
  }
  // Past the commit's start its manifests and manifest list are named too (their writes may
  // still have been under way in the background when the writer died).
  if (op != Op::kTransaction && op != Op::kRollback) {
    bool manifest = false, list = false;
    for (const auto& p : recorded) {
      manifest = manifest || p.ends_with("-m0.avro");
      list = list || p.find("/snap-") != std::string::npos;
    }
    EXPECT_TRUE(manifest && list) << "the commit's manifest and manifest list were not in the intent";
  }
  EXPECT_EQ(SortedRows(), rows_before);

  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  OrphanOptions options;
  options.older_than_ms = NowMillis();
  auto reclaimed = ReclaimFromIntents(*catalog_, id_, options);
  ASSERT_TRUE(reclaimed.has_value()) << reclaimed.error().message;
  EXPECT_EQ(reclaimed->files_listed, 0);
  EXPECT_TRUE(reclaimed->delete_failures.empty());
  const std::set<std::string> now = Files();
  for (const auto& f : left) EXPECT_FALSE(now.contains(f)) << f << " was left behind";
  for (const auto& f : landed) EXPECT_TRUE(now.contains(f)) << f << " was committed and is gone";
  for (const auto& f : given) EXPECT_TRUE(now.contains(f)) << f << " was the caller's and is gone";
  EXPECT_TRUE(Recorded().empty());
  EXPECT_EQ(SortedRows(), rows_before);
}

std::string ParamName(const ::testing::TestParamInfo<std::tuple<Backend, Op>>& info) {
  return std::string(testing_env::BackendName(std::get<0>(info.param))) + OpName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Operations, IntentOperations,
                         ::testing::Combine(::testing::Values(Backend::kSqlite, Backend::kPostgres, Backend::kStorage,
                                                              Backend::kStorageS3),
                                            ::testing::Values(Op::kCowDelete, Op::kCowUpdate, Op::kMorDelete,
                                                              Op::kUpsert, Op::kOverwrite, Op::kTransaction,
                                                              Op::kAddFiles, Op::kCherryPick, Op::kRollback)),
                         ParamName);

}  // namespace
}  // namespace floe
