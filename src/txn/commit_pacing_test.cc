#include "txn/commit_pacing.h"

#include <gtest/gtest.h>

#include <set>

namespace floe {
namespace {

RetryPolicy Policy(int64_t min_wait_ms, int64_t max_wait_ms) {
  RetryPolicy p;
  p.min_wait_ms = min_wait_ms;
  p.max_wait_ms = max_wait_ms;
  return p;
}

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
  CommitPacer pacer(3);
  const RetryPolicy policy = Policy(1, 50);
  for (int i = 0; i < 3; ++i) (void)pacer.LostAttemptWaitUs(policy, 1000);
  EXPECT_EQ(pacer.level(), 3);
  pacer.Landed(1000);
  EXPECT_EQ(pacer.level(), 2);
  pacer.Landed(1000);
  pacer.Landed(1000);
  pacer.Landed(1000);
  EXPECT_EQ(pacer.level(), 0);
  EXPECT_EQ(pacer.FirstAttemptWaitUs(policy), 0);
}

TEST(CommitPacer, WaitsGrowWithContentionUpToFourAttemptsAndNeverPastMaxWait) {
  auto mean_wait_at = [](int losses, const RetryPolicy& policy) {
    CommitPacer pacer(4);
    int64_t sum = 0;
    const int draws = 400;
    for (int i = 0; i < losses - 1; ++i) (void)pacer.LostAttemptWaitUs(policy, 2000);
    for (int i = 0; i < draws; ++i) {
      sum += pacer.LostAttemptWaitUs(policy, 2000);
      pacer.Landed(2000);  // back to `losses` at the next draw
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

TEST(CommitPacer, AcrossProcessesTheWindowDoublesFromMinWaitAsIcebergsBackoff) {
  // Quick attempts (1 ms) and Iceberg's defaults: the window is min-wait-ms * 2^level, so a
  // process's losers spread over 200, 400, 800, 1600 ms, and no further (four doublings).
  const RetryPolicy defaults = Policy(100, 60'000);
  CommitPacer pacer(8);
  pacer.Landed(1000);
  for (int level = 1; level <= 6; ++level) {
    int64_t longest = 0, sum = 0, below_min = 0;
    const int draws = 400;
    for (int i = 0; i < draws; ++i) {
      const int64_t wait = pacer.LostAttemptWaitUs(defaults, 1000);
      pacer.Landed(1000);  // back to `level - 1`, so the next draw is at `level` again
      longest = std::max(longest, wait);
      sum += wait;
      below_min += wait < 100'000;
    }
    const int64_t window = 100'000LL << std::min(level, 4);
    EXPECT_LE(longest, window) << "level " << level;
    EXPECT_GT(longest, window * 9 / 10) << "level " << level;
    EXPECT_NEAR(static_cast<double>(sum) / draws, window / 2.0, window * 0.1) << "level " << level;
    EXPECT_GT(below_min, 0) << "level " << level;  // no floor: some retry at once
    (void)pacer.LostAttemptWaitUs(defaults, 1000);  // one level up for the next round
  }
}

TEST(CommitPacer, WaitsFollowLandedAttemptsNotTheLongerLostOnes) {
  // A lost attempt also parses the winner's document: it runs longer than a landed one. If
  // those durations set the waits, a writer would wait longer the more it lost.
  const RetryPolicy policy = Policy(0, 1000);
  CommitPacer pacer(6);
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
  CommitPacer pacer(5);
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

TEST(CommitPacer, OneTableOnePacerPerProcess) {
  CommitPacer& a = CommitPacer::ForTable("cat/db.pacing_a");
  CommitPacer& same = CommitPacer::ForTable("cat/db.pacing_a");
  CommitPacer& other = CommitPacer::ForTable("cat/db.pacing_b");
  EXPECT_EQ(&a, &same);
  EXPECT_NE(&a, &other);
}

}  // namespace
}  // namespace floe
