#include "types/value_text.h"

#include <charconv>

#include "types/temporal.h"

namespace floe {
namespace {

// `v` as printf's %0<width>lld prints it: zero-padded to `width` characters, a minus sign
// counted in the width.
void AppendZeroPadded(int64_t v, int width, std::string* out) {
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, magnitude).ptr;
  int length = static_cast<int>(end - digits);
  if (v < 0) {
    out->push_back('-');
    --width;
  }
  if (length < width) out->append(static_cast<size_t>(width - length), '0');
  out->append(digits, end);
}

// Two digits 00-99, the common case of the fields of a date or time.
void AppendTwoDigits(int64_t v, std::string* out) {
  if (v < 0 || v > 99) {
    AppendZeroPadded(v, 2, out);
    return;
  }
  out->push_back(static_cast<char>('0' + v / 10));
  out->push_back(static_cast<char>('0' + v % 10));
}

}  // namespace

void AppendInteger(int64_t v, std::string* out) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, end);
}

void AppendDate(int32_t days, std::string* out) {
  int y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  AppendZeroPadded(y, y >= 0 ? 4 : 5, out);
  out->push_back('-');
  AppendTwoDigits(m, out);
  out->push_back('-');
  AppendTwoDigits(d, out);
}

void AppendTimeOfDay(int64_t value, int64_t units_per_second, std::string* out) {
  int64_t seconds = value / units_per_second;
  int64_t fraction = value % units_per_second;
  AppendTwoDigits(seconds / 3600, out);
  out->push_back(':');
  AppendTwoDigits(seconds / 60 % 60, out);
  out->push_back(':');
  AppendTwoDigits(seconds % 60, out);
  out->push_back('.');
  AppendZeroPadded(fraction, units_per_second == 1000000 ? 6 : 9, out);
}

void AppendTimestamp(int64_t value, int64_t units_per_second, bool with_zone, std::string* out) {
  int64_t per_day = 86400 * units_per_second;
  int64_t days = FloorDiv(value, per_day);
  int64_t rest = value - days * per_day;
  AppendDate(static_cast<int32_t>(days), out);
  out->push_back('T');
  AppendTimeOfDay(rest, units_per_second, out);
  if (with_zone) out->append("+00:00");
}

void AppendDecimal(__int128 unscaled, int scale, std::string* out) {
  unsigned __int128 u = unscaled < 0 ? 0 - static_cast<unsigned __int128>(unscaled) : static_cast<unsigned __int128>(unscaled);
  char digits[48];
  char* end = digits + sizeof digits;
  char* begin = end;
  do {
    *--begin = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  } while (u);
  int length = static_cast<int>(end - begin);
  if (unscaled < 0) out->push_back('-');
  if (scale > 0 && length <= scale) out->append(static_cast<size_t>(scale - length + 1), '0');  // 0.0005
  out->append(begin, end);
  if (scale > 0) out->insert(out->end() - scale, '.');
}

}  // namespace floe
