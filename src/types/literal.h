// A Literal: one typed value (or a typed null), with the two serial forms Iceberg defines.
//
// Storage by type:
//   boolean -> bool; int, date -> int32_t; long, time, timestamp* -> int64_t
//   (micros, or nanos for the _ns types); float; double; decimal -> __int128 unscaled;
//   string (UTF-8), binary, fixed, uuid (16 bytes, big-endian) -> std::string of bytes;
//   struct, list, map -> NestedItems (Literal::Nested): a struct's field values in field
//   order, a list's elements, a map's keys and values interleaved (k0, v0, k1, v1, ...).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <variant>

#include <nlohmann/json.hpp>

#include "types/type.h"
#include "floe/result.h"

namespace floe {

class Literal;
using NestedItems = std::shared_ptr<const std::vector<Literal>>;

class Literal {
 public:
  using Value = std::variant<std::monostate, bool, int32_t, int64_t, float, double, __int128, std::string, NestedItems>;

  Literal() = default;  // a null of no type; only useful as a placeholder
  Literal(TypePtr type, Value value) : type_(std::move(type)), value_(std::move(value)) {}

  static Literal Null(TypePtr type) { return Literal(std::move(type), std::monostate{}); }
  static Literal Boolean(bool v) { return Literal(Type::Boolean(), v); }
  static Literal Int(int32_t v) { return Literal(Type::Int(), v); }
  static Literal Long(int64_t v) { return Literal(Type::Long(), v); }
  static Literal Float(float v) { return Literal(Type::Float(), v); }
  static Literal Double(double v) { return Literal(Type::Double(), v); }
  static Literal Date(int32_t days) { return Literal(Type::Date(), days); }
  static Literal Time(int64_t micros) { return Literal(Type::Time(), micros); }
  static Literal Timestamp(int64_t micros) { return Literal(Type::Timestamp(), micros); }
  static Literal TimestampTz(int64_t micros) { return Literal(Type::TimestampTz(), micros); }
  static Literal String(std::string v) { return Literal(Type::String(), std::move(v)); }
  static Literal Binary(std::string bytes) { return Literal(Type::Binary(), std::move(bytes)); }
  static Literal Decimal(__int128 unscaled, int precision, int scale) {
    return Literal(Type::Decimal(precision, scale), unscaled);
  }
  // A struct, list or map value; items laid out as NestedItems says above.
  static Literal Nested(TypePtr type, std::vector<Literal> items) {
    return Literal(std::move(type), std::make_shared<const std::vector<Literal>>(std::move(items)));
  }

  const TypePtr& type() const { return type_; }
  const Value& value() const { return value_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }

  bool AsBool() const { return std::get<bool>(value_); }
  int32_t AsInt() const { return std::get<int32_t>(value_); }
  int64_t AsLong() const { return std::get<int64_t>(value_); }
  float AsFloat() const { return std::get<float>(value_); }
  double AsDouble() const { return std::get<double>(value_); }
  __int128 AsDecimal() const { return std::get<__int128>(value_); }
  const std::string& AsBytes() const { return std::get<std::string>(value_); }
  const std::vector<Literal>& AsItems() const { return *std::get<NestedItems>(value_); }
  // int/long/date/time/timestamp widened to int64 (for transforms and comparisons).
  int64_t AsInt64() const;

  // Iceberg's single-value binary form (manifest bounds, partition summaries).
  Result<std::string> ToBinary() const;
  static Result<Literal> FromBinary(const TypePtr& type, std::string_view bytes);

  // Iceberg's JSON single-value form (default values, partition stats, inspect output). Nested:
  // a struct is an object keyed by field id ("1"), a list an array, a map
  // {"keys": [...], "values": [...]}; FromJson refuses unknown field ids and nulls in required places.
  nlohmann::json ToJson() const;
  static Result<Literal> FromJson(const TypePtr& type, const nlohmann::json& json);

  // Converts a literal to another type: a string to a date/time/timestamp/uuid/decimal/number,
  // int to long, float to double, date to timestamp, ...; InvalidArgument when impossible.
  // Nested: to the same kind, items cast recursively (struct fields matched by id, else name;
  // fields the value lacks are null); a string holding the human JSON (types/nested_json.h)
  // to a nested type; a nested value to string as its ToString.
  Result<Literal> CastTo(const TypePtr& target) const;

  // A human form: dates and timestamps in ISO 8601, binary in hex, strings unquoted; a nested
  // value as its human JSON text (types/nested_json.h).
  std::string ToString() const;

  // Orders two non-null literals of the same type per Iceberg (strings and binary by unsigned
  // bytes; -0.0 < 0.0; NaN greater than everything). Nulls compare first. Nested values compare
  // item by item, a prefix before the longer value.
  static int Compare(const Literal& a, const Literal& b);

  friend bool operator==(const Literal& a, const Literal& b) {
    if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
    return Compare(a, b) == 0;
  }
  friend bool operator<(const Literal& a, const Literal& b) { return Compare(a, b) < 0; }

 private:
  nlohmann::json NestedToJson() const;
  static Result<Literal> NestedFromJson(const TypePtr& type, const nlohmann::json& json);
  Result<Literal> NestedCastTo(const TypePtr& target) const;

  TypePtr type_;
  Value value_;
};

}  // namespace floe
