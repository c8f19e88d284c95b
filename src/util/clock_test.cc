#include "util/clock.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Clock, SystemClockIsWallClockTimeInMillisAndMicros) {
  int64_t ms = NowMillis();
  // 2020-01-01 .. 2100-01-01: a wall clock in milliseconds, not seconds or micros.
  EXPECT_GT(ms, 1577836800000);
  EXPECT_LT(ms, 4102444800000);
  int64_t us = Clock::System().NowMicros();
  EXPECT_GE(us / 1000, ms);
  EXPECT_LT(us / 1000 - ms, 60'000);
}

TEST(Clock, MonotonicNeverGoesBack) {
  int64_t last = MonotonicMicros();
  for (int i = 0; i < 1000; ++i) {
    int64_t now = MonotonicMicros();
    EXPECT_GE(now, last);
    last = now;
  }
}

TEST(Clock, ManualClockMovesOnlyWhenTold) {
  ManualClock clock(5'000);
  const Clock& as_clock = clock;
  EXPECT_EQ(as_clock.NowMicros(), 5'000);
  EXPECT_EQ(as_clock.NowMillis(), 5);
  clock.AdvanceMillis(10);
  EXPECT_EQ(as_clock.NowMillis(), 15);
  clock.SetMillis(1'700'000'000'000);
  EXPECT_EQ(as_clock.NowMillis(), 1'700'000'000'000);
}

}  // namespace
}  // namespace floe
