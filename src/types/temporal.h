// Calendar arithmetic and ISO 8601 text for dates, times and timestamps.
//
// Iceberg stores dates as days from 1970-01-01, times as micros from midnight and
// timestamps as micros (or nanos) from the epoch; these convert to and from text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe {

int32_t DaysFromCivil(int year, unsigned month, unsigned day);
void CivilFromDays(int32_t days, int* year, unsigned* month, unsigned* day);

// Floor division that rounds toward negative infinity (pre-1970 values).
inline int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
inline int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

Result<int32_t> ParseDate(std::string_view text);                 // "2017-11-16"
Result<int64_t> ParseTimeMicros(std::string_view text);           // "22:31:08[.123456]"
// "2017-11-16T22:31:08[.123456789][Z|+hh:mm]" (a space may replace T, a bare date means midnight).
// `units_per_second` is 1e6 for micros, 1e9 for nanos. An offset is applied (result is UTC).
Result<int64_t> ParseTimestamp(std::string_view text, int64_t units_per_second, bool* had_offset = nullptr);

std::string FormatDate(int32_t days);
std::string FormatTimeMicros(int64_t micros);
// ISO form with 6 (micros) or 9 (nanos) fractional digits; `with_zone` appends "+00:00".
std::string FormatTimestamp(int64_t value, int64_t units_per_second, bool with_zone);
// Milliseconds since the epoch as people read a commit time: "2026-12-01 10:00:00" (UTC, whole
// seconds, a space instead of the ISO 'T').
std::string FormatCommitTime(int64_t millis);

}  // namespace floe
