#include "server/table_activity.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

constexpr int64_t kMinute = 60000;

TEST(TableActivity, CountsPerMinuteForTheLastHour) {
  TableActivity a;
  int64_t now = 1000 * kMinute + 5000;
  a.Record("a.t", ActivityKind::kLanded, now);
  a.Record("a.t", ActivityKind::kLanded, now, 2);
  a.Record("a.t", ActivityKind::kConflict, now - 10 * kMinute);
  a.Record("a.t", ActivityKind::kRetry, now - 61 * kMinute);  // older than the hour
  auto s = a.LastHour("a.t", now);
  EXPECT_EQ(s.counts[0][59], 3);
  EXPECT_EQ(s.counts[1][49], 1);
  int64_t retries = 0;
  for (int64_t c : s.counts[2]) retries += c;
  EXPECT_EQ(retries, 0);
  EXPECT_EQ(a.LastHour("a.other", now).counts[0][59], 0);
}

TEST(TableActivity, ASlotFromAnEarlierHourIsReset) {
  TableActivity a;
  int64_t now = 1000 * kMinute;
  a.Record("a.t", ActivityKind::kLanded, now, 5);
  a.Record("a.t", ActivityKind::kLanded, now + 60 * kMinute, 1);  // same slot, an hour later
  EXPECT_EQ(a.LastHour("a.t", now + 60 * kMinute).counts[0][59], 1);
  EXPECT_EQ(a.LastHour("a.t", now + 60 * kMinute).counts[0][0], 0);
}

TEST(TableActivity, TablesAreBounded) {
  TableActivity a(2);
  a.Record("a.t1", ActivityKind::kLanded, kMinute);
  a.Record("a.t2", ActivityKind::kLanded, kMinute);
  a.Record("a.t1", ActivityKind::kLanded, kMinute);  // t1 touched last: t2 is the oldest
  a.Record("a.t3", ActivityKind::kLanded, kMinute);
  EXPECT_EQ(a.LastHour("a.t2", kMinute).counts[0][59], 0);
  EXPECT_EQ(a.LastHour("a.t1", kMinute).counts[0][59], 2);
  EXPECT_EQ(a.LastHour("a.t3", kMinute).counts[0][59], 1);
}

}  // namespace
}  // namespace floe
