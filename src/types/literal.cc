#include "types/literal.h"

#include "types/variant.h"
#include "types/wkb.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "types/temporal.h"
#include "types/value_text.h"
#include "util/strings.h"

namespace floe {
namespace {

constexpr int64_t kMicros = 1000000;
constexpr int64_t kNanos = 1000000000;

bool IsNanosType(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }
bool IsTimestampType(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}
bool HasZone(TypeId id) { return id == TypeId::kTimestampTz || id == TypeId::kTimestampTzNs; }

template <typename T>
std::string LittleEndian(T v) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &v, sizeof(T));  // x86-64 and aarch64 are little-endian
  return out;
}

template <typename T>
T FromLittleEndian(std::string_view b) {
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

// Two's-complement big-endian in the fewest bytes that keep the sign.
std::string DecimalToBytes(__int128 v) {
  std::string out;
  for (int i = 15; i >= 0; --i) out.push_back(static_cast<char>((static_cast<unsigned __int128>(v) >> (i * 8)) & 0xff));
  size_t start = 0;
  while (start + 1 < out.size()) {
    unsigned char b = out[start], next = out[start + 1];
    if ((b == 0x00 && !(next & 0x80)) || (b == 0xff && (next & 0x80))) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

__int128 DecimalFromBytes(std::string_view b) {
  unsigned __int128 v = (!b.empty() && (static_cast<unsigned char>(b[0]) & 0x80)) ? ~static_cast<unsigned __int128>(0) : 0;
  for (unsigned char c : b) v = (v << 8) | c;
  return static_cast<__int128>(v);
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) s.push_back('-');
  return std::string(s.rbegin(), s.rend());
}

std::string DecimalToString(__int128 unscaled, int scale) {
  std::string out;
  AppendDecimal(unscaled, scale, &out);
  return out;
}

Result<__int128> ParseDecimal(std::string_view text, int precision, int scale) {
  auto fail = [&] { return InvalidArgument("invalid decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ") '" + std::string(text) + "'"); };
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  __int128 v = 0;
  int digits = 0, fraction_digits = 0;
  bool seen_point = false, any = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') return fail();
    any = true;
    if (seen_point) {
      if (fraction_digits == scale) {
        if (c != '0') return fail();  // more precision than the type holds
        continue;
      }
      ++fraction_digits;
    }
    v = v * 10 + (c - '0');
    if (v != 0) ++digits;
    if (digits > 38) return fail();
  }
  if (!any) return fail();
  for (; fraction_digits < scale; ++fraction_digits) v *= 10;
  __int128 limit = 1;
  for (int i = 0; i < precision; ++i) limit *= 10;
  if (v >= limit) return fail();
  return negative ? -v : v;
}

Result<std::string> Unhex(std::string_view text) {
  if (text.size() % 2) return InvalidArgument("hex string of odd length: '" + std::string(text) + "'");
  std::string out;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = nibble(text[i]), lo = nibble(text[i + 1]);
    if (hi < 0 || lo < 0) return InvalidArgument("invalid hex string '" + std::string(text) + "'");
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string UuidToString(std::string_view b) {
  std::string h = Hex(b, HexCase::kUpper);
  for (auto& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

Result<std::string> UuidFromString(std::string_view s) {
  if (s.size() != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
    return InvalidArgument("invalid uuid '" + std::string(s) + "'");
  std::string hex;
  for (char c : s)
    if (c != '-') hex.push_back(c);
  auto bytes = Unhex(hex);
  if (!bytes) return InvalidArgument("invalid uuid '" + std::string(s) + "'");
  return bytes;
}

// Total order key for floating point: -NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN.
int64_t DoubleOrderKey(double d) {
  int64_t bits = std::bit_cast<int64_t>(d);
  return bits < 0 ? std::numeric_limits<int64_t>::min() - bits - 1 : bits;
}

}  // namespace

int64_t Literal::AsInt64() const {
  if (auto* i = std::get_if<int32_t>(&value_)) return *i;
  return std::get<int64_t>(value_);
}

Result<std::string> Literal::ToBinary() const {
  if (!type_ || is_null()) return InvalidArgument("a null has no binary form");
  switch (type_->id()) {
    case TypeId::kBoolean: return std::string(1, AsBool() ? '\x01' : '\x00');
    case TypeId::kInt:
    case TypeId::kDate: return LittleEndian<int32_t>(AsInt());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return LittleEndian<int64_t>(AsLong());
    case TypeId::kFloat: return LittleEndian<float>(AsFloat());
    case TypeId::kDouble: return LittleEndian<double>(AsDouble());
    case TypeId::kDecimal: return DecimalToBytes(AsDecimal());
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary: return AsBytes();
    default: return InvalidArgument("type " + type_->ToString() + " has no single-value binary form");
  }
}

Result<Literal> Literal::FromBinary(const TypePtr& type, std::string_view b) {
  auto need = [&](size_t n) -> Status {
    if (b.size() != n)
      return Corrupt("binary value of " + type->ToString() + " has " + std::to_string(b.size()) +
                     " bytes, expected " + std::to_string(n));
    return Ok();
  };
  switch (type->id()) {
    case TypeId::kBoolean:
      FLOE_RETURN_IF_ERROR(need(1));
      return Literal(type, b[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      FLOE_RETURN_IF_ERROR(need(4));
      return Literal(type, FromLittleEndian<int32_t>(b));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      // v1 writers stored some long bounds of promoted int columns in 4 bytes.
      if (b.size() == 4 && type->id() == TypeId::kLong) return Literal(type, static_cast<int64_t>(FromLittleEndian<int32_t>(b)));
      // A date promoted to timestamp (format v3) keeps its old files' 4-byte bounds: days.
      if (b.size() == 4 && (type->id() == TypeId::kTimestamp || type->id() == TypeId::kTimestampNs)) {
        int64_t per_day = type->id() == TypeId::kTimestamp ? 86400000000ll : 86400000000000ll;
        return Literal(type, static_cast<int64_t>(FromLittleEndian<int32_t>(b)) * per_day);
      }
      FLOE_RETURN_IF_ERROR(need(8));
      return Literal(type, FromLittleEndian<int64_t>(b));
    case TypeId::kFloat:
      FLOE_RETURN_IF_ERROR(need(4));
      return Literal(type, FromLittleEndian<float>(b));
    case TypeId::kDouble:
      if (b.size() == 4) return Literal(type, static_cast<double>(FromLittleEndian<float>(b)));
      FLOE_RETURN_IF_ERROR(need(8));
      return Literal(type, FromLittleEndian<double>(b));
    case TypeId::kDecimal:
      if (b.empty() || b.size() > 16) return Corrupt("binary decimal of " + std::to_string(b.size()) + " bytes");
      return Literal(type, DecimalFromBytes(b));
    case TypeId::kUuid:
      FLOE_RETURN_IF_ERROR(need(16));
      return Literal(type, std::string(b));
    case TypeId::kFixed:
    case TypeId::kString:
    case TypeId::kBinary: return Literal(type, std::string(b));
    default: return InvalidArgument("type " + type->ToString() + " has no single-value binary form");
  }
}

nlohmann::json Literal::ToJson() const {
  if (!type_ || is_null()) return nullptr;
  switch (type_->id()) {
    case TypeId::kBoolean: return AsBool();
    case TypeId::kInt: return AsInt();
    case TypeId::kLong: return AsLong();
    case TypeId::kFloat: return AsFloat();
    case TypeId::kDouble: return AsDouble();
    case TypeId::kDecimal: return DecimalToString(AsDecimal(), type_->scale());
    case TypeId::kDate: return FormatDate(AsInt());
    case TypeId::kTime: return FormatTimeMicros(AsLong());
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return FormatTimestamp(AsLong(), IsNanosType(type_->id()) ? kNanos : kMicros, HasZone(type_->id()));
    case TypeId::kString: return AsBytes();
    case TypeId::kUuid: return UuidToString(AsBytes());
    case TypeId::kFixed:
    case TypeId::kBinary: return Hex(AsBytes(), HexCase::kUpper);
    case TypeId::kVariant: {
      // The value as JSON; bytes that do not decode show as a string naming the fault.
      auto text = PackedVariantToJsonText(AsBytes());
      if (!text) return "<" + text.error().message + ">";
      return nlohmann::json::parse(*text, nullptr, false);
    }
    case TypeId::kGeometry:
    case TypeId::kGeography: {
      // Well-known text when the bytes are simple WKB, else their hex.
      auto wkt = WkbToWkt(AsBytes());
      return wkt ? *wkt : WkbHex(AsBytes());
    }
    default: return nullptr;
  }
}

Result<Literal> Literal::FromJson(const TypePtr& type, const nlohmann::json& j) {
  if (j.is_null()) return Null(type);
  auto wrong = [&] { return InvalidArgument("cannot read " + j.dump() + " as a " + type->ToString() + " value"); };
  switch (type->id()) {
    case TypeId::kBoolean:
      if (!j.is_boolean()) return wrong();
      return Literal(type, j.get<bool>());
    case TypeId::kInt:
      if (!j.is_number_integer()) return wrong();
      return Literal(type, j.get<int32_t>());
    case TypeId::kLong:
      if (!j.is_number_integer()) return wrong();
      return Literal(type, j.get<int64_t>());
    case TypeId::kFloat:
      if (!j.is_number()) return wrong();
      return Literal(type, j.get<float>());
    case TypeId::kDouble:
      if (!j.is_number()) return wrong();
      return Literal(type, j.get<double>());
    case TypeId::kFixed:
    case TypeId::kBinary: {
      if (!j.is_string()) return wrong();
      auto bytes = Unhex(j.get<std::string>());
      if (!bytes) return wrong();
      if (type->id() == TypeId::kFixed && static_cast<int>(bytes->size()) != type->length()) return wrong();
      return Literal(type, std::move(*bytes));
    }
    case TypeId::kVariant: {
      FLOE_ASSIGN_OR_RETURN(VariantBytes v, EncodeVariant(j));
      return Literal(type, PackVariant(v.metadata, v.value));
    }
    default:
      if (!j.is_string()) return wrong();
      return Literal::String(j.get<std::string>()).CastTo(type);
  }
}

Result<Literal> Literal::CastTo(const TypePtr& target) const {
  if (!type_) return Null(target);
  if (is_null()) return Null(target);
  TypeId from = type_->id(), to = target->id();
  if (type_->Equals(*target)) return *this;
  auto impossible = [&] {
    return InvalidArgument("cannot convert " + type_->ToString() + " value " + ToString() + " to " + target->ToString());
  };
  if (from == TypeId::kString) {
    const std::string& s = AsBytes();
    switch (to) {
      case TypeId::kBoolean:
        if (s == "true" || s == "TRUE") return Literal(target, true);
        if (s == "false" || s == "FALSE") return Literal(target, false);
        return impossible();
      case TypeId::kInt:
      case TypeId::kLong: {
        try {
          size_t used = 0;
          long long v = std::stoll(s, &used);
          if (used != s.size()) return impossible();
          if (to == TypeId::kInt) {
            if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return impossible();
            return Literal(target, static_cast<int32_t>(v));
          }
          return Literal(target, static_cast<int64_t>(v));
        } catch (...) {
          return impossible();
        }
      }
      case TypeId::kFloat:
      case TypeId::kDouble: {
        try {
          size_t used = 0;
          double v = std::stod(s, &used);
          if (used != s.size()) return impossible();
          if (to == TypeId::kFloat) return Literal(target, static_cast<float>(v));
          return Literal(target, v);
        } catch (...) {
          return impossible();
        }
      }
      case TypeId::kDecimal: {
        FLOE_ASSIGN_OR_RETURN(__int128 v, ParseDecimal(s, target->precision(), target->scale()));
        return Literal(target, v);
      }
      case TypeId::kDate: {
        FLOE_ASSIGN_OR_RETURN(int32_t d, ParseDate(s));
        return Literal(target, d);
      }
      case TypeId::kTime: {
        FLOE_ASSIGN_OR_RETURN(int64_t t, ParseTimeMicros(s));
        return Literal(target, t);
      }
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: {
        FLOE_ASSIGN_OR_RETURN(int64_t t, ParseTimestamp(s, IsNanosType(to) ? kNanos : kMicros));
        return Literal(target, t);
      }
      case TypeId::kUuid: {
        FLOE_ASSIGN_OR_RETURN(std::string b, UuidFromString(s));
        return Literal(target, std::move(b));
      }
      case TypeId::kFixed:
        if (static_cast<int>(s.size()) != target->length()) return impossible();
        return Literal(target, s);
      case TypeId::kBinary: return Literal(target, s);
      case TypeId::kVariant: {
        FLOE_ASSIGN_OR_RETURN(std::string packed, PackedVariantFromJsonText(s));
        return Literal(target, std::move(packed));
      }
      case TypeId::kGeometry:
      case TypeId::kGeography: {
        FLOE_ASSIGN_OR_RETURN(std::string wkb, WkbFromHex(s));
        return Literal(target, std::move(wkb));
      }
      default: return impossible();
    }
  }
  switch (to) {
    case TypeId::kInt:
      if (from == TypeId::kLong) {
        int64_t v = AsLong();
        if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return impossible();
        return Literal(target, static_cast<int32_t>(v));
      }
      break;
    case TypeId::kLong:
      if (from == TypeId::kInt) return Literal(target, static_cast<int64_t>(AsInt()));
      break;
    case TypeId::kFloat:
      if (from == TypeId::kDouble) return Literal(target, static_cast<float>(AsDouble()));
      if (from == TypeId::kInt || from == TypeId::kLong) return Literal(target, static_cast<float>(AsInt64()));
      break;
    case TypeId::kDouble:
      if (from == TypeId::kFloat) return Literal(target, static_cast<double>(AsFloat()));
      if (from == TypeId::kInt || from == TypeId::kLong) return Literal(target, static_cast<double>(AsInt64()));
      break;
    case TypeId::kDecimal: {
      __int128 scale_up = 1;
      if (from == TypeId::kInt || from == TypeId::kLong) {
        for (int i = 0; i < target->scale(); ++i) scale_up *= 10;
        return Literal(target, static_cast<__int128>(AsInt64()) * scale_up);
      }
      if (from == TypeId::kDecimal) {
        if (target->scale() >= type_->scale()) {
          for (int i = type_->scale(); i < target->scale(); ++i) scale_up *= 10;
          return Literal(target, AsDecimal() * scale_up);
        }
        return impossible();
      }
      break;
    }
    case TypeId::kDate:
      if (from == TypeId::kInt) return Literal(target, AsInt());
      break;
    case TypeId::kTime:
      if (from == TypeId::kLong) return Literal(target, AsLong());
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      int64_t units = IsNanosType(to) ? kNanos : kMicros;
      if (from == TypeId::kDate) return Literal(target, static_cast<int64_t>(AsInt()) * 86400 * units);
      if (from == TypeId::kLong) return Literal(target, AsLong());
      if (IsTimestampType(from)) {
        int64_t v = AsLong();
        if (IsNanosType(from) && !IsNanosType(to)) v = FloorDiv(v, 1000);
        if (!IsNanosType(from) && IsNanosType(to)) v *= 1000;
        return Literal(target, v);
      }
      break;
    }
    case TypeId::kString:
      return Literal(target, ToString());
    case TypeId::kBinary:
      if (from == TypeId::kFixed || from == TypeId::kUuid) return Literal(target, AsBytes());
      break;
    case TypeId::kFixed:
      if ((from == TypeId::kBinary || from == TypeId::kUuid) && static_cast<int>(AsBytes().size()) == target->length())
        return Literal(target, AsBytes());
      break;
    default: break;
  }
  return impossible();
}

std::string Literal::ToString() const {
  if (!type_ || is_null()) return "null";
  switch (type_->id()) {
    case TypeId::kBoolean: return AsBool() ? "true" : "false";
    case TypeId::kInt:
    case TypeId::kLong: return std::to_string(AsInt64());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = type_->id() == TypeId::kFloat ? AsFloat() : AsDouble();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      char buf[64];
      std::snprintf(buf, sizeof buf, type_->id() == TypeId::kFloat ? "%.9g" : "%.17g", d);
      // Shortest form that reads back to the same value.
      for (int precision = 1; precision <= 17; ++precision) {
        char shorter[64];
        std::snprintf(shorter, sizeof shorter, "%.*g", precision, d);
        if ((type_->id() == TypeId::kFloat && std::strtof(shorter, nullptr) == static_cast<float>(d)) ||
            (type_->id() == TypeId::kDouble && std::strtod(shorter, nullptr) == d))
          return shorter;
      }
      return buf;
    }
    case TypeId::kString: return AsBytes();
    default: {
      nlohmann::json j = ToJson();
      return j.is_string() ? j.get<std::string>() : j.dump();
    }
  }
}

int Literal::Compare(const Literal& a, const Literal& b) {
  if (a.is_null() || b.is_null()) return (a.is_null() ? 0 : 1) - (b.is_null() ? 0 : 1);
  auto three_way = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  const auto& va = a.value_;
  const auto& vb = b.value_;
  if (va.index() != vb.index()) {
    // Mixed storage (int vs long, float vs double): compare numerically.
    auto as_double = [](const Value& v) -> double {
      if (auto* i = std::get_if<int32_t>(&v)) return *i;
      if (auto* l = std::get_if<int64_t>(&v)) return static_cast<double>(*l);
      if (auto* f = std::get_if<float>(&v)) return *f;
      if (auto* d = std::get_if<double>(&v)) return *d;
      return 0;
    };
    if ((std::holds_alternative<int32_t>(va) || std::holds_alternative<int64_t>(va)) &&
        (std::holds_alternative<int32_t>(vb) || std::holds_alternative<int64_t>(vb)))
      return three_way(a.AsInt64(), b.AsInt64());
    return three_way(DoubleOrderKey(as_double(va)), DoubleOrderKey(as_double(vb)));
  }
  switch (va.index()) {
    case 1: return three_way(std::get<bool>(va), std::get<bool>(vb));
    case 2: return three_way(std::get<int32_t>(va), std::get<int32_t>(vb));
    case 3: return three_way(std::get<int64_t>(va), std::get<int64_t>(vb));
    case 4: return three_way(DoubleOrderKey(std::get<float>(va)), DoubleOrderKey(std::get<float>(vb)));
    case 5: return three_way(DoubleOrderKey(std::get<double>(va)), DoubleOrderKey(std::get<double>(vb)));
    case 6: return three_way(std::get<__int128>(va), std::get<__int128>(vb));
    case 7: {
      const std::string& x = std::get<std::string>(va);
      const std::string& y = std::get<std::string>(vb);
      int c = std::memcmp(x.data(), y.data(), std::min(x.size(), y.size()));  // unsigned byte order
      if (c != 0) return c < 0 ? -1 : 1;
      return three_way(x.size(), y.size());
    }
    default: return 0;
  }
}

}  // namespace floe
