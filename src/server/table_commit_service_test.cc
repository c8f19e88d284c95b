// The server's table commit on a real SQLite catalog: server-side retry, the rebase of an
// append whose branch moved on (next to appends, deletes and schema changes), and group commit.
// A client's commit is captured as the commit loop sends it (its files written and kept), then
// the table moves on, then the server receives the stale commit.
#include "server/table_commit_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "catalog/catalog_test_env.h"
#include "catalog/commit.h"
#include "catalog/fault_injecting_catalog.h"
#include "catalog/intent_store.h"
#include "expr/expression.h"
#include "scan/manifest_reading.h"
#include "server/rest_handlers.h"
#include "contention/append_rebase.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "contention/slow_catalog_test_util.h"
#include "table_files/manifest_io.h"
#include "table_files/metadata_location.h"
#include "avro/manifest_reader.h"

namespace floe {
namespace {

const TableIdentifier kTable{{"db"}, "t"};

// Answers every commit with Unavailable after keeping a copy: the commit loop then keeps the
// attempt's files (its outcome is not a certain failure), as they are when a request is on the
// wire to a server.
class CapturingCatalog : public FaultInjectingCatalog {
 public:
  using FaultInjectingCatalog::FaultInjectingCatalog;
  Result<LoadedTable> CommitTable(const TableCommit& commit) override {
    if (commit.await_files) {
      if (Status written = commit.await_files(); !written) return std::unexpected(written.error());
    }
    captured.push_back(TableCommit{commit.id, commit.requirements, commit.updates});
    return Unavailable("captured for the test");
  }
  std::vector<TableCommit> captured;
};

// Loses every commit on its way to the wrapped catalog (CommitStateUnknown, nothing applied),
// and keeps the wrapped catalog's write intents.
class LosingCatalog : public FaultInjectingCatalog, public IntentStore {
 public:
  // `store`: the intents of `inner`.
  LosingCatalog(std::unique_ptr<Catalog> inner, IntentStore* store)
      : FaultInjectingCatalog(std::move(inner)), store_(store) {
    FailBeforeApplyWhen([](int) { return true; });
  }
  CatalogCapabilities capabilities() override {
    CatalogCapabilities capabilities = FaultInjectingCatalog::capabilities();
    capabilities.intent_store = this;
    return capabilities;
  }
  Status RecordIntent(const TableIdentifier& id, const std::string& folder, const std::string& attempt, int64_t batch,
                      const std::vector<std::string>& paths) override {
    return store_->RecordIntent(id, folder, attempt, batch, paths);
  }
  Status ClearIntent(const TableIdentifier& id, const std::string& folder, const std::string& attempt,
                     int64_t batches) override {
    return store_->ClearIntent(id, folder, attempt, batches);
  }
  Result<std::vector<WriteIntentBatch>> ListIntents(const TableIdentifier& id, const std::string& folder) override {
    return store_->ListIntents(id, folder);
  }

