// The library's group commit: threads of one process appending to one table through one
// Catalog object share swaps (contention/group_commit.h), on a real SQLite catalog whose swap is held
// a little, so that commits arrive while one is in flight as they do under load.
#include "contention/group_commit.h"

#include "contention/contention_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "io/fault_injecting_file_io.h"
#include "rows/row_writes.h"
#include "contention/slow_catalog_test_util.h"
#include "commit/snapshot_refs.h"
#include "rows/table_test_util.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;
using testing_env::SlowCatalog;

// main's snapshots, newest first.
std::vector<const Snapshot*> MainChain(const TableMetadata& m) {
  std::vector<const Snapshot*> chain;
  for (const Snapshot* s = m.CurrentSnapshot(); s;
       s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    chain.push_back(s);
  }
  return chain;
}

// Each writer's batches: orders writer * 1000 + batch * 10 + row, one country per writer.
std::vector<Order> BatchOf(int writer, int batch) {
  std::vector<Order> orders;
  for (int row = 0; row < 3; ++row) {
    orders.push_back(Order{writer * 1000 + batch * 10 + row, "C" + std::to_string(writer), writer + row});
  }
  return orders;
}

struct Landed {
  int64_t snapshot_id = 0;
  int64_t sequence_number = 0;
  std::string metadata_location;
};

// The files in the table's metadata folder other than metadata documents: manifests and
// manifest lists, each of which a snapshot must reach.
std::set<std::string> ManifestFiles(const TableMetadata& m) {
  std::set<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(MetadataFolder(m))) {
    const std::string path = entry.path().string();
    if (path.ends_with(".avro")) out.insert(path);
  }
  return out;
}

