#include "avro/iceberg_avro.h"

namespace floe::avro {

namespace {

// The fewest bytes whose two's complement holds every unscaled value of `precision` digits.
int DecimalBytes(int precision) {
  for (int n = 1; n < 17; ++n) {
    // Largest positive value of n bytes: 2^(8n-1) - 1; it must reach 10^precision - 1.
    long double max = 1;
    for (int i = 0; i < 8 * n - 1; ++i) max *= 2;
    long double need = 1;
    for (int i = 0; i < precision; ++i) need *= 10;
    if (max >= need) return n;
  }
  return 16;
}

std::string DecimalFixed(__int128 v, int size) {
  std::string out(static_cast<size_t>(size), '\0');
  auto u = static_cast<unsigned __int128>(v);
  for (int i = size - 1; i >= 0; --i) {
    out[i] = static_cast<char>(u & 0xff);
    u >>= 8;
  }
  return out;
}

Result<__int128> DecimalFromBigEndian(std::string_view b) {
  if (b.size() > 16) return Corrupt("decimal wider than 16 bytes");
  unsigned __int128 v = (!b.empty() && (static_cast<unsigned char>(b[0]) & 0x80)) ? ~static_cast<unsigned __int128>(0) : 0;
  for (unsigned char c : b) v = (v << 8) | c;
  return static_cast<__int128>(v);
}

nlohmann::ordered_json Logical(const char* base, const char* logical) {
  return nlohmann::ordered_json{{"type", base}, {"logicalType", logical}};
}

}  // namespace

std::string AvroName(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (letter || (digit && i > 0)) {
      out.push_back(static_cast<char>(c));
    } else if (digit) {
      out.push_back('_');
      out.push_back(static_cast<char>(c));
    } else {
      static const char* kHex = "0123456789ABCDEF";
      out += "_x";
      if (c >= 16) out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out.empty() ? "_" : out;
}

Result<nlohmann::ordered_json> AvroType(const Type& type, std::string_view unique) {
  using J = nlohmann::ordered_json;
  switch (type.id()) {
    case TypeId::kBoolean: return J("boolean");
    case TypeId::kInt: return J("int");
    case TypeId::kLong: return J("long");
    case TypeId::kFloat: return J("float");
    case TypeId::kDouble: return J("double");
    case TypeId::kDate: return Logical("int", "date");
    case TypeId::kTime: return Logical("long", "time-micros");
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      J j = Logical("long", "timestamp-micros");
      j["adjust-to-utc"] = type.id() == TypeId::kTimestampTz;
      return j;
    }
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      J j = Logical("long", "timestamp-nanos");
      j["adjust-to-utc"] = type.id() == TypeId::kTimestampTzNs;
      return j;
    }
    case TypeId::kString: return J("string");
    case TypeId::kBinary: return J("bytes");
    case TypeId::kUuid:
      return J{{"type", "fixed"}, {"name", "uuid_fixed_" + std::string(unique)}, {"size", 16}, {"logicalType", "uuid"}};
    case TypeId::kFixed:
      return J{{"type", "fixed"}, {"name", "fixed_" + std::string(unique)}, {"size", type.length()}};
    case TypeId::kDecimal:
      return J{{"type", "fixed"},
               {"name", "decimal_" + std::to_string(type.precision()) + "_" + std::to_string(type.scale()) + "_" +
                            std::string(unique)},
               {"size", DecimalBytes(type.precision())},
               {"logicalType", "decimal"},
               {"precision", type.precision()},
               {"scale", type.scale()}};
    default:
      return NotSupported("no Avro form for a partition field of type " + type.ToString());
  }
}

Status EncodeValue(Encoder& e, const Literal& value, const Type& type) {
  if (value.is_null()) return InvalidArgument("EncodeValue: null value");
  try {
    switch (type.id()) {
      case TypeId::kBoolean: e.WriteBool(value.AsBool()); return Ok();
      case TypeId::kInt:
      case TypeId::kDate: e.WriteInt(static_cast<int32_t>(value.AsInt64())); return Ok();
      case TypeId::kLong:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampTz:
      case TypeId::kTimestampNs:
      case TypeId::kTimestampTzNs: e.WriteLong(value.AsInt64()); return Ok();
      case TypeId::kFloat: e.WriteFloat(value.AsFloat()); return Ok();
      case TypeId::kDouble:
        e.WriteDouble(std::holds_alternative<float>(value.value()) ? value.AsFloat() : value.AsDouble());
        return Ok();
      case TypeId::kString:
      case TypeId::kBinary: e.WriteBytes(value.AsBytes()); return Ok();
      case TypeId::kUuid:
      case TypeId::kFixed: {
        const std::string& b = value.AsBytes();
        size_t want = type.id() == TypeId::kUuid ? 16 : static_cast<size_t>(type.length());
        if (b.size() != want) return InvalidArgument("value of " + type.ToString() + " has " + std::to_string(b.size()) + " bytes");
        e.WriteFixed(b);
        return Ok();
      }
      case TypeId::kDecimal: e.WriteFixed(DecimalFixed(value.AsDecimal(), DecimalBytes(type.precision()))); return Ok();
      default: break;
    }
  } catch (const std::bad_variant_access&) {
    return InvalidArgument("partition value " + value.ToString() + " does not match type " + type.ToString());
  }
  return NotSupported("cannot encode a value of type " + type.ToString());
}

