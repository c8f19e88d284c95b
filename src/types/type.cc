#include "types/type.h"

#include <cctype>
#include <charconv>

#include "types/schema_text.h"
#include "util/strings.h"

namespace floe {
namespace {

std::string Lower(std::string_view s) {
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

// The edge-interpolation algorithms the spec lists for geography.
bool IsEdgeAlgorithm(std::string_view a) {
  return a == "spherical" || a == "vincenty" || a == "thomas" || a == "andoyer" || a == "karney";
}

// "name(args)" -> args split on the first comma (a CRS such as PROJJSON text may hold more, so
// only geography's last comma-separated word is taken as the algorithm). nullopt: no parentheses.
std::optional<std::string> ParenArgs(std::string_view text, std::string_view name) {
  if (text.size() < name.size() + 2 || Lower(text.substr(0, name.size())) != name) return std::nullopt;
  std::string_view rest = text.substr(name.size());
  std::string r = Trim(rest);
  if (r.size() < 2 || r.front() != '(' || r.back() != ')') return std::nullopt;
  return r.substr(1, r.size() - 2);
}

bool ParseInt(std::string_view s, int* out) {
  std::string t = Trim(s);
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), *out);
  return ec == std::errc() && p == t.data() + t.size();
}

}  // namespace

// Type's constructor is private; these helpers build instances through a local subclass.
struct TypeFactory {
  static std::shared_ptr<Type> New(TypeId id) { return std::shared_ptr<Type>(new Type(id)); }
};

#define FLOE_PRIMITIVE(Name, Id)                                  \
  TypePtr Type::Name() {                                          \
    static const TypePtr instance = TypeFactory::New(TypeId::Id); \
    return instance;                                              \
  }
FLOE_PRIMITIVE(Boolean, kBoolean)
FLOE_PRIMITIVE(Int, kInt)
FLOE_PRIMITIVE(Long, kLong)
FLOE_PRIMITIVE(Float, kFloat)
FLOE_PRIMITIVE(Double, kDouble)
FLOE_PRIMITIVE(Date, kDate)
FLOE_PRIMITIVE(Time, kTime)
FLOE_PRIMITIVE(Timestamp, kTimestamp)
FLOE_PRIMITIVE(TimestampTz, kTimestampTz)
FLOE_PRIMITIVE(TimestampNs, kTimestampNs)
FLOE_PRIMITIVE(TimestampTzNs, kTimestampTzNs)
FLOE_PRIMITIVE(String, kString)
FLOE_PRIMITIVE(Uuid, kUuid)
FLOE_PRIMITIVE(Binary, kBinary)
FLOE_PRIMITIVE(Unknown, kUnknown)
FLOE_PRIMITIVE(Variant, kVariant)
#undef FLOE_PRIMITIVE

TypePtr Type::Decimal(int precision, int scale) {
  auto t = TypeFactory::New(TypeId::kDecimal);
  t->precision_ = precision;
  t->scale_ = scale;
  return t;
}

TypePtr Type::Fixed(int length) {
  auto t = TypeFactory::New(TypeId::kFixed);
  t->length_ = length;
  return t;
}

TypePtr Type::Geometry(std::string crs) {
  auto t = TypeFactory::New(TypeId::kGeometry);
  if (Lower(crs) != Lower(kDefaultCrs)) t->crs_ = std::move(crs);
  return t;
}

TypePtr Type::Geography(std::string crs, std::string algorithm) {
  auto t = TypeFactory::New(TypeId::kGeography);
  if (Lower(crs) != Lower(kDefaultCrs)) t->crs_ = std::move(crs);
  algorithm = Lower(algorithm);
  if (algorithm != kDefaultAlgorithm) t->algorithm_ = std::move(algorithm);
  return t;
}

bool Type::NeedsFormatV3() const {
  switch (id_) {
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography: return true;
    default: return false;
  }
}

TypePtr Type::Struct(std::vector<NestedField> fields) {
  auto t = TypeFactory::New(TypeId::kStruct);
  t->fields_ = std::move(fields);
  return t;
}

TypePtr Type::List(NestedField element) {
  auto t = TypeFactory::New(TypeId::kList);
  if (element.name.empty()) element.name = "element";
  t->fields_.push_back(std::move(element));
  return t;
}

TypePtr Type::Map(NestedField key, NestedField value) {
  auto t = TypeFactory::New(TypeId::kMap);
  if (key.name.empty()) key.name = "key";
  if (value.name.empty()) value.name = "value";
  key.required = true;  // map keys are always required
  t->fields_.push_back(std::move(key));
  t->fields_.push_back(std::move(value));
  return t;
}