TEST(CommitQueue, EveryTicketOfAGroupIsAnsweredOnItsOwnThread) {
  ContentionScheduler scheduler;
  std::shared_ptr<CommitQueue> queue = scheduler.QueueOf("test|queue|db.t");
  std::atomic<int> groups{0}, largest{0};
  std::vector<std::thread> threads;
  std::vector<TableCommit> commits(8);
  std::vector<std::string> answers(8);
  for (int i = 0; i < 8; ++i) {
    commits[i].id = TableIdentifier{{"db"}, "t" + std::to_string(i)};
    threads.emplace_back([&, i] {
      CommitQueue::Ticket ticket;
      ticket.commit = &commits[i];
      auto r = queue->Submit(ticket, [&](const std::vector<CommitQueue::Ticket*>& group) {
        ++groups;
        largest = std::max<int>(largest, static_cast<int>(group.size()));
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        for (auto* t : group) t->result = SharedTable{t->commit->id, "answer-" + t->commit->id.name, nullptr};
      });
      answers[i] = r ? r->metadata_location : r.error().message;
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(answers[i], "answer-t" + std::to_string(i));
  EXPECT_LT(groups.load(), 8);  // requests that waited went together
  EXPECT_GT(largest.load(), 1);
}

TEST(LibraryGroupCommit, EightThreadsAppendingToOneTableShareSwapsAndLandEveryBatchOnce) {
  OrdersTable t;
  SlowCatalog slow(t.Open(), std::chrono::milliseconds(15));
  constexpr int kWriters = 8, kBatches = 4;
  std::vector<std::vector<Landed>> landed(kWriters);
  std::vector<std::string> failures;
  std::mutex failures_mu;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int b = 0; b < kBatches; ++b) {
        auto done = AppendBatch(slow, t.id(), Batch(BatchOf(w, b)));
        if (!done) {
          std::lock_guard lock(failures_mu);
          failures.push_back(done.error().ToString());
          continue;
        }
        landed[w].push_back(
            Landed{done->commit.snapshot_id, done->commit.sequence_number, done->commit.metadata_location});
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE(failures.empty()) << failures.front();

  // Every batch exactly once.
  std::vector<Order> expected;
  for (int w = 0; w < kWriters; ++w)
    for (int b = 0; b < kBatches; ++b)
      for (const Order& o : BatchOf(w, b)) expected.push_back(o);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(t.Rows(), expected);

  // One chain, sequence numbers strictly increasing, each writer's answer in it as answered.
  const TableMetadata m = t.Metadata();
  const auto chain = MainChain(m);
  ASSERT_EQ(chain.size(), static_cast<size_t>(kWriters * kBatches));
  for (size_t i = 0; i + 1 < chain.size(); ++i) EXPECT_GT(chain[i]->sequence_number, chain[i + 1]->sequence_number);
  std::map<int64_t, int64_t> sequence_of;
  for (const Snapshot* s : chain) sequence_of[s->snapshot_id] = s->sequence_number;
  std::set<std::string> documents;
  for (const auto& mine : landed) {
    for (const Landed& l : mine) {
      ASSERT_TRUE(sequence_of.count(l.snapshot_id)) << "snapshot " << l.snapshot_id << " answered but not in main";
      EXPECT_EQ(sequence_of[l.snapshot_id], l.sequence_number);
      documents.insert(l.metadata_location);
    }
  }
  // Coalesced: fewer swaps and documents than commits.
  EXPECT_LT(slow.swaps.load(), kWriters * kBatches);
  EXPECT_LT(documents.size(), static_cast<size_t>(kWriters * kBatches));
  // No manifest list a rebase replaced, and no lost attempt's file, is left behind.
  auto reachable = txn_test::ReachableFiles(t.catalog(), m);
  for (const auto& path : ManifestFiles(m)) EXPECT_TRUE(reachable.count(path)) << "unreferenced: " << path;
}

TEST(LibraryGroupCommit, AnAppendRefusedInAGroupFailsAloneAndTheOthersLand) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  ASSERT_TRUE(CreateBranch(t.catalog(), t.id(), "side", std::nullopt, RefRetention{}).has_value());
  SlowCatalog slow(t.Open(), std::chrono::milliseconds(15));
  constexpr int kWriters = 8, kBatches = 3;
  std::vector<Result<RowWriteResult>> doomed;
  std::vector<std::string> failures;
  std::mutex mu;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int b = 0; b < kBatches; ++b) {
        RowWriteOptions options;
        if (w == 0 && b == 1) {
          // Written for branch side, which another writer removes before this one swaps: its
          // writer's retry would find no branch, and the group must not re-create it.
          options.commit.branch = "side";
          options.commit.before_swap = [&](int attempt) {
            if (attempt == 1) EXPECT_TRUE(DropBranch(t.catalog(), t.id(), "side").has_value());
          };
        }
        auto done = AppendBatch(slow, t.id(), Batch(BatchOf(w, b)), options);
        std::lock_guard lock(mu);
        if (w == 0 && b == 1) {
          doomed.push_back(std::move(done));
        } else if (!done) {
          failures.push_back(done.error().ToString());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE(failures.empty()) << failures.front();
  ASSERT_EQ(doomed.size(), 1u);
  ASSERT_FALSE(doomed[0]);
  EXPECT_EQ(doomed[0].error().kind, ErrorKind::kNotFound) << doomed[0].error().ToString();

  const TableMetadata m = t.Metadata();
  EXPECT_FALSE(m.refs.count("side"));
  std::vector<Order> expected{{1, "DE", 1}};
  for (int w = 0; w < kWriters; ++w)
    for (int b = 0; b < kBatches; ++b)
      if (!(w == 0 && b == 1))
        for (const Order& o : BatchOf(w, b)) expected.push_back(o);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(t.Rows(), expected);
  EXPECT_EQ(MainChain(m).size(), 1u + kWriters * kBatches - 1);
  EXPECT_LT(slow.swaps.load(), kWriters * kBatches - 1);  // the others shared swaps
}

// A catalog that keeps each commit it is handed (its files written) instead of swapping it,
// and answers with an error that leaves the writer's files in place: commits to replay.
class HoldingCatalog : public FaultInjectingCatalog {
 public:
  using FaultInjectingCatalog::FaultInjectingCatalog;
  Result<LoadedTable> CommitTable(const TableCommit& commit) override {
    if (commit.await_files) EXPECT_TRUE(commit.await_files().has_value());
    held.push_back(commit);
    held.back().await_files = nullptr;
    return std::unexpected(Error{ErrorKind::kIOError, "held by the test"});
  }
  std::vector<TableCommit> held;
};

TEST(GroupCommit, AListRebasedForACommitThatIsThenRefusedIsDeleted) {
  OrdersTable t;
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}})).has_value());
  // Two appends built on the same head, as two clients' requests arriving together.
  HoldingCatalog holding(t.Open());
  for (int w = 0; w < 2; ++w) {
    RowWriteOptions options;
    options.commit.coalesce_appends = false;
    EXPECT_FALSE(AppendBatch(holding, t.id(), Batch(BatchOf(w, 0)), options).has_value());
  }
  ASSERT_EQ(holding.held.size(), 2u);
  // The second is rebased onto the first; the write of its rebased list takes effect but
  // its answer is lost, so the rebase fails and that commit is refused.
  FaultInjectingCatalog group(t.Open());
  auto io = std::make_shared<FaultInjectingFileIO>(t.catalog().io());
  io->AddRule({.op = FileOp::kCreateIfAbsent, .path_contains = "-rebased-", .apply_then_fail = true});
  group.HandOutFileIO(io);
  CommitQueue::Ticket first, second;
  first.commit = &holding.held[0];
  second.commit = &holding.held[1];
  CommitGroup(group, GroupCommitOptions{1, "the test"}, {&first, &second});
  ASSERT_TRUE(first.result && first.result->has_value()) << first.result->error().ToString();
  ASSERT_TRUE(second.result && !second.result->has_value());
  EXPECT_EQ(io->InjectedFaults(), 1);

  const TableMetadata m = t.Metadata();
  EXPECT_EQ(MainChain(m).size(), 2u);
  for (const auto& path : ManifestFiles(m))
    EXPECT_EQ(path.find("-rebased-"), std::string::npos) << "left for the listing sweep: " << path;
}

TEST(LibraryGroupCommit, OffEveryAppendSwapsAlone) {
  OrdersTable t;
  SlowCatalog slow(t.Open(), std::chrono::milliseconds(5));
  constexpr int kWriters = 4, kBatches = 3;
  std::vector<std::thread> threads;
  std::atomic<int> landed{0};
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int b = 0; b < kBatches; ++b) {
        RowWriteOptions options;
        options.commit.coalesce_appends = false;
        if (AppendBatch(slow, t.id(), Batch(BatchOf(w, b)), options)) ++landed;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(landed.load(), kWriters * kBatches);
  EXPECT_GE(slow.swaps.load(), kWriters * kBatches);  // one swap per landed commit, plus lost ones
}

}  // namespace
}  // namespace floe