 private:
  IntentStore* store_;
};

class TableCommitServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = Open();
    ASSERT_TRUE(catalog_->CreateNamespace({"db"}, {}));
    ASSERT_TRUE(catalog_->CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()}));
  }
  std::unique_ptr<Catalog> Open() {
    auto opened = OpenCatalog("sqlite://" + dir_.path() + "/catalog.db");
    EXPECT_TRUE(opened) << opened.error().ToString();
    return std::move(*opened);
  }

  DataFile File(const std::string& name, int64_t rows = 10) {
    DataFile f;
    f.file_path = dir_.path() + "/data/" + name + ".parquet";
    f.record_count = rows;
    f.file_size_in_bytes = 100 * rows;
    return f;
  }
  void Append(Catalog& catalog, std::vector<DataFile> files) {
    FilesOperation op(FastAppend(std::move(files)));
    auto done = CommitOperation(catalog, kTable, op);
    ASSERT_TRUE(done) << done.error().ToString();
  }
  // What a client would send for `change` against the table as it is now (nothing lands).
  TableCommit Captured(FilesChange change) {
    CapturingCatalog capture(Open());
    FilesOperation op(std::move(change));
    CommitOptions options;
    options.retry = RetryPolicy{};
    options.retry->num_retries = 0;
    auto sent = CommitOperation(capture, kTable, op, options);
    EXPECT_FALSE(sent);
    EXPECT_EQ(capture.captured.size(), 1u);
    return capture.captured.empty() ? TableCommit{} : capture.captured.front();
  }
  static int64_t SnapshotIdOf(const TableCommit& commit) {
    for (const auto& u : commit.updates) {
      if (auto* add = std::get_if<AddSnapshot>(&u)) return add->snapshot.snapshot_id;
    }
    return 0;
  }
  // The live data files of the current snapshot: path -> data sequence number.
  std::map<std::string, int64_t> LiveFiles() {
    auto table = catalog_->LoadTable(kTable);
    EXPECT_TRUE(table);
    std::map<std::string, int64_t> out;
    const Snapshot* head = table->metadata.CurrentSnapshot();
    if (!head) return out;
    auto manifests = ReadManifestList(*catalog_->io(), table->metadata, *head);
    EXPECT_TRUE(manifests) << manifests.error().ToString();
    for (const auto& m : *manifests) {
      auto entries = ReadManifestEntries(*catalog_->io(), table->metadata, m);
      EXPECT_TRUE(entries) << entries.error().ToString();
      for (const auto& e : *entries) {
        if (e.status == EntryStatus::kDeleted) continue;
        EXPECT_TRUE(out.emplace(e.file.file_path, e.sequence_number.value_or(-1)).second) << "listed twice";
      }
    }
    return out;
  }
  // Every snapshot of main from the head down: one chain, sequence numbers strictly falling.
  std::vector<const Snapshot*> Chain(const TableMetadata& m) {
    std::vector<const Snapshot*> chain;
    for (const Snapshot* s = m.CurrentSnapshot(); s;
         s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      if (!chain.empty()) {
        EXPECT_LT(s->sequence_number, chain.back()->sequence_number);
      }
      chain.push_back(s);
    }
    return chain;
  }

  testing_env::TempDir dir_{"floe-server-commit"};
  std::unique_ptr<Catalog> catalog_;
};

TEST_F(TableCommitServiceTest, StaleAppendIsRebasedOntoTheNewHead) {
  Append(*catalog_, {File("a")});
  TableCommit stale = Captured(FastAppend({File("b")}));
  Append(*catalog_, {File("c")});
  const int64_t head_before = catalog_->LoadTable(kTable)->metadata.CurrentSnapshot()->snapshot_id;

  // The catalog itself refuses it: its branch moved on.
  auto direct = catalog_->CommitTable(stale);
  ASSERT_FALSE(direct);
  EXPECT_EQ(direct.error().kind, ErrorKind::kCommitConflict);

  auto landed = CommitTableOnServer(*catalog_, stale);
  ASSERT_TRUE(landed) << landed.error().ToString();
  const TableMetadata& m = *landed->metadata;
  const Snapshot* head = m.CurrentSnapshot();
  ASSERT_TRUE(head);
  EXPECT_EQ(head->snapshot_id, SnapshotIdOf(stale));  // the client's snapshot, as committed
  EXPECT_EQ(head->parent_snapshot_id, head_before);
  EXPECT_EQ(head->sequence_number, m.last_sequence_number);
  EXPECT_EQ(head->summary.at("total-data-files"), "3");
  EXPECT_EQ(head->summary.at("total-records"), "30");
  EXPECT_EQ(Chain(m).size(), 3u);
  auto live = LiveFiles();
  ASSERT_EQ(live.size(), 3u);
  // New entries inherit the rebased sequence number; the others keep theirs.
  EXPECT_EQ(live.at(File("b").file_path), head->sequence_number);
  EXPECT_LT(live.at(File("a").file_path), live.at(File("c").file_path));
}

