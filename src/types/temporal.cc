#include "types/temporal.h"

#include <algorithm>

#include <cctype>

#include "types/value_text.h"

namespace floe {

// Howard Hinnant's well-known civil-calendar algorithms (proleptic Gregorian).
int32_t DaysFromCivil(int y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int>(doe) - 719468;
}

void CivilFromDays(int32_t z, int* year, unsigned* month, unsigned* day) {
  int64_t zz = static_cast<int64_t>(z) + 719468;
  const int64_t era = (zz >= 0 ? zz : zz - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(zz - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = static_cast<int>(y + (*month <= 2));
}

namespace {

// Reads exactly `n` digits at s[*pos].
bool Digits(std::string_view s, size_t* pos, int n, int64_t* out) {
  if (*pos + n > s.size()) return false;
  int64_t v = 0;
  for (int i = 0; i < n; ++i) {
    char c = s[*pos + i];
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos < s.size() && s[*pos] == c) {
    ++*pos;
    return true;
  }
  return false;
}

bool DateAt(std::string_view s, size_t* pos, int32_t* days) {
  int64_t y, m, d;
  bool negative = Expect(s, pos, '-');
  if (!Digits(s, pos, 4, &y) || !Expect(s, pos, '-') || !Digits(s, pos, 2, &m) || !Expect(s, pos, '-') ||
      !Digits(s, pos, 2, &d))
    return false;
  if (negative) y = -y;
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  int32_t result = DaysFromCivil(static_cast<int>(y), static_cast<unsigned>(m), static_cast<unsigned>(d));
  int cy;
  unsigned cm, cd;
  CivilFromDays(result, &cy, &cm, &cd);
  if (cm != m || cd != d) return false;  // 2023-02-30 and the like
  *days = result;
  return true;
}

// "HH:MM[:SS[.fffffffff]]" into units of 1/units_per_second.
bool TimeAt(std::string_view s, size_t* pos, int64_t units_per_second, int64_t* out) {
  int64_t h, m, sec = 0;
  if (!Digits(s, pos, 2, &h) || !Expect(s, pos, ':') || !Digits(s, pos, 2, &m)) return false;
  if (Expect(s, pos, ':') && !Digits(s, pos, 2, &sec)) return false;
  if (h > 23 || m > 59 || sec > 59) return false;
  int64_t fraction = 0;
  if (Expect(s, pos, '.')) {
    int64_t scale = units_per_second;
    int digits = 0;
    while (*pos < s.size() && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
      scale /= 10;
      if (scale > 0) fraction += (s[*pos] - '0') * scale;
      ++*pos;
      ++digits;
    }
    if (digits == 0) return false;
  }
  *out = ((h * 60 + m) * 60 + sec) * units_per_second + fraction;
  return true;
}

}  // namespace

Result<int32_t> ParseDate(std::string_view text) {
  size_t pos = 0;
  int32_t days;
  if (!DateAt(text, &pos, &days) || pos != text.size())
    return InvalidArgument("invalid date '" + std::string(text) + "' (expected YYYY-MM-DD)");
  return days;
}

Result<int64_t> ParseTimeMicros(std::string_view text) {
  size_t pos = 0;
  int64_t micros;
  if (!TimeAt(text, &pos, 1000000, &micros) || pos != text.size())
    return InvalidArgument("invalid time '" + std::string(text) + "' (expected HH:MM:SS[.ffffff])");
  return micros;
}

Result<int64_t> ParseTimestamp(std::string_view text, int64_t units_per_second, bool* had_offset) {
  auto fail = [&] {
    return InvalidArgument("invalid timestamp '" + std::string(text) +
                           "' (expected YYYY-MM-DD[THH:MM:SS[.ffffff]][Z|+HH:MM])");
  };
  size_t pos = 0;
  int32_t days;
  if (!DateAt(text, &pos, &days)) return fail();
  int64_t time = 0;
  if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
    ++pos;
    if (!TimeAt(text, &pos, units_per_second, &time)) return fail();
  }
  int64_t offset_seconds = 0;
  bool offset = false;
  if (pos < text.size()) {
    if (text[pos] == 'Z' && pos + 1 == text.size()) {
      ++pos;
      offset = true;
    } else if (text[pos] == '+' || text[pos] == '-') {
      int sign = text[pos] == '-' ? -1 : 1;
      ++pos;
      int64_t oh, om = 0;
      if (!Digits(text, &pos, 2, &oh)) return fail();
      if (Expect(text, &pos, ':')) {
        if (!Digits(text, &pos, 2, &om)) return fail();
      } else if (pos < text.size() && !Digits(text, &pos, 2, &om)) {
        return fail();
      }
      offset_seconds = sign * (oh * 3600 + om * 60);
      offset = true;
    }
  }
  if (pos != text.size()) return fail();
  if (had_offset) *had_offset = offset;
  return static_cast<int64_t>(days) * 86400 * units_per_second + time - offset_seconds * units_per_second;
}

std::string FormatDate(int32_t days) {
  std::string out;
  AppendDate(days, &out);
  return out;
}

std::string FormatTimeMicros(int64_t micros) {
  std::string out;
  AppendTimeOfDay(micros, 1000000, &out);
  return out;
}

std::string FormatTimestamp(int64_t value, int64_t units_per_second, bool with_zone) {
  std::string out;
  AppendTimestamp(value, units_per_second, with_zone, &out);
  return out;
}

std::string FormatCommitTime(int64_t millis) {
  std::string out = FormatTimestamp(millis, 1000, false);  // 2026-12-01T10:00:00.000
  out = out.substr(0, std::min<size_t>(out.size(), 19));
  std::replace(out.begin(), out.end(), 'T', ' ');
  return out;
}

}  // namespace floe
