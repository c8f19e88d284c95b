#include "types/variant_builder.h"

#include <algorithm>
#include <cstring>

#include "types/variant.h"

namespace floe {
namespace {

// The encoding's basic types (low 2 bits of a header byte) and the primitive ids used here.
constexpr int kPrimitive = 0, kShortString = 1, kObject = 2, kArray = 3;
enum Prim {
  kNull = 0, kTrue = 1, kFalse = 2, kInt8 = 3, kInt16 = 4, kInt32 = 5, kInt64 = 6, kDouble = 7,
  kDecimal4 = 8, kDecimal8 = 9, kDecimal16 = 10, kDate = 11, kTimestampTz = 12, kTimestampNtz = 13,
  kFloat = 14, kBinary = 15, kString = 16, kTimeNtz = 17, kTimestampTzNanos = 18, kTimestampNtzNanos = 19,
  kUuid = 20,
};

void PutLE(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
int BytesFor(uint64_t max_value) { return max_value < 0x100 ? 1 : max_value < 0x10000 ? 2 : max_value < 0x1000000 ? 3 : 4; }

Result<uint64_t> ReadLE(std::string_view bytes, size_t at, int n) {
  if (at > bytes.size() || bytes.size() - at < static_cast<size_t>(n))
    return Corrupt("variant value: " + std::to_string(n) + " bytes at offset " + std::to_string(at) +
                   " run past its end (" + std::to_string(bytes.size()) + " bytes)");
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return v;
}

// Bytes after the header byte of a primitive with a fixed size; -1 for the sized ones (binary,
// string), -2 for an unknown id.
int PrimitivePayload(int id) {
  switch (id) {
    case kNull: case kTrue: case kFalse: return 0;
    case kInt8: return 1;
    case kInt16: return 2;
    case kInt32: case kDate: case kFloat: return 4;
    case kInt64: case kDouble: case kTimestampTz: case kTimestampNtz: case kTimeNtz: case kTimestampTzNanos:
    case kTimestampNtzNanos: return 8;
    case kDecimal4: return 5;
    case kDecimal8: return 9;
    case kDecimal16: return 17;
    case kUuid: return 16;
    case kBinary: case kString: return -1;
    default: return -2;
  }
}

struct Container {
  uint64_t count = 0;
  int id_size = 0;  // 0 for an array
  int offset_size = 0;
  size_t ids_at = 0, offsets_at = 0, values_at = 0;
};

Result<Container> ReadContainer(std::string_view value, size_t at) {
  FLOE_ASSIGN_OR_RETURN(uint64_t header, ReadLE(value, at, 1));
  const int basic = static_cast<int>(header & 3), h = static_cast<int>(header >> 2);
  const bool object = basic == kObject;
  Container c;
  c.offset_size = (h & 3) + 1;
  c.id_size = object ? ((h >> 2) & 3) + 1 : 0;
  const bool large = object ? (h >> 4) & 1 : (h >> 2) & 1;
  FLOE_ASSIGN_OR_RETURN(c.count, ReadLE(value, at + 1, large ? 4 : 1));
  if (c.count > value.size())
    return Corrupt("variant value: " + std::to_string(c.count) + " elements at offset " + std::to_string(at) + " exceed its " +
                   std::to_string(value.size()) + " bytes");
  c.ids_at = at + 1 + (large ? 4 : 1);
  c.offsets_at = c.ids_at + c.count * c.id_size;
  c.values_at = c.offsets_at + (c.count + 1) * c.offset_size;
  if (c.values_at > value.size())
    return Corrupt("variant value: the offsets of the container at offset " + std::to_string(at) + " run past its end");
  return c;
}

}  // namespace

Result<VariantMetadataBuilder> VariantMetadataBuilder::FromMetadata(std::string_view metadata) {
  FLOE_ASSIGN_OR_RETURN(auto keys, VariantMetadataKeys(metadata));
  VariantMetadataBuilder b;
  b.original_ = std::string(metadata);
  for (auto k : keys) {
    b.ids_.emplace(std::string(k), static_cast<uint32_t>(b.keys_.size()));  // the first of duplicates wins
    b.keys_.emplace_back(k);
  }
  b.original_count_ = b.keys_.size();
  return b;
}

uint32_t VariantMetadataBuilder::KeyId(std::string_view key) {
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(keys_.size());
  keys_.emplace_back(key);
  ids_.emplace(std::string(key), id);
  return id;
}

Result<std::string_view> VariantMetadataBuilder::Key(uint64_t id) const {
  if (id >= keys_.size())
    return Corrupt("variant value: field id " + std::to_string(id) + " is outside the metadata's dictionary of " +
                   std::to_string(keys_.size()) + " keys");
  return std::string_view(keys_[id]);
}

std::string VariantMetadataBuilder::Finish() const {
  if (keys_.size() == original_count_) return original_;
  uint64_t total = 0;
  for (const auto& k : keys_) total += k.size();
  const int offset_size = BytesFor(std::max<uint64_t>(total, keys_.size()));
  std::string out;
  out.push_back(static_cast<char>(1 | (offset_size - 1) << 6));  // version 1; added keys break the order
  PutLE(&out, keys_.size(), offset_size);
  uint64_t at = 0;
  for (const auto& k : keys_) PutLE(&out, at, offset_size), at += k.size();
  PutLE(&out, at, offset_size);
  for (const auto& k : keys_) out += k;
  return out;
}

Result<size_t> VariantValueSize(std::string_view value, size_t at) {
  FLOE_ASSIGN_OR_RETURN(uint64_t header, ReadLE(value, at, 1));
  const int basic = static_cast<int>(header & 3), h = static_cast<int>(header >> 2);
  uint64_t size = 0;
  if (basic == kShortString) {
    size = 1 + static_cast<uint64_t>(h);
  } else if (basic == kPrimitive) {
    const int payload = PrimitivePayload(h);
    if (payload == -2) return Corrupt("variant value: unknown primitive type " + std::to_string(h) + " at offset " + std::to_string(at));
    if (payload == -1) {
      FLOE_ASSIGN_OR_RETURN(uint64_t n, ReadLE(value, at + 1, 4));
      size = 5 + n;
    } else {
      size = 1 + static_cast<uint64_t>(payload);
    }
  } else {
    FLOE_ASSIGN_OR_RETURN(Container c, ReadContainer(value, at));
    FLOE_ASSIGN_OR_RETURN(uint64_t last, ReadLE(value, c.offsets_at + c.count * c.offset_size, c.offset_size));
    size = (c.values_at - at) + last;
  }
  if (size > value.size() - at)
    return Corrupt("variant value: the value at offset " + std::to_string(at) + " needs " + std::to_string(size) +
                   " bytes, " + std::to_string(value.size() - at) + " remain");
  return static_cast<size_t>(size);
}

Result<std::vector<VariantField>> VariantObjectFields(std::string_view value) {
  FLOE_ASSIGN_OR_RETURN(uint64_t header, ReadLE(value, 0, 1));
  if ((header & 3) != kObject) return InvalidArgument("variant value is not an object");
  FLOE_ASSIGN_OR_RETURN(Container c, ReadContainer(value, 0));
  FLOE_ASSIGN_OR_RETURN(uint64_t last, ReadLE(value, c.offsets_at + c.count * c.offset_size, c.offset_size));
  if (last > value.size() - c.values_at)
    return Corrupt("variant value: the object's values (" + std::to_string(last) + " bytes) run past its end");
  const std::string_view values = value.substr(c.values_at, last);
  std::vector<VariantField> fields;
  fields.reserve(c.count);
  for (uint64_t i = 0; i < c.count; ++i) {
    FLOE_ASSIGN_OR_RETURN(uint64_t id, ReadLE(value, c.ids_at + i * c.id_size, c.id_size));
    FLOE_ASSIGN_OR_RETURN(uint64_t offset, ReadLE(value, c.offsets_at + i * c.offset_size, c.offset_size));
    if (offset >= values.size())
      return Corrupt("variant value: field " + std::to_string(i) + " starts at " + std::to_string(offset) +
                     ", past the object's " + std::to_string(values.size()) + " value bytes");
    FLOE_ASSIGN_OR_RETURN(size_t n, VariantValueSize(values, offset));
    fields.push_back(VariantField{static_cast<uint32_t>(id), std::string(values.substr(offset, n))});
  }
  return fields;
}

Result<std::string> BuildVariantObject(std::vector<VariantField> fields, const VariantMetadataBuilder& metadata) {
  std::vector<std::pair<std::string_view, size_t>> order;
  order.reserve(fields.size());
  uint32_t max_id = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(std::string_view key, metadata.Key(fields[i].key_id));
    order.emplace_back(key, i);
    max_id = std::max(max_id, fields[i].key_id);
    total += fields[i].value.size();
  }
  std::sort(order.begin(), order.end());
  for (size_t i = 1; i < order.size(); ++i) {
    if (order[i].first == order[i - 1].first)
      return Corrupt("variant object has the field '" + std::string(order[i].first) + "' twice");
  }
  const int offset_size = BytesFor(total), id_size = BytesFor(max_id);
  const bool large = fields.size() > 255;
  std::string out;
  out.push_back(static_cast<char>(((large ? 1 : 0) << 4 | (id_size - 1) << 2 | (offset_size - 1)) << 2 | kObject));
  PutLE(&out, fields.size(), large ? 4 : 1);
  for (const auto& [key, i] : order) PutLE(&out, fields[i].key_id, id_size);
  uint64_t at = 0;
  for (const auto& [key, i] : order) PutLE(&out, at, offset_size), at += fields[i].value.size();
  PutLE(&out, at, offset_size);
  for (const auto& [key, i] : order) out += fields[i].value;
  return out;
}

Result<std::string> EncodeVariantPrimitive(const Literal& value, int int_bits) {
  std::string out;
  auto header = [&](Prim p) { out.push_back(static_cast<char>(p << 2 | kPrimitive)); };
  if (value.is_null()) {
    header(kNull);
    return out;
  }
  switch (value.type()->id()) {
    case TypeId::kBoolean: header(value.AsBool() ? kTrue : kFalse); return out;
    case TypeId::kInt: {
      const Prim p = int_bits == 8 ? kInt8 : int_bits == 16 ? kInt16 : kInt32;
      header(p);
      PutLE(&out, static_cast<uint64_t>(static_cast<int64_t>(value.AsInt())), p == kInt8 ? 1 : p == kInt16 ? 2 : 4);
      return out;
    }
    case TypeId::kLong: header(kInt64), PutLE(&out, static_cast<uint64_t>(value.AsLong()), 8); return out;
    case TypeId::kFloat: {
      float f = value.AsFloat();
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      header(kFloat), PutLE(&out, bits, 4);
      return out;
    }
    case TypeId::kDouble: {
      double d = value.AsDouble();
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      header(kDouble), PutLE(&out, bits, 8);
      return out;
    }
    case TypeId::kDecimal: {
      const int precision = value.type()->precision();
      const auto unscaled = std::get<__int128>(value.value());
      const Prim p = precision <= 9 ? kDecimal4 : precision <= 18 ? kDecimal8 : kDecimal16;
      header(p);
      out.push_back(static_cast<char>(value.type()->scale()));
      const auto u = static_cast<unsigned __int128>(unscaled);
      PutLE(&out, static_cast<uint64_t>(u), p == kDecimal4 ? 4 : 8);
      if (p == kDecimal16) PutLE(&out, static_cast<uint64_t>(u >> 64), 8);
      return out;
    }
    case TypeId::kDate: header(kDate), PutLE(&out, static_cast<uint64_t>(static_cast<int64_t>(value.AsInt())), 4); return out;
    case TypeId::kTime: header(kTimeNtz), PutLE(&out, static_cast<uint64_t>(value.AsLong()), 8); return out;
    case TypeId::kTimestamp: header(kTimestampNtz), PutLE(&out, static_cast<uint64_t>(value.AsLong()), 8); return out;
    case TypeId::kTimestampTz: header(kTimestampTz), PutLE(&out, static_cast<uint64_t>(value.AsLong()), 8); return out;
    case TypeId::kTimestampNs: header(kTimestampNtzNanos), PutLE(&out, static_cast<uint64_t>(value.AsLong()), 8); return out;
    case TypeId::kTimestampTzNs: header(kTimestampTzNanos), PutLE(&out, static_cast<uint64_t>(value.AsLong()), 8); return out;
    case TypeId::kString: {
      const std::string& s = value.AsBytes();
      if (s.size() < 64) {
        out.push_back(static_cast<char>(s.size() << 2 | kShortString));
      } else {
        header(kString), PutLE(&out, s.size(), 4);
      }
      out += s;
      return out;
    }
    case TypeId::kFixed:
    case TypeId::kBinary: header(kBinary), PutLE(&out, value.AsBytes().size(), 4), out += value.AsBytes(); return out;
    case TypeId::kUuid:
      if (value.AsBytes().size() != 16) return Corrupt("variant value: a uuid of " + std::to_string(value.AsBytes().size()) + " bytes");
      header(kUuid), out += value.AsBytes();
      return out;
    default: break;
  }
  return InvalidArgument("a " + value.type()->ToString() + " has no variant primitive form");
}

std::string VariantNullValue() { return std::string(1, '\0'); }

}  // namespace floe
