#include "contention/table_turns.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "rows/row_writes.h"
#include "contention/slow_catalog_test_util.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;
using testing_env::SlowCatalog;

// Parties are only compared: any distinct addresses do.
int turn_parties[3];
const TurnQueue::Party kTurnA = &turn_parties[0], kTurnB = &turn_parties[1], kTurnC = &turn_parties[2];

constexpr int64_t kTurnSecond = 1'000'000;

TEST(TurnQueue, AnIdleTableOrItsOwnPartysTurnStartsAtOnceAndAnotherPartyWaits) {
  TurnQueue q;
  const auto a1 = q.TryAdmit(q.Enter(kTurnA, 0), 0);
  ASSERT_TRUE(a1);
  // The same party, nobody waiting: it joins the turn (the group commit needs the overlap).
  const auto a2 = q.TryAdmit(q.Enter(kTurnA, 1), 1);
  ASSERT_TRUE(a2);
  EXPECT_EQ(a2->turn, a1->turn);
  const uint64_t b = q.Enter(kTurnB, 2);
  EXPECT_FALSE(q.TryAdmit(b, 3));
  q.Leave(*a1, 10, "landed.metadata.json");
  EXPECT_FALSE(q.TryAdmit(b, 11));  // one attempt of A still runs
  q.Leave(*a2, 12, "landed.metadata.json");
  const auto b1 = q.TryAdmit(b, 13);
  ASSERT_TRUE(b1);
  EXPECT_NE(b1->turn, a1->turn);
  q.Leave(*b1, 20, "");
  EXPECT_TRUE(q.idle());
}

TEST(TurnQueue, PartiesGoInArrivalOrderAndAPartysWaitersGoTogether) {
  TurnQueue q;
  const auto a = q.TryAdmit(q.Enter(kTurnA, 0), 0);
  ASSERT_TRUE(a);
  const uint64_t b1 = q.Enter(kTurnB, 1), c = q.Enter(kTurnC, 2), a2 = q.Enter(kTurnA, 3), b2 = q.Enter(kTurnB, 4);
  // Someone waits, so A's second attempt does not join A's turn: it queues.
  EXPECT_FALSE(q.TryAdmit(a2, 5));
  EXPECT_FALSE(q.TryAdmit(c, 5));
  q.Leave(*a, 10, "landed.metadata.json");
  // B's turn: both of B's waiters, the second past C and A in the queue.
  const auto first_b = q.TryAdmit(b1, 11);
  ASSERT_TRUE(first_b);
  const auto second_b = q.TryAdmit(b2, 12);
  ASSERT_TRUE(second_b);
  EXPECT_EQ(second_b->turn, first_b->turn);
  EXPECT_FALSE(q.TryAdmit(c, 12));
  EXPECT_FALSE(q.TryAdmit(a2, 12));
  q.Leave(*first_b, 20, "landed.metadata.json");
  EXPECT_FALSE(q.TryAdmit(c, 21));
  q.Leave(*second_b, 22, "landed.metadata.json");
  EXPECT_FALSE(q.TryAdmit(a2, 23));  // C arrived first
  const auto c1 = q.TryAdmit(c, 23);
  ASSERT_TRUE(c1);
  q.Leave(*c1, 30, "landed.metadata.json");
  ASSERT_TRUE(q.TryAdmit(a2, 31));
}

TEST(TurnQueue, AWaiterAtTheFrontTakesOverATurnThatOutlastsItsLimit) {
  TurnQueue q(TurnLimits{.min_turn_us = kTurnSecond, .max_turn_us = 30 * kTurnSecond, .turn_attempts = 4, .wait_turns = 8});
  const auto a = q.TryAdmit(q.Enter(kTurnA, 0), 0);
  ASSERT_TRUE(a);
  const uint64_t b = q.Enter(kTurnB, 100);
  EXPECT_EQ(q.WaitUntil(b), 100 + kTurnSecond);
  EXPECT_FALSE(q.TryAdmit(b, 100 + kTurnSecond - 1));
  const auto b1 = q.TryAdmit(b, 100 + kTurnSecond);
  ASSERT_TRUE(b1);
  EXPECT_NE(b1->turn, a->turn);
  // A's late end no longer ends anyone's turn: C still waits for B.
  const uint64_t c = q.Enter(kTurnC, 2 * kTurnSecond);
  q.Leave(*a, 2 * kTurnSecond + 1, "");
  EXPECT_FALSE(q.TryAdmit(c, 2 * kTurnSecond + 2));
  q.Leave(*b1, 2 * kTurnSecond + 3, "landed.metadata.json");
  EXPECT_TRUE(q.TryAdmit(c, 2 * kTurnSecond + 4));
}

