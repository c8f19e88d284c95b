#include "txn/commit_pacing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <vector>

namespace floe {
namespace {

RetryPolicy Policy(int64_t min_wait_ms, int64_t max_wait_ms) {
  RetryPolicy p;
  p.min_wait_ms = min_wait_ms;
  p.max_wait_ms = max_wait_ms;
  return p;
}

// Time that moves only when a test moves it (microseconds).
struct TestClock {
  int64_t us = 1'000'000'000;
  CommitPacer::Now now() {
    return [this] { return us; };
  }
};

// Races lost to threads of the same process: one of them landed while each lost attempt ran.
// The test's clock does not move, so one landing (`Landed`) falls inside every later attempt.

TEST(CommitPacer, WithoutContentionAFirstAttemptStartsAtOnce) {
  CommitPacer pacer(1);
  EXPECT_EQ(pacer.FirstAttemptWaitUs(Policy(100, 60000)), 0);
  pacer.Landed(5000);
  EXPECT_EQ(pacer.FirstAttemptWaitUs(Policy(100, 60000)), 0);
}

TEST(CommitPacer, RetryWaitsHonourMinAndMaxWaitAndAreSpread) {
  const RetryPolicy policy = Policy(100, 400);
  CommitPacer pacer(2);
  std::set<int64_t> distinct;
  for (int i = 0; i < 200; ++i) {
    // Full jitter: anywhere from 0 up to the window, which max-wait-ms bounds.
    const int64_t wait = pacer.LostAttemptWaitUs(policy, 50'000);
    EXPECT_GE(wait, 0);
    EXPECT_LE(wait, 400'000);
    distinct.insert(wait);
  }
  EXPECT_GT(distinct.size(), 100u);  // jittered, so processes do not wake in lock step
}

TEST(CommitPacer, LossesRaiseTheLevelAndLandingsLowerIt) {
  TestClock clock;
  CommitPacer pacer(3, clock.now());
  const RetryPolicy policy = Policy(1, 50);
  for (int i = 0; i < 3; ++i) (void)pacer.LostAttemptWaitUs(policy, 1000);
  EXPECT_EQ(pacer.level(), 3);
  pacer.Landed(1000);
  EXPECT_EQ(pacer.level(), 2);
  pacer.Landed(1000);
  pacer.Landed(1000);
  pacer.Landed(1000);
  EXPECT_EQ(pacer.level(), 0);
  clock.us += 1'100'000;  // more than a second since the last loss: the contention has passed
  EXPECT_EQ(pacer.FirstAttemptWaitUs(policy), 0);
}

TEST(CommitPacer, BetweenThreadsWaitsGrowWithContentionUpToFourAttemptsAndNeverPastMaxWait) {
  auto mean_wait_at = [](int losses, const RetryPolicy& policy) {
    TestClock clock;
    CommitPacer pacer(4, clock.now());
    int64_t sum = 0;
    const int draws = 400;
    pacer.Landed(2000);  // another thread's, inside every attempt below
    for (int i = 0; i < losses - 1; ++i) (void)pacer.LostAttemptWaitUs(policy, 2000);
    for (int i = 0; i < draws; ++i) {
      sum += pacer.LostAttemptWaitUs(policy, 2000);
      pacer.Landed(2000);  // back to `losses - 1`, so the next draw is at `losses` again
    }
    return static_cast<double>(sum) / draws;
  };
  const RetryPolicy roomy = Policy(0, 1000);
  // Level n: span = 2 ms * 2^min(n, 2), mean about half of it.
  const double at1 = mean_wait_at(1, roomy), at2 = mean_wait_at(2, roomy), at12 = mean_wait_at(12, roomy);
  EXPECT_GT(at2, 1.5 * at1);
  EXPECT_LT(at12, 8'000 * 0.6);  // four attempts of 2 ms at most, however many losses: mean 4 ms
  EXPECT_GT(at12, 8'000 * 0.4);
  const RetryPolicy tight = Policy(0, 3);
  EXPECT_LE(mean_wait_at(12, tight), 3'000);  // max-wait-ms still bounds every wait
}

TEST(CommitPacer, AcrossProcessesTheRetryWindowDoesNotGrowWithTheProcesssOwnLosses) {
  // Quick attempts (1 ms), Iceberg's defaults, and races lost to another process (none of
  // this process's attempts landed): however many in a row, a retry waits in [0, min-wait-ms].
  // A window doubling per loss would push this process back behind the one that keeps winning.
  TestClock clock;
  CommitPacer pacer(8, clock.now());
  const RetryPolicy defaults = Policy(100, 60'000);
  pacer.Landed(1000);
  int64_t longest = 0, sum = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    clock.us += 10'000;
    const int64_t wait = pacer.LostAttemptWaitUs(defaults, 1000);
    longest = std::max(longest, wait);
    sum += wait;
  }
  EXPECT_EQ(pacer.level(), 16);  // the level still counts the losses (it widens waits between threads)
  EXPECT_LE(longest, 100'000);
  EXPECT_GT(longest, 90'000);
  EXPECT_NEAR(static_cast<double>(sum) / draws, 50'000, 10'000);
}

TEST(CommitPacer, AfterLosingToAnotherProcessAWinnerWaitsAsTheLosersDo) {
  // Process A lost one race and then won several; process B lost race after race. A's next
  // first attempt and B's next retry wait in the same window, so A's wins give it no head
  // start. A minute without contention later, A starts at once again.
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer a(9, clock.now()), b(10, clock.now());
  (void)a.LostAttemptWaitUs(defaults, 3000);
  for (int i = 0; i < 5; ++i) {
    clock.us += 5000;
    a.Landed(3000);
    (void)b.LostAttemptWaitUs(defaults, 3000);
  }
  EXPECT_EQ(a.level(), 0);
  int64_t a_sum = 0, b_sum = 0, a_longest = 0, b_longest = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    const int64_t a_wait = a.FirstAttemptWaitUs(defaults);
    const int64_t b_wait = b.LostAttemptWaitUs(defaults, 3000);
    a_sum += a_wait;
    b_sum += b_wait;
    a_longest = std::max(a_longest, a_wait);
    b_longest = std::max(b_longest, b_wait);
  }
  EXPECT_LE(a_longest, 100'000);
  EXPECT_LE(b_longest, 100'000);
  EXPECT_NEAR(static_cast<double>(a_sum) / draws, 50'000, 10'000);
  EXPECT_NEAR(static_cast<double>(b_sum) / draws, 50'000, 10'000);
  clock.us += 1'100'000;
  EXPECT_EQ(a.FirstAttemptWaitUs(defaults), 0);
}

TEST(CommitPacer, BetweenThreadsAWinnerKeepsASmallHeadStart) {
  // Races lost only to threads of this process: a first attempt waits at most an eighth of
  // the window (threads share the pacer, so the waits of those it beat are as long).
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer pacer(11, clock.now());
  pacer.Landed(3000);  // another thread's, inside every attempt below
  for (int i = 0; i < 3; ++i) (void)pacer.LostAttemptWaitUs(defaults, 3000);
  int64_t longest = 0;
  for (int i = 0; i < 200; ++i) longest = std::max(longest, pacer.FirstAttemptWaitUs(defaults));
  EXPECT_GT(longest, 0);
  EXPECT_LE(longest, 100'000 / 8);
}

TEST(CommitPacer, WaitsFollowLandedAttemptsNotTheLongerLostOnes) {
  // A lost attempt also parses the winner's document: it runs longer than a landed one. If
  // those durations set the waits, a writer would wait longer the more it lost.
  const RetryPolicy policy = Policy(0, 1000);
  TestClock clock;
  CommitPacer pacer(6, clock.now());
  pacer.Landed(2000);
  int64_t sum = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    sum += pacer.LostAttemptWaitUs(policy, 40'000);
    pacer.Landed(2000);
  }
  EXPECT_LT(static_cast<double>(sum) / draws, 4'000);  // level 1: span 4 ms, mean about 2 ms
}

TEST(CommitPacer, UnderContentionFirstAttemptsWaitTooButNoLongerThanMaxWait) {
  const RetryPolicy policy = Policy(10, 200);
  TestClock clock;
  CommitPacer pacer(5, clock.now());
  for (int i = 0; i < 10; ++i) (void)pacer.LostAttemptWaitUs(policy, 100'000);
  int64_t longest = 0, sum = 0;
  for (int i = 0; i < 200; ++i) {
    const int64_t wait = pacer.FirstAttemptWaitUs(policy);
    EXPECT_GE(wait, 0);
    EXPECT_LE(wait, 200'000);
    longest = std::max(longest, wait);
    sum += wait;
  }
  EXPECT_GT(sum, 0);  // a writer that just won does not simply go first
  EXPECT_GT(longest, 20'000);
}

// Processes that share no memory, each with its own pacer, committing to one table in a
// tight loop as commit_bench's do: an event simulation on a clock of its own (no sleeping).
// Each attempt takes 2-4 ms and lands if no other landed since it loaded the table.
std::vector<int> SimulateTightLoops(int processes, int64_t simulated_us) {
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  std::mt19937_64 durations(42);
  struct Writer {
    std::unique_ptr<CommitPacer> pacer;
    int64_t next_us = 0;       // when its current wait or attempt ends
    bool attempting = false;
    int64_t loaded = 0;        // the table's version its attempt loaded
    int64_t attempt_us = 0;
    int landed = 0;
  };
  std::vector<Writer> writers(processes);
  for (int p = 0; p < processes; ++p) writers[p].pacer = std::make_unique<CommitPacer>(100 + p, clock.now());
  const int64_t start = clock.us;
  int64_t version = 0;
  while (clock.us - start < simulated_us) {
    Writer& w = *std::min_element(writers.begin(), writers.end(),
                                  [](const Writer& x, const Writer& y) { return x.next_us < y.next_us; });
    clock.us = std::max(clock.us, w.next_us);
    if (!w.attempting) {
      w.attempting = true;
      w.loaded = version;
      w.attempt_us = std::uniform_int_distribution<int64_t>(2000, 4000)(durations);
      w.next_us = clock.us + w.attempt_us;
      continue;
    }
    w.attempting = false;
    if (w.loaded == version) {
      ++version;
      ++w.landed;
      w.pacer->Landed(w.attempt_us);
      w.next_us = clock.us + w.pacer->FirstAttemptWaitUs(defaults);
    } else {
      w.next_us = clock.us + w.pacer->LostAttemptWaitUs(defaults, w.attempt_us);
    }
  }
  std::vector<int> landed;
  for (const Writer& w : writers) landed.push_back(w.landed);
  return landed;
}

TEST(CommitPacer, ProcessesInTightLoopsShareTheTable) {
  for (int processes : {6, 16}) {
    const std::vector<int> landed = SimulateTightLoops(processes, 20'000'000);  // 20 simulated seconds
    const double mean = static_cast<double>(std::accumulate(landed.begin(), landed.end(), 0)) / processes;
    const int fewest = *std::min_element(landed.begin(), landed.end());
    EXPECT_GT(mean, 20) << processes << " processes";
    // None starves: the unluckiest lands at least half the mean.
    EXPECT_GE(fewest, mean / 2) << processes << " processes, fewest " << fewest << " of mean " << mean;
  }
}

TEST(CommitPacer, OneTableOnePacerPerProcess) {
  CommitPacer& a = CommitPacer::ForTable("cat/db.pacing_a");
  CommitPacer& same = CommitPacer::ForTable("cat/db.pacing_a");
  CommitPacer& other = CommitPacer::ForTable("cat/db.pacing_b");
  EXPECT_EQ(&a, &same);
  EXPECT_NE(&a, &other);
}

}  // namespace
}  // namespace floe
