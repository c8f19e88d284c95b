// Integers, dates, times, timestamps and decimals as text, appended to a caller's buffer so that a loop
// over a column writes no string per value. These are the one definition of those forms:
// FormatDate / FormatTimeMicros / FormatTimestamp (temporal.h) and DecimalToString are these
// appended to an empty string, so Literal::ToJson, the CLI's listings and its CSV / JSON-lines
// output all print the same bytes.
#pragma once

#include <cstdint>
#include <string>

namespace floe {

// The decimal digits of `v`, with a leading '-' when negative (std::to_chars).
void AppendInteger(int64_t v, std::string* out);

// "2017-11-16": the year zero-padded to 4 digits (to 4 after the sign when negative).
void AppendDate(int32_t days, std::string* out);
// "22:31:08.123456": `value` in units of 1/units_per_second since midnight; 6 fractional
// digits when units_per_second is 1e6, else 9. A value outside the day prints as printf's
// %02lld fields of it would (sign included), never clamped.
void AppendTimeOfDay(int64_t value, int64_t units_per_second, std::string* out);
// AppendDate of the day, 'T', AppendTimeOfDay of the rest; `with_zone` appends "+00:00".
void AppendTimestamp(int64_t value, int64_t units_per_second, bool with_zone, std::string* out);
// The unscaled value with `scale` digits after the point ("-0.05" for -5 at scale 2).
void AppendDecimal(__int128 unscaled, int scale, std::string* out);

}  // namespace floe