// A stale append whose own manifest list is gone, or is not Avro, is the request's fault: a 400
// naming the file. Never a 404 (a client takes NoSuchTable for "the table was dropped") nor a
// 5xx; the table is left as it was.
TEST_F(TableCommitServiceTest, StaleAppendWithAMissingOrBrokenManifestListIsA400NamingIt) {
  Append(*catalog_, {File("a")});
  for (bool missing : {true, false}) {
    SCOPED_TRACE(missing ? "missing" : "not Avro");
    TableCommit stale = Captured(FastAppend({File(missing ? "b" : "b2")}));
    Append(*catalog_, {File(missing ? "c" : "c2")});
    std::string list;
    for (const auto& u : stale.updates) {
      if (auto* add = std::get_if<AddSnapshot>(&u)) list = add->snapshot.manifest_list;
    }
    ASSERT_FALSE(list.empty());
    if (missing) {
      ASSERT_TRUE(catalog_->io()->Delete(list));
    } else {
      ASSERT_TRUE(catalog_->io()->Delete(list));
      ASSERT_TRUE(catalog_->io()->CreateIfAbsent(list, "this is not an Avro file"));
    }
    const std::string before = catalog_->LoadTable(kTable)->metadata_location;
    auto refused = CommitTableOnServer(*catalog_, stale);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument) << refused.error().ToString();
    EXPECT_NE(refused.error().message.find(list), std::string::npos) << refused.error().message;
    RestReply reply = ReplyFor(refused.error(), ErrorSubject::kTable);
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_EQ(reply.body.find("NoSuchTable"), std::string::npos) << reply.body;
    EXPECT_EQ(catalog_->LoadTable(kTable)->metadata_location, before);
  }
}

// The manifest list a rebase writes is named in a write intent first: when the swap's outcome
// is unknown the list and its intent stay (for the reclamation from intents); a rebase that
// landed clears its own intent.
TEST_F(TableCommitServiceTest, RebasedManifestListsAreRecordedInAWriteIntent) {
  Append(*catalog_, {File("a")});
  TableCommit stale = Captured(FastAppend({File("b")}));
  Append(*catalog_, {File("c")});
  IntentStore* store = IntentStoreOf(*catalog_);
  ASSERT_NE(store, nullptr);
  auto intents = [&] {
    std::vector<std::string> paths;
    auto listed = store->ListIntents(kTable, MetadataFolder(catalog_->LoadTable(kTable)->metadata));
    EXPECT_TRUE(listed) << listed.error().ToString();
    if (listed)
      for (const auto& batch : *listed) paths.insert(paths.end(), batch.paths.begin(), batch.paths.end());
    return paths;
  };
  ASSERT_TRUE(intents().empty());

  std::unique_ptr<Catalog> inner = Open();
  IntentStore* inner_store = IntentStoreOf(*inner);
  LosingCatalog losing(std::move(inner), inner_store);
  auto lost = CommitTableOnServer(losing, stale);
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().kind, ErrorKind::kCommitStateUnknown);
  const std::vector<std::string> recorded = intents();
  ASSERT_EQ(recorded.size(), 1u);
  const std::string list = recorded.front();
  EXPECT_NE(list.find("-rebased-"), std::string::npos) << list;
  EXPECT_TRUE(catalog_->io()->Exists(list).value_or(false)) << list;

  // Landed: its own attempt's intent is cleared; the lost attempt's stays for the reclamation
  // (maint/intent_reclamation.h), which deletes that list since nothing reaches it.
  auto landed = CommitTableOnServer(*catalog_, stale);
  ASSERT_TRUE(landed) << landed.error().ToString();
  EXPECT_EQ(intents(), recorded);
  const std::string& landed_list = landed->metadata->CurrentSnapshot()->manifest_list;
  EXPECT_NE(landed_list.find("-rebased-"), std::string::npos) << landed_list;
  EXPECT_TRUE(catalog_->io()->Exists(landed_list).value_or(false));
  EXPECT_EQ(LiveFiles().size(), 3u);
}

