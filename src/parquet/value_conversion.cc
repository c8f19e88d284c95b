#include "parquet/value_conversion.h"

namespace floe::parquet {

Result<Conversion> PlanConversion(const LeafDescriptor& leaf, const TypePtr& target) {
  const SchemaElement& e = leaf.element;
  Conversion c;
  c.physical = *e.type;
  c.type_length = e.type_length.value_or(0);
  auto refuse = [&]() -> Result<Conversion> {
    return NotSupported("cannot read Parquet " + PhysicalTypeName(c.physical) + " column as " + target->ToString());
  };
  const int32_t p = c.physical;
  switch (target->id()) {
    case TypeId::kBoolean:
      if (p != physical::kBoolean) return refuse();
      c.out = OutKind::kBool;
      return c;
    case TypeId::kInt:
    case TypeId::kDate:
      if (p != physical::kInt32) return refuse();
      c.out = OutKind::kInt32;
      return c;
    case TypeId::kLong:
      if (p != physical::kInt32 && p != physical::kInt64) return refuse();
      c.out = OutKind::kInt64;
      return c;
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      bool nanos = target->id() == TypeId::kTimestampNs || target->id() == TypeId::kTimestampTzNs;
      c.out = OutKind::kInt64;
      if (p == physical::kInt96) {
        if (target->id() == TypeId::kTime) return refuse();
        c.int96_nanos = nanos;
        return c;
      }
      if (p != physical::kInt64 && p != physical::kInt32) return refuse();
      // A date column promoted to timestamp (format v3): days become midnight of that day.
      if (e.logical_type.kind == LogicalType::kDate || e.converted_type.value_or(-1) == converted::kDate) {
        if (target->id() != TypeId::kTimestamp && target->id() != TypeId::kTimestampNs) return refuse();
        c.multiply = nanos ? 86400000000000ll : 86400000000ll;
        return c;
      }
      int unit = TimeUnitOf(e);
      if (unit == 0) unit = nanos ? LogicalType::kNanos : LogicalType::kMicros;
      int want = nanos ? LogicalType::kNanos : LogicalType::kMicros;
      for (int u = unit; u < want; ++u) c.multiply *= 1000;
      for (int u = want; u < unit; ++u) c.divide *= 1000;
      return c;
    }
    case TypeId::kFloat:
      if (p != physical::kFloat) return refuse();
      c.out = OutKind::kFloat;
      return c;
    case TypeId::kDouble:
      if (p != physical::kFloat && p != physical::kDouble) return refuse();
      c.out = OutKind::kDouble;
      return c;
    case TypeId::kDecimal:
      if (p != physical::kInt32 && p != physical::kInt64 && p != physical::kFixedLenByteArray && p != physical::kByteArray) return refuse();
      if (p == physical::kFixedLenByteArray && c.type_length > 16) return refuse();
      c.out = OutKind::kDecimal;
      return c;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kGeometry:   // WKB in a BYTE_ARRAY
    case TypeId::kGeography:
      if (p != physical::kByteArray && p != physical::kFixedLenByteArray) return refuse();
      c.out = OutKind::kBytes;
      return c;
    case TypeId::kFixed:
      if (p != physical::kFixedLenByteArray || c.type_length != target->length()) return refuse();
      c.out = OutKind::kBytes;
      return c;
    case TypeId::kUuid:
      if (p != physical::kFixedLenByteArray || c.type_length != 16) return refuse();
      c.out = OutKind::kBytes;
      return c;
    default:
      return refuse();
  }
}

int64_t Int96ToTime(const uint8_t* p, bool nanos) {
  int64_t nanos_of_day;
  int32_t julian_day;
  std::memcpy(&nanos_of_day, p, 8);
  std::memcpy(&julian_day, p + 8, 4);
  constexpr int64_t kUnixEpochJulianDay = 2440588;
  int64_t days = static_cast<int64_t>(julian_day) - kUnixEpochJulianDay;
  if (nanos) return days * 86400ll * 1000000000ll + nanos_of_day;
  return days * 86400ll * 1000000ll + nanos_of_day / 1000;
}

__int128 BigEndianToInt128(const uint8_t* b, size_t n) {
  unsigned __int128 v = (n > 0 && (b[0] & 0x80)) ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | b[i];
  return static_cast<__int128>(v);
}

int64_t ScaleInt(int64_t v, const Conversion& c) {
  if (c.multiply != 1) v = static_cast<int64_t>(static_cast<uint64_t>(v) * static_cast<uint64_t>(c.multiply));
  if (c.divide != 1) {
    int64_t q = v / c.divide;
    if ((v % c.divide) < 0) --q;  // floor, so pre-epoch instants round down
    v = q;
  }
  return v;
}

Status NextPlainBytes(const Conversion& c, const uint8_t* p, size_t size, size_t* pos, std::string_view* v) {
  size_t len;
  if (c.physical == physical::kFixedLenByteArray) {
    len = static_cast<size_t>(c.type_length);
  } else {
    if (size - *pos < 4) return Corrupt("PLAIN byte array length reaches past the end of the page");
    uint32_t l;
    std::memcpy(&l, p + *pos, 4);
    *pos += 4;
    len = l;
  }
  if (len > size - *pos) return Corrupt("PLAIN byte array reaches past the end of the page");
  *v = std::string_view(reinterpret_cast<const char*>(p + *pos), len);
  *pos += len;
  return Ok();
}

}  // namespace floe::parquet
