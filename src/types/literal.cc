#include "types/literal.h"

#include "types/variant.h"
#include "types/wkb.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "types/decimal_digits.h"
#include "types/nested_json.h"
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
  // Checked before scaling up, so the scaling cannot overflow: v < 10^(precision - missing).
  if (!FitsDigits(v, precision - (scale - fraction_digits))) return fail();
  v *= PowerOfTen(scale - fraction_digits);
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
  // Exactly the 8-4-4-4-12 form: dashes only at 8, 13, 18 and 23, hex digits everywhere else
  // (a dash elsewhere would leave fewer than 16 bytes).
  const auto is_dash_place = [](size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; };
  if (s.size() != 36) return InvalidArgument("invalid uuid '" + std::string(s) + "'");
  std::string hex;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] == '-') != is_dash_place(i)) return InvalidArgument("invalid uuid '" + std::string(s) + "'");
    if (s[i] != '-') hex.push_back(s[i]);
  }
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
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
      return InvalidArgument("a " + type_->ToString() + " value has no single-value binary form (Iceberg defines one for primitives only)");
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
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return NestedToJson();
    default: return nullptr;
  }
}

// Iceberg's JSON single-value form of a nested value: a struct is an object keyed by field id
// (as a string), a list an array, a map {"keys": [...], "values": [...]}; the items in the
// same form. A struct's null fields are written as null.
nlohmann::json Literal::NestedToJson() const {
  if (!std::holds_alternative<NestedItems>(value_)) return nullptr;
  const std::vector<Literal>& items = AsItems();
  switch (type_->id()) {
    case TypeId::kStruct: {
      nlohmann::json out = nlohmann::json::object();
      const auto& fields = type_->fields();
      for (size_t i = 0; i < fields.size() && i < items.size(); ++i) out[std::to_string(fields[i].id)] = items[i].ToJson();
      return out;
    }
    case TypeId::kList: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : items) out.push_back(item.ToJson());
      return out;
    }
    default: {
      nlohmann::json keys = nlohmann::json::array(), values = nlohmann::json::array();
      for (size_t i = 0; i + 1 < items.size(); i += 2) {
        keys.push_back(items[i].ToJson());
        values.push_back(items[i + 1].ToJson());
      }
      return nlohmann::json{{"keys", std::move(keys)}, {"values", std::move(values)}};
    }
  }
}