TEST_F(TableCommitServiceTest, RebasedNextToAConcurrentDeleteOfAnotherFile) {
  Append(*catalog_, {File("a"), File("a2")});
  const int64_t start = catalog_->LoadTable(kTable)->metadata.CurrentSnapshot()->snapshot_id;
  TableCommit stale = Captured(FastAppend({File("b")}));
  {
    FilesOperation del(CopyOnWrite({File("a")}, {}, start, True(), IsolationLevel::kSerializable));
    auto done = CommitOperation(*catalog_, kTable, del);
    ASSERT_TRUE(done) << done.error().ToString();
  }
  auto landed = CommitTableOnServer(*catalog_, stale);
  ASSERT_TRUE(landed) << landed.error().ToString();
  auto live = LiveFiles();
  EXPECT_EQ(live.count(File("a").file_path), 0u);  // the delete survives
  EXPECT_EQ(live.count(File("a2").file_path), 1u);
  EXPECT_EQ(live.count(File("b").file_path), 1u);
  EXPECT_EQ(landed->metadata->CurrentSnapshot()->summary.at("total-data-files"), "2");
}

TEST_F(TableCommitServiceTest, FilesThatRemoveOrReplaceAreNeverRebased) {
  Append(*catalog_, {File("a"), File("a2")});
  const int64_t start = catalog_->LoadTable(kTable)->metadata.CurrentSnapshot()->snapshot_id;
  TableCommit stale_delete =
      Captured(CopyOnWrite({File("a")}, {File("a-rewritten")}, start, True(), IsolationLevel::kSerializable));
  Append(*catalog_, {File("c")});
  auto refused = CommitTableOnServer(*catalog_, stale_delete);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(refused.error().message.find("branch main has changed"), std::string::npos) << refused.error().message;
  EXPECT_EQ(LiveFiles().count(File("a").file_path), 1u);
}

TEST_F(TableCommitServiceTest, SchemaChangeRebasesOnlyWhenTheFilesStillRead) {
  Append(*catalog_, {File("a")});
  TableCommit compatible = Captured(FastAppend({File("b")}));
  TableCommit incompatible = Captured(FastAppend({File("x")}));
  auto table = catalog_->LoadTable(kTable);
  // An optional column: files written before it read it as null.
  Schema wider(1, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""},
                   NestedField{3, "note", Type::String(), false, ""}});
  ASSERT_TRUE(catalog_->CommitTable(TableCommit{
      kTable, {AssertCurrentSchemaId{0}}, {AddSchema{wider, 3}, SetCurrentSchema{-1}}}));
  Append(*catalog_, {File("moves-main")});  // the branch moves on: the stale appends need a rebase
  auto landed = CommitTableOnServer(*catalog_, compatible);
  ASSERT_TRUE(landed) << landed.error().ToString();
  EXPECT_EQ(landed->metadata->CurrentSnapshot()->schema_id, 1);

  // A required column the files do not have: the append goes back to the client.
  Schema stricter(2, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""},
                      NestedField{3, "note", Type::String(), false, ""},
                      NestedField{4, "must", Type::Long(), true, ""}});
  ASSERT_TRUE(catalog_->CommitTable(TableCommit{
      kTable, {AssertCurrentSchemaId{1}}, {AddSchema{stricter, 4}, SetCurrentSchema{-1}}}));
  auto refused = CommitTableOnServer(*catalog_, incompatible);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(LiveFiles().count(File("x").file_path), 0u);
}

