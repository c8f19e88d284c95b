#include "util/backoff.h"

#include <set>

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Backoff, CeilingDoublesFromTheMinimumUpToTheMaximum) {
  BackoffPolicy policy{.min_wait_ms = 100, .max_wait_ms = 1000};
  EXPECT_EQ(BackoffCeilingMs(policy, 1), 200);
  EXPECT_EQ(BackoffCeilingMs(policy, 2), 400);
  EXPECT_EQ(BackoffCeilingMs(policy, 3), 800);
  EXPECT_EQ(BackoffCeilingMs(policy, 4), 1000);
  EXPECT_EQ(BackoffCeilingMs(policy, 1'000'000), 1000);
  EXPECT_EQ(BackoffCeilingMs(policy, 0), 200);
}

TEST(Backoff, MaximumBelowMinimumMeansAWindowOfTheMinimum) {
  BackoffPolicy policy{.min_wait_ms = 50, .max_wait_ms = 10};
  Backoff backoff(policy, 1);
  for (int attempt = 1; attempt < 10; ++attempt) {
    EXPECT_EQ(BackoffCeilingMs(policy, attempt), 50);
    EXPECT_LE(backoff.WaitMs(attempt), 50);
  }
}

TEST(Backoff, WaitsStayWithinTheirBoundsAndAreSpread) {
  BackoffPolicy policy{.min_wait_ms = 10, .max_wait_ms = 5000};
  Backoff backoff(policy, 42);
  for (int attempt = 1; attempt <= 12; ++attempt) {
    std::set<int64_t> distinct;
    for (int i = 0; i < 200; ++i) {
      int64_t wait = backoff.WaitMs(attempt);
      EXPECT_GE(wait, 0);
      EXPECT_LE(wait, BackoffCeilingMs(policy, attempt));
      distinct.insert(wait);
    }
    // Jitter: with a range of at least 10 values, 200 draws are not all equal.
    EXPECT_GT(distinct.size(), 5u) << "attempt " << attempt;
  }
}

TEST(Backoff, LaterAttemptsWaitLongerOnAverage) {
  Backoff backoff(BackoffPolicy{.min_wait_ms = 10, .max_wait_ms = 100'000}, 7);
  auto mean = [&](int attempt) {
    int64_t sum = 0;
    for (int i = 0; i < 2000; ++i) sum += backoff.WaitMs(attempt);
    return sum / 2000.0;
  };
  double first = mean(1), fourth = mean(4), eighth = mean(8);
  EXPECT_LT(first, fourth);
  EXPECT_LT(fourth, eighth);
}

TEST(Backoff, FullJitterSpreadsLosersBelowTheMinimumToo) {
  // Losers of one round must not all wake just after min_wait_ms: with full jitter about half
  // of the first retries wait less than it, and the rest spread up to twice it.
  Backoff backoff(BackoffPolicy{.min_wait_ms = 100, .max_wait_ms = 60'000}, 11);
  int below = 0, above_one_and_half = 0;
  for (int i = 0; i < 1000; ++i) {
    const int64_t wait = backoff.WaitMs(1);
    below += wait < 100;
    above_one_and_half += wait > 150;
  }
  EXPECT_GT(below, 400);
  EXPECT_LT(below, 600);
  EXPECT_GT(above_one_and_half, 150);
}

TEST(Backoff, SameSeedSameWaitsAndKernelSeedsDiffer) {
  BackoffPolicy policy{.min_wait_ms = 1, .max_wait_ms = 1'000'000};
  Backoff a(policy, 99), b(policy, 99);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(a.WaitMs(20), b.WaitMs(20));
  Backoff c(policy), d(policy);
  int same = 0;
  for (int i = 0; i < 20; ++i) same += c.WaitMs(20) == d.WaitMs(20);
  EXPECT_LT(same, 20);
}

}  // namespace
}  // namespace floe