Result<Literal> DecodeValue(Decoder& d, const Node& node, const TypePtr& type) {
  auto mismatch = [&]() {
    return Corrupt("partition value written as Avro " + std::string(NodeKindName(node.kind)) + " cannot be read as " +
                   type->ToString());
  };
  switch (node.kind) {
    case NodeKind::kBoolean:
      if (type->id() != TypeId::kBoolean) return mismatch();
      return Literal(type, d.ReadBool());
    case NodeKind::kInt: {
      int32_t v = d.ReadInt();
      switch (type->id()) {
        case TypeId::kInt:
        case TypeId::kDate: return Literal(type, v);
        case TypeId::kLong: return Literal(type, static_cast<int64_t>(v));
        default: return mismatch();
      }
    }
    case NodeKind::kLong: {
      int64_t v = d.ReadLong();
      switch (type->id()) {
        case TypeId::kLong:
        case TypeId::kTime:
        case TypeId::kTimestamp:
        case TypeId::kTimestampTz:
        case TypeId::kTimestampNs:
        case TypeId::kTimestampTzNs: return Literal(type, v);
        default: return mismatch();
      }
    }
    case NodeKind::kFloat: {
      float v = d.ReadFloat();
      if (type->id() == TypeId::kFloat) return Literal(type, v);
      if (type->id() == TypeId::kDouble) return Literal(type, static_cast<double>(v));
      return mismatch();
    }
    case NodeKind::kDouble:
      if (type->id() != TypeId::kDouble) return mismatch();
      return Literal(type, d.ReadDouble());
    case NodeKind::kString:
    case NodeKind::kBytes:
    case NodeKind::kFixed: {
      std::string_view b = node.kind == NodeKind::kFixed ? d.ReadFixedView(static_cast<size_t>(node.size)) : d.ReadBytesView();
      if (d.failed()) return Corrupt("truncated partition value");
      switch (type->id()) {
        case TypeId::kString:
        case TypeId::kBinary: return Literal(type, std::string(b));
        case TypeId::kFixed:
          if (b.size() != static_cast<size_t>(type->length())) return mismatch();
          return Literal(type, std::string(b));
        case TypeId::kUuid:
          if (node.kind == NodeKind::kString) return Literal::String(std::string(b)).CastTo(type);
          if (b.size() != 16) return mismatch();
          return Literal(type, std::string(b));
        case TypeId::kDecimal: {
          if (node.kind == NodeKind::kString) return mismatch();
          FLOE_ASSIGN_OR_RETURN(__int128 v, DecimalFromBigEndian(b));
          return Literal(type, v);
        }
        default: return mismatch();
      }
    }
    default: return mismatch();
  }
}

Result<TypePtr> IcebergTypeOf(const Node& node) {
  const std::string& lt = node.logical_type;
  switch (node.kind) {
    case NodeKind::kBoolean: return Type::Boolean();
    case NodeKind::kInt: return lt == "date" ? Type::Date() : Type::Int();
    case NodeKind::kLong:
      if (lt == "time-micros") return Type::Time();
      if (lt == "timestamp-micros") return node.adjust_to_utc ? Type::TimestampTz() : Type::Timestamp();
      if (lt == "timestamp-nanos") return node.adjust_to_utc ? Type::TimestampTzNs() : Type::TimestampNs();
      return Type::Long();
    case NodeKind::kFloat: return Type::Float();
    case NodeKind::kDouble: return Type::Double();
    case NodeKind::kString: return lt == "uuid" ? Type::Uuid() : Type::String();
    case NodeKind::kBytes: return lt == "decimal" ? Type::Decimal(node.precision, node.scale) : Type::Binary();
    case NodeKind::kFixed:
      if (lt == "decimal") return Type::Decimal(node.precision, node.scale);
      if (lt == "uuid" && node.size == 16) return Type::Uuid();
      return Type::Fixed(node.size);
    default:
      return Corrupt("no Iceberg type for Avro " + std::string(NodeKindName(node.kind)));
  }
}

}  // namespace floe::avro