Result<TypePtr> Type::ParsePrimitive(std::string_view raw) {
  std::string text = Trim(raw);
  std::string lower;
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "boolean" || lower == "bool") return Boolean();
  if (lower == "int" || lower == "integer") return Int();
  if (lower == "long" || lower == "bigint") return Long();
  if (lower == "float") return Float();
  if (lower == "double") return Double();
  if (lower == "date") return Date();
  if (lower == "time") return Time();
  if (lower == "timestamp") return Timestamp();
  if (lower == "timestamptz") return TimestampTz();
  if (lower == "timestamp_ns") return TimestampNs();
  if (lower == "timestamptz_ns") return TimestampTzNs();
  if (lower == "string") return String();
  if (lower == "uuid") return Uuid();
  if (lower == "binary") return Binary();
  if (lower == "unknown") return Unknown();
  if (lower == "variant") return Variant();
  if (lower == "geometry") return Geometry();
  if (lower == "geography") return Geography();
  if (auto args = ParenArgs(text, "geometry")) {
    std::string crs = Trim(*args);
    if (crs.empty()) return InvalidArgument("cannot parse type '" + text + "': geometry() needs a CRS, e.g. geometry(srid:4326)");
    return Geometry(crs);
  }
  if (auto args = ParenArgs(text, "geography")) {
    std::string crs = Trim(*args), algorithm;
    size_t comma = crs.rfind(',');
    if (comma != std::string::npos) {
      algorithm = Lower(Trim(std::string_view(crs).substr(comma + 1)));
      crs = Trim(std::string_view(crs).substr(0, comma));
      if (!IsEdgeAlgorithm(algorithm))
        return InvalidArgument("cannot parse type '" + text + "': edge algorithm '" + algorithm +
                               "' is not one of spherical, vincenty, thomas, andoyer, karney");
    }
    if (crs.empty()) return InvalidArgument("cannot parse type '" + text + "': geography() needs a CRS, e.g. geography(OGC:CRS84, karney)");
    return Geography(crs, algorithm);
  }
  if (lower.starts_with("fixed[") && lower.ends_with("]")) {
    int length = 0;
    if (ParseInt(std::string_view(lower).substr(6, lower.size() - 7), &length) && length > 0) return Fixed(length);
  }
  if (lower.starts_with("decimal(") && lower.ends_with(")")) {
    std::string_view inner = std::string_view(lower).substr(8, lower.size() - 9);
    size_t comma = inner.find(',');
    int p = 0, s = 0;
    if (comma != std::string_view::npos && ParseInt(inner.substr(0, comma), &p) &&
        ParseInt(inner.substr(comma + 1), &s) && p > 0 && p <= 38 && s >= 0 && s <= p) {
      return Decimal(p, s);
    }
  }
  return InvalidArgument("cannot parse type '" + text + "'");
}

const NestedField* Type::FieldByName(std::string_view name) const {
  for (const auto& f : fields_)
    if (f.name == name) return &f;
  return nullptr;
}

const NestedField* Type::FieldById(int id) const {
  for (const auto& f : fields_)
    if (f.id == id) return &f;
  return nullptr;
}

std::string Type::ToString() const {
  switch (id_) {
    case TypeId::kBoolean: return "boolean";
    case TypeId::kInt: return "int";
    case TypeId::kLong: return "long";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDecimal: return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampTz: return "timestamptz";
    case TypeId::kTimestampNs: return "timestamp_ns";
    case TypeId::kTimestampTzNs: return "timestamptz_ns";
    case TypeId::kString: return "string";
    case TypeId::kUuid: return "uuid";
    case TypeId::kFixed: return "fixed[" + std::to_string(length_) + "]";
    case TypeId::kBinary: return "binary";
    case TypeId::kUnknown: return "unknown";
    case TypeId::kVariant: return "variant";
    case TypeId::kGeometry: return crs_.empty() ? "geometry" : "geometry(" + crs_ + ")";
    case TypeId::kGeography:
      if (crs_.empty() && algorithm_.empty()) return "geography";
      return "geography(" + crs() + (algorithm_.empty() ? "" : ", " + algorithm_) + ")";
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return TypeToText(*this);  // the schema text form, without field ids
  }
  return "unknown";
}

bool Type::Equals(const Type& other) const {
  if (id_ != other.id_ || precision_ != other.precision_ || scale_ != other.scale_ || length_ != other.length_ ||
      Lower(crs_) != Lower(other.crs_) || algorithm_ != other.algorithm_ || fields_.size() != other.fields_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    const auto& a = fields_[i];
    const auto& b = other.fields_[i];
    if (a.id != b.id || a.name != b.name || a.required != b.required || a.doc != b.doc || !a.type->Equals(*b.type) ||
        a.initial_default != b.initial_default || a.write_default != b.write_default)
      return false;
  }
  return true;
}

}  // namespace floe
