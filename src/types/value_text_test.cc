#include "types/value_text.h"

#include <cstdio>
#include <functional>
#include <limits>

#include <gtest/gtest.h>

#include "types/temporal.h"

namespace floe {
namespace {

// What the text forms were before they were appended in place: printf's fields. The appending
// code must print the same bytes for every value, odd ones (before year 0, past year 9999,
// times outside the day from a corrupt file) included.
std::string PrintfDate(int32_t days) {
  int y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[32];
  std::snprintf(buf, sizeof buf, y >= 0 ? "%04d-%02u-%02u" : "%05d-%02u-%02u", y, m, d);
  return buf;
}

std::string PrintfTimeOfDay(int64_t value, int64_t units_per_second) {
  long long seconds = value / units_per_second, fraction = value % units_per_second;
  char buf[96];
  std::snprintf(buf, sizeof buf, units_per_second == 1000000 ? "%02lld:%02lld:%02lld.%06lld" : "%02lld:%02lld:%02lld.%09lld",
                seconds / 3600, seconds / 60 % 60, seconds % 60, fraction);
  return buf;
}

std::string PrintfTimestamp(int64_t value, int64_t units_per_second, bool with_zone) {
  int64_t per_day = 86400 * units_per_second;
  int64_t days = FloorDiv(value, per_day);
  return PrintfDate(static_cast<int32_t>(days)) + "T" + PrintfTimeOfDay(value - days * per_day, units_per_second) +
         (with_zone ? "+00:00" : "");
}

std::string Appended(const std::function<void(std::string*)>& append) {
  std::string out = "x";  // appends after what is there
  append(&out);
  return out.substr(1);
}

TEST(ValueText, DatesAsIsoText) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  EXPECT_EQ(FormatDate(DaysFromCivil(2024, 2, 29)), "2024-02-29");
  EXPECT_EQ(FormatDate(DaysFromCivil(-1, 3, 1)), "-0001-03-01");
  EXPECT_EQ(FormatDate(DaysFromCivil(12345, 6, 7)), "12345-06-07");
  for (int32_t days : {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), -719528, -719529, 2932896,
                       2932897, -1000000, 1000000})
    EXPECT_EQ(FormatDate(days), PrintfDate(days)) << days;
  for (int32_t days = -800000; days < 3000000; days += 997) ASSERT_EQ(FormatDate(days), PrintfDate(days)) << days;
}

TEST(ValueText, TimesAndTimestampsAsPrintfFields) {
  EXPECT_EQ(FormatTimeMicros(0), "00:00:00.000000");
  EXPECT_EQ(FormatTimeMicros(86399999999), "23:59:59.999999");
  EXPECT_EQ(FormatTimestamp(1704067200000000, 1000000, false), "2024-01-01T00:00:00.000000");
  EXPECT_EQ(FormatTimestamp(-1, 1000000, true), "1969-12-31T23:59:59.999999+00:00");
  EXPECT_EQ(FormatTimestamp(1, 1000000000, false), "1970-01-01T00:00:00.000000001");
  EXPECT_EQ(FormatCommitTime(1764583200123), "2025-12-01 10:00:00");
  const int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
  for (int64_t units : {int64_t{1000}, int64_t{1000000}, int64_t{1000000000}}) {
    for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, big, small / 2, int64_t{-86400} * units, int64_t{86400} * units - 1})
      EXPECT_EQ(FormatTimestamp(v, units, true), PrintfTimestamp(v, units, true)) << v << " " << units;
    for (int64_t v = -3000000000000000000; v < 3000000000000000000; v += 12345678901234567)
      ASSERT_EQ(FormatTimestamp(v, units, false), PrintfTimestamp(v, units, false)) << v << " " << units;
  }
  // A time outside the day (a corrupt file's) prints as printf printed it, not clamped.
  for (int64_t v : {int64_t{-1}, int64_t{-86400000000}, int64_t{86400000000}, int64_t{360000000000000}, big, small})
    EXPECT_EQ(FormatTimeMicros(v), PrintfTimeOfDay(v, 1000000)) << v;
}

TEST(ValueText, DecimalsWithTheirScale) {
  EXPECT_EQ(Appended([](std::string* o) { AppendDecimal(12345, 2, o); }), "123.45");
  EXPECT_EQ(Appended([](std::string* o) { AppendDecimal(-5, 2, o); }), "-0.05");
  EXPECT_EQ(Appended([](std::string* o) { AppendDecimal(5, 0, o); }), "5");
  EXPECT_EQ(Appended([](std::string* o) { AppendDecimal(0, 3, o); }), "0.000");
  EXPECT_EQ(Appended([](std::string* o) { AppendDecimal(-100, 2, o); }), "-1.00");
  __int128 max38 = 1;
  for (int i = 0; i < 38; ++i) max38 *= 10;
  max38 -= 1;  // 38 nines, the largest decimal(38, s)
  EXPECT_EQ(Appended([max38](std::string* o) { AppendDecimal(-max38, 10, o); }),
            "-" + std::string(28, '9') + "." + std::string(10, '9'));
  EXPECT_EQ(Appended([](std::string* o) { AppendDecimal(7, 38, o); }), "0." + std::string(37, '0') + "7");
}

}  // namespace
}  // namespace floe
