// Iceberg types: the primitives and struct/list/map, each nested field with its id.
//
// A Type is immutable and shared (TypePtr). Nested types own their fields by
// value; field ids are unique within a schema, which Schema checks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/result.h"

namespace floe {

enum class TypeId {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kTimestampNs,
  kTimestampTzNs,
  kString,
  kUuid,
  kFixed,
  kBinary,
  // Format 3 types. unknown: a column whose values are all null (no storage at all).
  // variant: semi-structured; a value is the Parquet variant encoding (metadata + value).
  // geometry / geography: WKB bytes, parameterised by a CRS (and geography by an edge algorithm).
  kUnknown,
  kVariant,
  kGeometry,
  kGeography,
  kStruct,
  kList,
  kMap,
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

struct NestedField {
  int id = 0;
  std::string name;
  TypePtr type;
  bool required = false;
  std::string doc;  // empty when absent
  // Format 3 default values, as the JSON text of Iceberg's single-value form (absent: none).
  // initial-default: what rows written before the field existed read as; write-default: what
  // a writer stores when its rows leave the field out. types/field_defaults.h reads them.
  std::optional<std::string> initial_default;
  std::optional<std::string> write_default;
};

class Type {
 public:
  // Primitive singletons and parameterised primitives.
  static TypePtr Boolean();
  static TypePtr Int();
  static TypePtr Long();
  static TypePtr Float();
  static TypePtr Double();
  static TypePtr Decimal(int precision, int scale);
  static TypePtr Date();
  static TypePtr Time();
  static TypePtr Timestamp();
  static TypePtr TimestampTz();
  static TypePtr TimestampNs();
  static TypePtr TimestampTzNs();
  static TypePtr String();
  static TypePtr Uuid();
  static TypePtr Fixed(int length);
  static TypePtr Binary();
  static TypePtr Unknown();
  static TypePtr Variant();
  // An empty crs / algorithm means the default: OGC:CRS84, spherical.
  static TypePtr Geometry(std::string crs = "");
  static TypePtr Geography(std::string crs = "", std::string algorithm = "");
  static constexpr std::string_view kDefaultCrs = "OGC:CRS84";
  static constexpr std::string_view kDefaultAlgorithm = "spherical";
  static TypePtr Struct(std::vector<NestedField> fields);
  static TypePtr List(NestedField element);
  static TypePtr Map(NestedField key, NestedField value);

  // Parses a primitive's Iceberg name: "long", "decimal(9, 2)", "fixed[16]", "timestamptz_ns",
  // "variant", "geometry(srid:4326)", "geography(OGC:CRS84, karney)".
  static Result<TypePtr> ParsePrimitive(std::string_view text);

  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ != TypeId::kStruct && id_ != TypeId::kList && id_ != TypeId::kMap; }
  bool is_nested() const { return !is_primitive(); }
  int precision() const { return precision_; }  // decimal
  int scale() const { return scale_; }          // decimal
  int length() const { return length_; }        // fixed
  // geometry / geography: the CRS and edge algorithm, defaults filled in.
  std::string crs() const { return crs_.empty() ? std::string(kDefaultCrs) : crs_; }
  std::string algorithm() const { return algorithm_.empty() ? std::string(kDefaultAlgorithm) : algorithm_; }
  // The types a format 1 or 2 table cannot hold: timestamp_ns, timestamptz_ns, unknown, variant,
  // geometry, geography (the type itself, not what it nests).
  bool NeedsFormatV3() const;
  // Struct: its fields. List: one field (the element). Map: two fields (key, value).
  const std::vector<NestedField>& fields() const { return fields_; }

  // Struct field lookup by name (exact) or id; nullptr when absent.
  const NestedField* FieldByName(std::string_view name) const;
  const NestedField* FieldById(int id) const;

  // Iceberg's name for a primitive ("decimal(9,2)", "fixed[16]"); a nested type in the schema
  // text form (types/schema_text.h: "struct<a: int not null, tags: list<string>>").
  std::string ToString() const;

  bool Equals(const Type& other) const;

 private:
  friend struct TypeFactory;
  explicit Type(TypeId id) : id_(id) {}
  TypeId id_;
  int precision_ = 0;
  int scale_ = 0;
  int length_ = 0;
  std::string crs_;        // geometry / geography; empty = default
  std::string algorithm_;  // geography; empty = default
  std::vector<NestedField> fields_;
};

inline bool operator==(const Type& a, const Type& b) { return a.Equals(b); }

}  // namespace floe