Result<Literal> Literal::NestedFromJson(const TypePtr& type, const nlohmann::json& j) {
  auto wrong = [&](const std::string& why) {
    return InvalidArgument("cannot read " + j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                           " as a " + type->ToString() + " value: " + why);
  };
  const auto& fields = type->fields();
  // One item, read in its field's form; a null where the field is required is refused.
  auto item = [&](const NestedField& field, const nlohmann::json& v, bool required, const std::string& what) -> Result<Literal> {
    if (v.is_null() && required) return wrong(what + " is required but is null");
    auto read = FromJson(field.type, v);
    if (!read) return std::unexpected(read.error().WithContext(what));
    return read;
  };
  std::vector<Literal> items;
  switch (type->id()) {
    case TypeId::kStruct: {
      if (!j.is_object()) return wrong("a struct is a JSON object keyed by field id");
      for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const auto& f : fields) known = known || std::to_string(f.id) == it.key();
        if (!known) return wrong("the struct has no field id " + it.key());
      }
      static const nlohmann::json kNull;
      for (const auto& f : fields) {
        auto it = j.find(std::to_string(f.id));
        FLOE_ASSIGN_OR_RETURN(Literal v, item(f, it == j.end() ? kNull : *it, f.required, "field " + std::to_string(f.id)));
        items.push_back(std::move(v));
      }
      break;
    }
    case TypeId::kList: {
      if (!j.is_array()) return wrong("a list is a JSON array");
      for (size_t i = 0; i < j.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(Literal v, item(fields[0], j[i], fields[0].required, "element " + std::to_string(i)));
        items.push_back(std::move(v));
      }
      break;
    }
    default: {
      if (!j.is_object() || j.size() != 2 || !j.contains("keys") || !j.contains("values") || !j["keys"].is_array() ||
          !j["values"].is_array())
        return wrong("a map is {\"keys\": [...], \"values\": [...]}");
      const auto& keys = j["keys"];
      const auto& values = j["values"];
      if (keys.size() != values.size())
        return wrong(std::to_string(keys.size()) + " keys but " + std::to_string(values.size()) + " values");
      for (size_t i = 0; i < keys.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(Literal k, item(fields[0], keys[i], true, "key " + std::to_string(i)));
        FLOE_ASSIGN_OR_RETURN(Literal v, item(fields[1], values[i], fields[1].required, "value " + std::to_string(i)));
        items.push_back(std::move(k));
        items.push_back(std::move(v));
      }
      break;
    }
  }
  return Nested(type, std::move(items));
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
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return NestedFromJson(type, j);
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
  if (target->is_nested() && std::holds_alternative<NestedItems>(value_)) return NestedCastTo(target);
  if (target->is_nested() && from == TypeId::kString) {
    // The human JSON text of the value (what scan prints): '["a", "b"]', '{"zip": 1}'.
    nlohmann::json j = nlohmann::json::parse(AsBytes(), nullptr, false);
    if (j.is_discarded())
      return InvalidArgument("cannot read '" + AsBytes() + "' as a " + target->ToString() + ": it is not JSON");
    return LiteralFromCellJson(target, j);
  }
  if (target->is_nested() || std::holds_alternative<NestedItems>(value_)) {
    if (to == TypeId::kString) return Literal(target, ToString());
    return impossible();
  }
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
      // The value must fit the target's precision once scaled (checked before scaling, so the
      // product cannot overflow): 1 is not a decimal(4,4), 123.4 is not a decimal(4,2).
      if (from == TypeId::kInt || from == TypeId::kLong) {
        const __int128 v = AsInt64();
        if (!FitsDigits(v, target->precision() - target->scale())) return impossible();
        return Literal(target, v * PowerOfTen(target->scale()));
      }
      if (from == TypeId::kDecimal) {
        const int more_scale = target->scale() - type_->scale();
        if (more_scale < 0 || !FitsDigits(AsDecimal(), target->precision() - more_scale)) return impossible();
        return Literal(target, AsDecimal() * PowerOfTen(more_scale));
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

// Same kind of nested type: each item cast to its place in the target. A struct's fields are
// matched by id, else by name; a target field the value lacks is null (refused if required).
Result<Literal> Literal::NestedCastTo(const TypePtr& target) const {
  if (type_->id() != target->id())
    return InvalidArgument("cannot convert " + type_->ToString() + " value " + ToString() + " to " + target->ToString());
  const std::vector<Literal>& items = AsItems();
  const auto& from_fields = type_->fields();
  const auto& to_fields = target->fields();
  std::vector<Literal> out;
  out.reserve(items.size());
  auto cast = [&](const Literal& item, const NestedField& to, const std::string& what) -> Status {
    if (item.is_null() && to.required) return InvalidArgument(what + " is required but the value has null");
    auto c = item.CastTo(to.type);
    if (!c) return std::unexpected(c.error().WithContext(what));
    out.push_back(std::move(*c));
    return Ok();
  };
  if (target->id() == TypeId::kStruct) {
    for (const auto& to : to_fields) {
      size_t index = from_fields.size();
      for (size_t i = 0; i < from_fields.size() && index == from_fields.size(); ++i)
        if (from_fields[i].id == to.id) index = i;
      for (size_t i = 0; i < from_fields.size() && index == from_fields.size(); ++i)
        if (from_fields[i].name == to.name) index = i;
      const Literal item = index < items.size() ? items[index] : Null(to.type);
      FLOE_RETURN_IF_ERROR(cast(item, to, "field '" + to.name + "'"));
    }
  } else {
    const size_t width = to_fields.size();
    for (size_t i = 0; i < items.size(); ++i) {
      const NestedField& to = to_fields[i % width];
      std::string what = target->id() == TypeId::kList ? "element " + std::to_string(i)
                                                       : (i % width ? "value " : "key ") + std::to_string(i / width);
      if (target->id() == TypeId::kMap && i % width == 0 && items[i].is_null())
        return InvalidArgument(what + ": a map key cannot be null");
      FLOE_RETURN_IF_ERROR(cast(items[i], to, what));
    }
  }
  return Nested(target, std::move(out));
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
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: {
      std::string out;
      AppendLiteralJson(*this, &out);
      return out;
    }
    default: {
      nlohmann::json j = ToJson();
      return j.is_string() ? j.get<std::string>() : j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
    case 8: {  // nested: item by item, then the shorter first
      const std::vector<Literal>& x = *std::get<NestedItems>(va);
      const std::vector<Literal>& y = *std::get<NestedItems>(vb);
      for (size_t i = 0; i < x.size() && i < y.size(); ++i)
        if (int c = Compare(x[i], y[i]); c != 0) return c;
      return three_way(x.size(), y.size());
    }
    default: return 0;
  }
}

}  // namespace floe