TEST(TurnQueue, NoWaiterWaitsLongerThanItsBoundHoweverLongTheQueue) {
  TurnQueue q(TurnLimits{.min_turn_us = kTurnSecond, .max_turn_us = 30 * kTurnSecond, .turn_attempts = 4, .wait_turns = 8});
  ASSERT_TRUE(q.TryAdmit(q.Enter(kTurnA, 0), 0));
  std::vector<int> parties(12);
  std::vector<uint64_t> waiters;
  for (int& p : parties) waiters.push_back(q.Enter(&p, 0));
  const uint64_t last = waiters.back();
  EXPECT_EQ(q.WaitUntil(last), 8 * kTurnSecond);
  EXPECT_FALSE(q.TryAdmit(last, 8 * kTurnSecond - 1));
  const auto beside = q.TryAdmit(last, 8 * kTurnSecond);
  ASSERT_TRUE(beside);
  EXPECT_EQ(beside->turn, 0u);  // beside the turns, as without them
  // The queue's front waits its own (shorter) bound: a turn limit once at the front.
  EXPECT_EQ(q.WaitUntil(waiters.front()), kTurnSecond);
}

TEST(TurnQueue, TheTurnLimitFollowsTheTurnsThatLandedWithinItsBounds) {
  TurnQueue q(TurnLimits{.min_turn_us = kTurnSecond, .max_turn_us = 30 * kTurnSecond, .turn_attempts = 4, .wait_turns = 8});
  EXPECT_EQ(q.TurnLimitUs(), kTurnSecond);  // nothing measured yet: the floor
  int64_t t = 0;
  auto land = [&](int64_t took) {
    const auto g = q.TryAdmit(q.Enter(kTurnA, t), t);
    ASSERT_TRUE(g);
    t += took;
    q.Leave(*g, t, "landed.metadata.json");
  };
  land(500'000);
  EXPECT_EQ(q.TurnLimitUs(), 2 * kTurnSecond);
  for (int i = 0; i < 40; ++i) land(100 * kTurnSecond);
  EXPECT_EQ(q.TurnLimitUs(), 30 * kTurnSecond);
  // A turn that did not land says nothing about how long one takes, nor that the table moved.
  const int64_t landed = q.last_landed_us();
  const auto g = q.TryAdmit(q.Enter(kTurnA, t), t);
  ASSERT_TRUE(g);
  q.Leave(*g, t + 1, "");
  EXPECT_EQ(q.last_landed_us(), landed);
  EXPECT_EQ(q.TurnLimitUs(), 30 * kTurnSecond);
}

// Real threads: another party's Take blocks until the turn ends, and the same thread's nested
// Take does not (it would wait for itself). Limits of a minute: no takeover in this test.
TEST(TableTurns, AnotherPartyWaitsForTheTurnButTheHoldingThreadDoesNot) {
  TableTurns turns(TurnLimits{.min_turn_us = 60 * kTurnSecond, .max_turn_us = 60 * kTurnSecond, .turn_attempts = 1,
                              .wait_turns = 1});
  TableTurns::Turn a = turns.Take(kTurnA);
  EXPECT_FALSE(a.nested());
  TableTurns::Turn nested = turns.Take(kTurnB);
  EXPECT_TRUE(nested.nested());
  nested.End("v2.metadata.json");
  std::atomic<bool> b_started{false};
  std::thread other([&] {
    TableTurns::Turn b = turns.Take(kTurnB);
    b_started = true;
    EXPECT_GT(b.waited_us(), 0);
    EXPECT_TRUE(b.LandedSince(0));  // A landed while it waited, and left the table here:
    EXPECT_EQ(b.landed_location(), "v3.metadata.json");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(b_started.load());
  a.End("v3.metadata.json");
  other.join();
  EXPECT_TRUE(b_started.load());
}

struct TurnRaceResult {
  int conflicts = 0;
  std::vector<std::string> failures;
};

// `parties` catalog objects (each swap held 10 ms, so that attempts overlap as they do on an
// object store), `threads_each` threads on each, every thread appending `batches` batches.
TurnRaceResult TurnRace(OrdersTable& t, std::vector<std::unique_ptr<SlowCatalog>>& catalogs, int threads_each, int batches,
                std::vector<Order>& expected) {
  TurnRaceResult result;
  std::mutex mu;
  std::vector<std::thread> threads;
  for (size_t c = 0; c < catalogs.size(); ++c) {
    for (int w = 0; w < threads_each; ++w) {
      const int writer = static_cast<int>(c) * threads_each + w;
      for (int b = 0; b < batches; ++b)
        for (int row = 0; row < 2; ++row) expected.push_back(Order{writer * 1000 + b * 10 + row, "DE", writer});
      threads.emplace_back([&, c, writer] {
        for (int b = 0; b < batches; ++b) {
          auto done = AppendBatch(*catalogs[c], t.id(),
                                  Batch({{writer * 1000 + b * 10, "DE", writer}, {writer * 1000 + b * 10 + 1, "DE", writer}}));
          std::lock_guard lock(mu);
          if (!done) {
            result.failures.push_back(done.error().ToString());
          } else {
            result.conflicts += done->commit.conflicts;
          }
        }
      });
    }
  }
  for (auto& th : threads) th.join();
  std::sort(expected.begin(), expected.end());
  return result;
}

std::vector<std::unique_ptr<SlowCatalog>> SlowCatalogsOn(OrdersTable& t, int n) {
  std::vector<std::unique_ptr<SlowCatalog>> catalogs;
  for (int i = 0; i < n; ++i) catalogs.push_back(std::make_unique<SlowCatalog>(t.Open(), std::chrono::milliseconds(10)));
  return catalogs;
}

TEST(TableTurns, ThreadsOnSeparateCatalogObjectsLoseNoRaceToEachOther) {
  OrdersTable t("country", {{"commit.retry.num-retries", "100"}});
  constexpr int kWriters = 6, kBatches = 3;
  auto catalogs = SlowCatalogsOn(t, kWriters);
  std::vector<Order> expected;
  const TurnRaceResult r = TurnRace(t, catalogs, 1, kBatches, expected);
  ASSERT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(t.Rows(), expected);
  EXPECT_EQ(t.Metadata().snapshots.size(), static_cast<size_t>(kWriters * kBatches));
  // None, unless the machine stalled an attempt past its turn limit (a second); racing
  // without turns, 6 writers whose swaps take 10 ms lose dozens of races.
  EXPECT_LT(r.conflicts, kWriters) << "lost races between threads of one process";
}

TEST(TableTurns, ThreadsSharingACatalogObjectStillShareSwaps) {
  OrdersTable t("country", {{"commit.retry.num-retries", "100"}});
  constexpr int kParties = 2, kThreads = 4, kBatches = 3;
  auto catalogs = SlowCatalogsOn(t, kParties);
  std::vector<Order> expected;
  const TurnRaceResult r = TurnRace(t, catalogs, kThreads, kBatches, expected);
  ASSERT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(t.Rows(), expected);
  EXPECT_EQ(t.Metadata().snapshots.size(), static_cast<size_t>(kParties * kThreads * kBatches));
  // The appends of one catalog object's threads went in groups: fewer swaps than commits.
  int swaps = 0;
  for (const auto& c : catalogs) swaps += c->swaps.load();
  EXPECT_LT(swaps, kParties * kThreads * kBatches);
}

}  // namespace
}  // namespace floe
