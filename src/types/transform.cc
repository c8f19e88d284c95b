#include "types/transform.h"

#include <charconv>

#include "types/temporal.h"
#include "util/murmur3.h"

namespace floe {
namespace {

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}
int64_t UnitsPerDay(TypeId id) {
  return (id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs) ? 86400LL * 1000000000 : 86400LL * 1000000;
}

// Days since the epoch of a date or timestamp literal.
int64_t DaysOf(const Literal& v) {
  if (v.type()->id() == TypeId::kDate) return v.AsInt();
  return FloorDiv(v.AsLong(), UnitsPerDay(v.type()->id()));
}

int32_t MonthsOf(const Literal& v) {
  int y;
  unsigned m, d;
  CivilFromDays(static_cast<int32_t>(DaysOf(v)), &y, &m, &d);
  return (y - 1970) * 12 + static_cast<int32_t>(m) - 1;
}

// Keeps the first `width` code points of UTF-8 text.
std::string TruncateUtf8(const std::string& s, int width) {
  size_t pos = 0;
  for (int n = 0; n < width && pos < s.size(); ++n) {
    unsigned char c = s[pos];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : 4;
    pos = std::min(s.size(), pos + len);
  }
  return s.substr(0, pos);
}

}  // namespace

Result<Transform> Transform::Parse(std::string_view text) {
  auto param = [&](std::string_view prefix) -> int {
    std::string_view inner = text.substr(prefix.size(), text.size() - prefix.size() - 1);
    int v = 0;
    auto [p, ec] = std::from_chars(inner.data(), inner.data() + inner.size(), v);
    return (ec == std::errc() && p == inner.data() + inner.size() && v > 0) ? v : 0;
  };
  if (text == "identity") return Identity();
  if (text == "year" || text == "years") return Year();
  if (text == "month" || text == "months") return Month();
  if (text == "day" || text == "days") return Day();
  if (text == "hour" || text == "hours") return Hour();
  if (text == "void" || text == "alwaysNull") return Void();
  if (text.starts_with("bucket[") && text.ends_with("]")) {
    if (int n = param("bucket["); n > 0) return Bucket(n);
  }
  if (text.starts_with("truncate[") && text.ends_with("]")) {
    if (int w = param("truncate["); w > 0) return Truncate(w);
  }
  return InvalidArgument("unknown partition transform '" + std::string(text) + "'");
}

Transform Transform::Unknown(std::string name) {
  Transform t(TransformKind::kUnknown);
  t.name_ = std::move(name);
  return t;
}

Transform Transform::FromMetadata(std::string_view text) {
  auto known = Parse(text);
  return known ? *known : Unknown(std::string(text));
}

std::string Transform::ToString() const {
  switch (kind_) {
    case TransformKind::kIdentity: return "identity";
    case TransformKind::kBucket: return "bucket[" + std::to_string(param_) + "]";
    case TransformKind::kTruncate: return "truncate[" + std::to_string(param_) + "]";
    case TransformKind::kYear: return "year";
    case TransformKind::kMonth: return "month";
    case TransformKind::kDay: return "day";
    case TransformKind::kHour: return "hour";
    case TransformKind::kVoid: return "void";
    case TransformKind::kUnknown: return name_;
  }
  return "unknown";
}

bool Transform::CanTransform(const Type& source) const {
  TypeId id = source.id();
  if (kind_ == TransformKind::kUnknown) return true;  // not evaluated: no type to refuse
  if (!source.is_primitive()) return kind_ == TransformKind::kVoid;
  switch (kind_) {
    case TransformKind::kIdentity:
    case TransformKind::kVoid: return true;
    case TransformKind::kBucket:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kDate ||
             id == TypeId::kTime || IsTimestamp(id) || id == TypeId::kString || id == TypeId::kUuid ||
             id == TypeId::kFixed || id == TypeId::kBinary;
    case TransformKind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kString ||
             id == TypeId::kBinary;
    case TransformKind::kYear:
    case TransformKind::kMonth:
    case TransformKind::kDay: return id == TypeId::kDate || IsTimestamp(id);
    case TransformKind::kHour: return IsTimestamp(id);
    case TransformKind::kUnknown: return true;
  }
  return false;
}

Result<TypePtr> Transform::ResultType(const TypePtr& source) const {
  if (!CanTransform(*source))
    return InvalidArgument("transform " + ToString() + " cannot be applied to type " + source->ToString());
  switch (kind_) {
    case TransformKind::kIdentity:
    case TransformKind::kTruncate:
    case TransformKind::kVoid: return source;
    case TransformKind::kDay: return Type::Date();  // as Iceberg's reference implementation writes it
    case TransformKind::kUnknown: return Type::String();  // what Iceberg Java gives a transform it does not know
    default: return Type::Int();
  }
}

Result<int32_t> BucketHash(const Literal& v) {
  switch (v.type()->id()) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: return Murmur3HashLong(v.AsInt64());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return Murmur3HashLong(FloorDiv(v.AsLong(), 1000));  // hashed as micros
    case TypeId::kDecimal:
    case TypeId::kString:
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary: {
      FLOE_ASSIGN_OR_RETURN(std::string bytes, v.ToBinary());
      return Murmur3Hash32(bytes);
    }
    default: return InvalidArgument("cannot bucket a " + v.type()->ToString() + " value");
  }
}

Result<Literal> Transform::Apply(const Literal& v) const {
  if (kind_ == TransformKind::kUnknown)
    return NotSupported("transform '" + name_ + "' is not one floe knows: it cannot be evaluated");
  FLOE_ASSIGN_OR_RETURN(TypePtr result_type, ResultType(v.type()));
  if (v.is_null() || kind_ == TransformKind::kVoid) return Literal::Null(result_type);
  TypeId id = v.type()->id();
  switch (kind_) {
    case TransformKind::kIdentity: return v;
    case TransformKind::kBucket: {
      FLOE_ASSIGN_OR_RETURN(int32_t hash, BucketHash(v));
      return Literal::Int((hash & 0x7fffffff) % param_);
    }
    case TransformKind::kTruncate: {
      int64_t w = param_;
      switch (id) {
        case TypeId::kInt: return Literal(v.type(), static_cast<int32_t>(v.AsInt() - FloorMod(v.AsInt(), w)));
        case TypeId::kLong: return Literal(v.type(), v.AsLong() - FloorMod(v.AsLong(), w));
        case TypeId::kDecimal: {
          __int128 u = v.AsDecimal();
          __int128 r = u % w;
          if (r < 0) r += w;
          return Literal(v.type(), u - r);
        }
        case TypeId::kString: return Literal(v.type(), TruncateUtf8(v.AsBytes(), param_));
        case TypeId::kBinary: return Literal(v.type(), v.AsBytes().substr(0, std::min<size_t>(param_, v.AsBytes().size())));
        default: break;
      }
      break;
    }
    case TransformKind::kYear: {
      int y;
      unsigned m, d;
      CivilFromDays(static_cast<int32_t>(DaysOf(v)), &y, &m, &d);
      return Literal::Int(y - 1970);
    }
    case TransformKind::kMonth: return Literal::Int(MonthsOf(v));
    case TransformKind::kDay: return Literal::Date(static_cast<int32_t>(DaysOf(v)));
    case TransformKind::kHour: {
      int64_t per_hour = UnitsPerDay(id) / 24;
      return Literal::Int(static_cast<int32_t>(FloorDiv(v.AsLong(), per_hour)));
    }
    default: break;
  }
  return InvalidArgument("transform " + ToString() + " cannot be applied to type " + v.type()->ToString());
}

}  // namespace floe