TEST_F(TableCommitServiceTest, LostSwapWithRequirementsStillHoldingIsRetriedOnTheServer) {
  // A commit whose requirements hold loses nothing to a concurrent writer: the direct path
  // turns every lost swap into a conflict, the server's path retries it.
  const int64_t schema = catalog_->LoadTable(kTable)->metadata.current_schema_id;
  std::atomic<int> refused{0};
  std::vector<std::thread> threads;
  // Three "servers" (each its own catalog connection, no shared queue) racing for one table.
  for (int w = 0; w < 3; ++w) {
    threads.emplace_back([&, w] {
      auto catalog = Open();
      for (int i = 0; i < 10; ++i) {
        TableCommit c{kTable,
                      {AssertCurrentSchemaId{static_cast<int>(schema)}},
                      {SetProperties{{{"w" + std::to_string(w) + "-" + std::to_string(i), "x"}}}}};
        ServerCommitOptions retry;
        retry.path = ServerCommitPath::kRetry;
        retry.max_attempts = 100;  // bounded, but far more than three writers can take from it
        auto done = CommitTableOnServer(*catalog, c, retry);
        if (!done) {
          ADD_FAILURE() << done.error().ToString();
          ++refused;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(refused.load(), 0);
  EXPECT_EQ(catalog_->LoadTable(kTable)->metadata.properties.size() >= 30, true);
}

using testing_env::SlowCatalog;

TEST_F(TableCommitServiceTest, GroupCommitLandsEveryoneInOneChainAndFailsTheBadRequestAlone) {
  Append(*catalog_, {File("seed")});
  constexpr int kClients = 6;
  std::vector<TableCommit> commits;
  for (int c = 0; c < kClients; ++c) commits.push_back(Captured(FastAppend({File("g" + std::to_string(c))})));
  // One request asserts a schema the table does not have.
  commits[3].requirements.push_back(AssertCurrentSchemaId{7});
  SlowCatalog slow(Open(), std::chrono::milliseconds(300));
  // The server's contention state (floe serve owns one): its group-commit queues.
  ContentionScheduler contention;
  ServerCommitOptions grouped;
  grouped.contention = &contention;
  std::vector<std::optional<Result<SharedTable>>> results(kClients);
  std::vector<std::thread> threads;
  // The first request holds the swap; the rest arrive while it is in flight.
  threads.emplace_back([&] { results[0] = CommitTableOnServer(slow, commits[0], grouped); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  for (int c = 1; c < kClients; ++c) {
    threads.emplace_back([&, c] { results[c] = CommitTableOnServer(slow, commits[c], grouped); });
  }
  for (auto& t : threads) t.join();

  for (int c = 0; c < kClients; ++c) {
    ASSERT_TRUE(results[c]);
    if (c == 3) {
      ASSERT_FALSE(*results[c]);
      EXPECT_EQ(results[c]->error().kind, ErrorKind::kCommitConflict);
      EXPECT_NE(results[c]->error().message.find("current schema"), std::string::npos) << results[c]->error().message;
      continue;
    }
    ASSERT_TRUE(*results[c]) << results[c]->error().ToString();
    EXPECT_TRUE((**results[c]).metadata->SnapshotById(SnapshotIdOf(commits[c]))) << "client " << c;
  }
  EXPECT_EQ(slow.swaps.load(), 2);  // the first alone, the other four together
  auto table = catalog_->LoadTable(kTable);
  auto chain = Chain(table->metadata);
  EXPECT_EQ(chain.size(), 1u + kClients - 1);
  std::set<int64_t> ids;
  for (const Snapshot* s : chain) ids.insert(s->snapshot_id);
  for (int c = 0; c < kClients; ++c) EXPECT_EQ(ids.count(SnapshotIdOf(commits[c])), c == 3 ? 0u : 1u);
  auto live = LiveFiles();
  EXPECT_EQ(live.size(), static_cast<size_t>(kClients));  // seed + 5, each exactly once
  EXPECT_EQ(live.count(File("g3").file_path), 0u);
}
}  // namespace
}  // namespace floe

namespace floe {
namespace {

// `commit`'s snapshot with its manifest list rewritten without the manifests `drop` names; true
// when one was left out.
bool LeaveOut(FileIO& io, const TableMetadata& table, TableCommit& commit, const std::set<std::string>& drop) {
  for (auto& u : commit.updates) {
    auto* add = std::get_if<AddSnapshot>(&u);
    if (!add) continue;
    auto listed = ReadManifestList(io, table, add->snapshot);
    EXPECT_TRUE(listed) << listed.error().ToString();
    if (!listed) return false;
    std::vector<ManifestFile> kept;
    for (const auto& m : *listed) {
      if (!drop.count(m.manifest_path)) kept.push_back(m);
    }
    if (kept.size() == listed->size()) return false;
    Snapshot& s = add->snapshot;
    s.manifest_list = MetadataFolder(table) + "/snap-" + std::to_string(s.snapshot_id) + "-left-out.avro";
    Status written = WriteManifestListFile(io, table, kept, s.snapshot_id, s.parent_snapshot_id, s.sequence_number,
                                           s.manifest_list);
    EXPECT_TRUE(written) << written.error().ToString();
    return bool(written);
  }
  return false;
}

// Iceberg Java and PyIceberg leave a manifest whose entries are all DELETED out of their next
// snapshot's list (Spark's append after PyIceberg's delete did: tests/interop/seeds_race_test.py).
// Such a snapshot still only adds files and is rebased; one that leaves out a live manifest is not.
TEST_F(TableCommitServiceTest, AppendLeavingOutAManifestWithoutLiveFilesIsRebased) {
  Append(*catalog_, {File("a")});
  Append(*catalog_, {File("b")});
  const int64_t start = catalog_->LoadTable(kTable)->metadata.CurrentSnapshot()->snapshot_id;
  {
    FilesOperation del(CopyOnWrite({File("a")}, {}, start, True(), IsolationLevel::kSerializable));
    auto done = CommitOperation(*catalog_, kTable, del);
    ASSERT_TRUE(done) << done.error().ToString();
  }
  auto base = catalog_->LoadTable(kTable);
  ASSERT_TRUE(base);
  auto manifests = ReadManifestList(*catalog_->io(), base->metadata, *base->metadata.CurrentSnapshot());
  ASSERT_TRUE(manifests) << manifests.error().ToString();
  std::set<std::string> dead, live;
  for (const auto& m : *manifests) {
    (m.has_added_files() || m.has_existing_files() ? live : dead).insert(m.manifest_path);
  }
  ASSERT_FALSE(dead.empty()) << "the delete left no manifest of DELETED entries only";
  ASSERT_FALSE(live.empty());

  TableCommit stale = Captured(FastAppend({File("c")}));
  LeaveOut(*catalog_->io(), base->metadata, stale, dead);
  TableCommit dropping_live = Captured(FastAppend({File("e")}));
  ASSERT_TRUE(LeaveOut(*catalog_->io(), base->metadata, dropping_live, live));
  Append(*catalog_, {File("d")});  // the branch moves on

  auto landed = CommitTableOnServer(*catalog_, stale);
  ASSERT_TRUE(landed) << landed.error().ToString();
  EXPECT_EQ(landed->metadata->CurrentSnapshot()->snapshot_id, SnapshotIdOf(stale));
  auto files = LiveFiles();
  EXPECT_EQ(files.size(), 3u);
  for (const char* name : {"b", "c", "d"}) EXPECT_EQ(files.count(File(name).file_path), 1u) << name;

  auto refused = CommitTableOnServer(*catalog_, dropping_live);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(LiveFiles().count(File("b").file_path), 1u);
}

// Iceberg Java's MergeAppend (and floe's own) folds the table's small manifests into the one it
// writes once a table has commit.manifest.min-count-to-merge of them: its list then leaves the
// merged manifests out and lists one manifest of EXISTING entries beside its own ADDED ones. The
// server rebases it like any append: the new head's manifests plus only the append's own files,
// so a file the head deleted meanwhile stays deleted, none is listed twice and none is lost.
TEST_F(TableCommitServiceTest, MergedAppendIsRebasedWithItsOwnFilesOnly) {
  ASSERT_TRUE(catalog_->CommitTable(TableCommit{kTable, {}, {SetProperties{{{"commit.manifest.min-count-to-merge", "2"}}}}}));
  Append(*catalog_, {File("a")});
  Append(*catalog_, {File("b")});
  const TableMetadata base = catalog_->LoadTable(kTable)->metadata;
  const int64_t start = base.CurrentSnapshot()->snapshot_id;
  TableCommit merged = Captured(MergeAppend({File("m1"), File("m2")}));
  // It did merge: its list left out both manifests of its base and lists EXISTING entries.
  Snapshot sent;
  for (const auto& u : merged.updates) {
    if (auto* add = std::get_if<AddSnapshot>(&u)) sent = add->snapshot;
  }
  auto listed = ReadManifestList(*catalog_->io(), base, sent);
  ASSERT_TRUE(listed) << listed.error().ToString();
  ASSERT_EQ(listed->size(), 1u);
  ASSERT_TRUE(listed->front().has_existing_files());

  // Meanwhile another writer deletes a and appends c.
  {
    FilesOperation del(CopyOnWrite({File("a")}, {}, start, True(), IsolationLevel::kSerializable));
    auto done = CommitOperation(*catalog_, kTable, del);
    ASSERT_TRUE(done) << done.error().ToString();
  }
  Append(*catalog_, {File("c")});

  auto landed = CommitTableOnServer(*catalog_, merged);
  ASSERT_TRUE(landed) << landed.error().ToString();
  const Snapshot* head = landed->metadata->CurrentSnapshot();
  EXPECT_EQ(head->snapshot_id, SnapshotIdOf(merged));
  EXPECT_EQ(head->summary.at("total-data-files"), "4");
  auto live = LiveFiles();  // fails on a file listed twice
  EXPECT_EQ(live.size(), 4u);
  EXPECT_EQ(live.count(File("a").file_path), 0u) << "the concurrent delete survives";
  for (const char* name : {"b", "c", "m1", "m2"}) EXPECT_EQ(live.count(File(name).file_path), 1u) << name;
  EXPECT_EQ(live.at(File("m1").file_path), head->sequence_number);
  EXPECT_LT(live.at(File("b").file_path), live.at(File("c").file_path));
}

// A merged append whose list leaves out a manifest of its base without carrying its files over
// drops them: it is not an append, and goes back to its writer.
TEST_F(TableCommitServiceTest, MergedAppendThatDropsAFileIsNotRebased) {
  ASSERT_TRUE(catalog_->CommitTable(TableCommit{kTable, {}, {SetProperties{{{"commit.manifest.min-count-to-merge", "2"}}}}}));
  Append(*catalog_, {File("a")});
  Append(*catalog_, {File("b")});
  const TableMetadata base = catalog_->LoadTable(kTable)->metadata;
  std::set<std::string> base_manifests;
  auto base_list = ReadManifestList(*catalog_->io(), base, *base.CurrentSnapshot());
  ASSERT_TRUE(base_list);
  for (const auto& m : *base_list) base_manifests.insert(m.manifest_path);
  // The merge of b and a, with a's entry taken out of the merged manifest.
  TableCommit merged = Captured(MergeAppend({File("m1")}));
  for (auto& u : merged.updates) {
    auto* add = std::get_if<AddSnapshot>(&u);
    if (!add) continue;
    auto listed = ReadManifestList(*catalog_->io(), base, add->snapshot);
    ASSERT_TRUE(listed);
    ASSERT_EQ(listed->size(), 1u);
    ManifestFile m = listed->front();
    ManifestReadOptions options;
    options.table = &base;
    auto bytes = catalog_->io()->ReadAll(m.manifest_path);
    ASSERT_TRUE(bytes);
    auto reader = ManifestReader::Open(*bytes, m.manifest_path, options);
    ASSERT_TRUE(reader);
    std::vector<ManifestEntry> kept;
    ManifestEntry e;
    while (reader->Next(&e).value_or(false)) {
      if (e.file.file_path != File("a").file_path) kept.push_back(e);
    }
    ASSERT_EQ(kept.size(), 2u);
    const std::string path = MetadataFolder(base) + "/dropping-a-m0.avro";
    auto written = WriteManifestFile(*catalog_->io(), base, m.partition_spec_id, ManifestContent::kData, kept, path);
    ASSERT_TRUE(written) << written.error().ToString();
    written->added_snapshot_id = m.added_snapshot_id;
    Snapshot& s = add->snapshot;
    s.manifest_list = MetadataFolder(base) + "/snap-" + std::to_string(s.snapshot_id) + "-dropping-a.avro";
    ASSERT_TRUE(WriteManifestListFile(*catalog_->io(), base, {*written}, s.snapshot_id, s.parent_snapshot_id,
                                      s.sequence_number, s.manifest_list));
  }
  Append(*catalog_, {File("c")});
  auto refused = CommitTableOnServer(*catalog_, merged);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  auto live = LiveFiles();
  EXPECT_EQ(live.size(), 3u);
  EXPECT_EQ(live.count(File("a").file_path), 1u);
  EXPECT_EQ(live.count(File("m1").file_path), 0u);
}

}  // namespace
}  // namespace floe
