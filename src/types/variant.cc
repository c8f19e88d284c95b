#include "types/variant.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "types/temporal.h"

namespace floe {
namespace {

// Basic types: the low 2 bits of a value's header byte.
constexpr int kVariantPrimitive = 0, kVariantShortString = 1, kVariantObject = 2, kVariantArray = 3;
// Primitive type ids (the upper 6 bits of a primitive's header).
namespace vp {
enum Prim {
  kNull = 0, kTrue = 1, kFalse = 2, kInt8 = 3, kInt16 = 4, kInt32 = 5, kInt64 = 6, kDouble = 7,
  kDecimal4 = 8, kDecimal8 = 9, kDecimal16 = 10, kDate = 11, kTimestampTz = 12, kTimestampNtz = 13,
  kFloat = 14, kBinary = 15, kString = 16, kTimeNtz = 17, kTimestampTzNanos = 18, kTimestampNtzNanos = 19,
  kUuid = 20,
};
}  // namespace vp
// Nesting deeper than this is refused on read (a hostile value must not exhaust the stack).
constexpr int kMaxVariantDepth = 200;

void VariantPutLE(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
int VariantBytesFor(uint64_t max_value) { return max_value < 0x100 ? 1 : max_value < 0x10000 ? 2 : max_value < 0x1000000 ? 3 : 4; }

// ---- encoding ----

// Stops below kMaxVariantDepth: EncodeVariantValue refuses such a value anyway.
void CollectVariantKeys(const nlohmann::json& j, std::map<std::string, uint32_t>* keys, int depth = 0) {
  if (depth > kMaxVariantDepth) return;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      keys->emplace(it.key(), 0);
      CollectVariantKeys(it.value(), keys, depth + 1);
    }
  } else if (j.is_array()) {
    for (const auto& e : j) CollectVariantKeys(e, keys, depth + 1);
  }
}

Status EncodeVariantValue(const nlohmann::json& j, const std::map<std::string, uint32_t>& keys, int depth, std::string* out) {
  if (depth > kMaxVariantDepth) return InvalidArgument("variant value: JSON nested deeper than " + std::to_string(kMaxVariantDepth) + " levels");
  auto primitive = [&](vp::Prim p) { out->push_back(static_cast<char>(p << 2 | kVariantPrimitive)); };
  switch (j.type()) {
    case nlohmann::json::value_t::null: primitive(vp::kNull); return Ok();
    case nlohmann::json::value_t::boolean: primitive(j.get<bool>() ? vp::kTrue : vp::kFalse); return Ok();
    case nlohmann::json::value_t::number_unsigned:
      if (j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        primitive(vp::kDouble);
        double d = j.get<double>();
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        VariantPutLE(out, bits, 8);
        return Ok();
      }
      [[fallthrough]];
    case nlohmann::json::value_t::number_integer: {
      int64_t v = j.get<int64_t>();
      if (v >= INT8_MIN && v <= INT8_MAX) primitive(vp::kInt8), VariantPutLE(out, static_cast<uint64_t>(v), 1);
      else if (v >= INT16_MIN && v <= INT16_MAX) primitive(vp::kInt16), VariantPutLE(out, static_cast<uint64_t>(v), 2);
      else if (v >= INT32_MIN && v <= INT32_MAX) primitive(vp::kInt32), VariantPutLE(out, static_cast<uint64_t>(v), 4);
      else primitive(vp::kInt64), VariantPutLE(out, static_cast<uint64_t>(v), 8);
      return Ok();
    }
    case nlohmann::json::value_t::number_float: {
      primitive(vp::kDouble);
      double d = j.get<double>();
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      VariantPutLE(out, bits, 8);
      return Ok();
    }
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      if (s.size() < 64) {
        out->push_back(static_cast<char>(s.size() << 2 | kVariantShortString));
      } else {
        primitive(vp::kString);
        VariantPutLE(out, s.size(), 4);
      }
      out->append(s);
      return Ok();
    }
    case nlohmann::json::value_t::array: {
      std::vector<std::string> items;
      for (const auto& e : j) FLOE_RETURN_IF_ERROR(EncodeVariantValue(e, keys, depth + 1, &items.emplace_back()));
      uint64_t total = 0;
      for (const auto& i : items) total += i.size();
      int offset_size = VariantBytesFor(total);
      bool large = items.size() > 255;
      out->push_back(static_cast<char>(((large ? 1 : 0) << 2 | (offset_size - 1)) << 2 | kVariantArray));
      VariantPutLE(out, items.size(), large ? 4 : 1);
      uint64_t at = 0;
      for (const auto& i : items) VariantPutLE(out, at, offset_size), at += i.size();
      VariantPutLE(out, at, offset_size);
      for (const auto& i : items) out->append(i);
      return Ok();
    }
    case nlohmann::json::value_t::object: {
      // Fields are laid out in key order (nlohmann's object is a sorted map, so iteration is).
      std::vector<std::pair<uint32_t, std::string>> fields;
      uint32_t max_id = 0;
      for (auto it = j.begin(); it != j.end(); ++it) {
        uint32_t id = keys.at(it.key());
        max_id = std::max(max_id, id);
        std::string v;
        FLOE_RETURN_IF_ERROR(EncodeVariantValue(it.value(), keys, depth + 1, &v));
        fields.emplace_back(id, std::move(v));
      }
      uint64_t total = 0;
      for (const auto& f : fields) total += f.second.size();
      int offset_size = VariantBytesFor(total), id_size = VariantBytesFor(max_id);
      bool large = fields.size() > 255;
      out->push_back(static_cast<char>(((large ? 1 : 0) << 4 | (id_size - 1) << 2 | (offset_size - 1)) << 2 | kVariantObject));
      VariantPutLE(out, fields.size(), large ? 4 : 1);
      for (const auto& f : fields) VariantPutLE(out, f.first, id_size);
      uint64_t at = 0;
      for (const auto& f : fields) VariantPutLE(out, at, offset_size), at += f.second.size();
      VariantPutLE(out, at, offset_size);
      for (const auto& f : fields) out->append(f.second);
      return Ok();
    }
    default: break;
  }
  return InvalidArgument("variant value: a JSON binary or discarded value has no variant form");
}

// ---- decoding ----

struct VariantReader {
  std::string_view bytes;
  std::string what;  // "variant metadata" / "variant value", for messages

  Result<uint64_t> LE(size_t at, int n) const {
    if (n < 1 || n > 8 || at > bytes.size() || bytes.size() - at < static_cast<size_t>(n))
      return Corrupt(what + ": " + std::to_string(n) + " bytes at offset " + std::to_string(at) + " run past its end (" +
                     std::to_string(bytes.size()) + " bytes)");
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
  }
  Result<std::string_view> Slice(size_t at, uint64_t n) const {
    if (at > bytes.size() || n > bytes.size() - at)
      return Corrupt(what + ": " + std::to_string(n) + " bytes at offset " + std::to_string(at) + " run past its end (" +
                     std::to_string(bytes.size()) + " bytes)");
    return bytes.substr(at, n);
  }
};

struct VariantDictionary {
  std::vector<std::string_view> keys;
};

Result<VariantDictionary> ReadVariantMetadata(std::string_view metadata) {
  VariantReader r{metadata, "variant metadata"};
  FLOE_ASSIGN_OR_RETURN(uint64_t header, r.LE(0, 1));
  if ((header & 0x0f) != 1)
    return Corrupt("variant metadata: version " + std::to_string(header & 0x0f) + " is not 1");
  int offset_size = static_cast<int>((header >> 6) + 1);
  FLOE_ASSIGN_OR_RETURN(uint64_t count, r.LE(1, offset_size));
  size_t offsets_at = 1 + offset_size;
  if (count > metadata.size()) return Corrupt("variant metadata: dictionary size " + std::to_string(count) + " exceeds its bytes");
  size_t strings_at = offsets_at + (count + 1) * offset_size;
  VariantDictionary d;
  d.keys.reserve(count);
  FLOE_ASSIGN_OR_RETURN(uint64_t start, r.LE(offsets_at, offset_size));
  for (uint64_t i = 0; i < count; ++i) {
    FLOE_ASSIGN_OR_RETURN(uint64_t end, r.LE(offsets_at + (i + 1) * offset_size, offset_size));
    if (end < start) return Corrupt("variant metadata: dictionary offsets decrease at entry " + std::to_string(i));
    FLOE_ASSIGN_OR_RETURN(auto key, r.Slice(strings_at + start, end - start));
    d.keys.push_back(key);
    start = end;
  }
  return d;
}

std::string VariantHex(std::string_view b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (unsigned char c : b) s.push_back(digits[c >> 4]), s.push_back(digits[c & 15]);
  return s;
}

std::string VariantDecimalText(__int128 unscaled, int scale) {
  bool negative = unscaled < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(unscaled) : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10))), u /= 10;
  while (u);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, scale - digits.size() + 1, '0');
    digits.insert(digits.size() - scale, ".");
  }
  return (negative ? "-" : "") + digits;
}

Status WriteVariantValue(const VariantDictionary& dict, const VariantReader& r, size_t at, int depth, std::string* out);

Status WriteVariantPrimitive(const VariantReader& r, size_t at, int type, std::string* out) {
  size_t p = at + 1;
  auto quoted = [&](const std::string& s) { *out += nlohmann::json(s).dump(); };
  auto int_of = [&](int n) -> Result<int64_t> {
    FLOE_ASSIGN_OR_RETURN(uint64_t v, r.LE(p, n));
    if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign-extend
    return static_cast<int64_t>(v);
  };
  switch (type) {
    case vp::kNull: *out += "null"; return Ok();
    case vp::kTrue: *out += "true"; return Ok();
    case vp::kFalse: *out += "false"; return Ok();
    case vp::kInt8: case vp::kInt16: case vp::kInt32: case vp::kInt64: {
      int n = type == vp::kInt8 ? 1 : type == vp::kInt16 ? 2 : type == vp::kInt32 ? 4 : 8;
      FLOE_ASSIGN_OR_RETURN(int64_t v, int_of(n));
      *out += std::to_string(v);
      return Ok();
    }
    case vp::kDouble: case vp::kFloat: {
      FLOE_ASSIGN_OR_RETURN(uint64_t bits, r.LE(p, type == vp::kDouble ? 8 : 4));
      double d;
      if (type == vp::kDouble) {
        std::memcpy(&d, &bits, 8);
      } else {
        uint32_t b32 = static_cast<uint32_t>(bits);
        float f;
        std::memcpy(&f, &b32, 4);
        d = f;
      }
      *out += nlohmann::json(d).dump();  // NaN / infinity print as null, as JSON has none
      return Ok();
    }
    case vp::kDecimal4: case vp::kDecimal8: case vp::kDecimal16: {
      FLOE_ASSIGN_OR_RETURN(uint64_t scale, r.LE(p, 1));
      if (scale > 38) return Corrupt(r.what + ": decimal scale " + std::to_string(scale) + " is above 38");
      ++p;
      __int128 v;
      if (type == vp::kDecimal16) {
        FLOE_ASSIGN_OR_RETURN(uint64_t lo, r.LE(p, 8));
        FLOE_ASSIGN_OR_RETURN(uint64_t hi, r.LE(p + 8, 8));
        v = static_cast<__int128>((static_cast<unsigned __int128>(hi) << 64) | lo);
      } else {
        FLOE_ASSIGN_OR_RETURN(v, int_of(type == vp::kDecimal4 ? 4 : 8));
      }
      *out += VariantDecimalText(v, static_cast<int>(scale));
      return Ok();
    }
    case vp::kDate: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, int_of(4));
      quoted(FormatDate(static_cast<int32_t>(v)));
      return Ok();
    }
    case vp::kTimestampTz: case vp::kTimestampNtz: case vp::kTimestampTzNanos: case vp::kTimestampNtzNanos: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, int_of(8));
      bool nanos = type == vp::kTimestampTzNanos || type == vp::kTimestampNtzNanos;
      quoted(FormatTimestamp(v, nanos ? 1000000000 : 1000000, type == vp::kTimestampTz || type == vp::kTimestampTzNanos));
      return Ok();
    }
    case vp::kTimeNtz: {
      FLOE_ASSIGN_OR_RETURN(int64_t v, int_of(8));
      if (v < 0 || v >= 86400LL * 1000000) return Corrupt(r.what + ": time " + std::to_string(v) + " is outside a day");
      quoted(FormatTimeMicros(v));
      return Ok();
    }
    case vp::kBinary: case vp::kString: {
      FLOE_ASSIGN_OR_RETURN(uint64_t n, r.LE(p, 4));
      FLOE_ASSIGN_OR_RETURN(auto s, r.Slice(p + 4, n));
      if (type == vp::kBinary) {
        quoted(VariantHex(s));
      } else {
        try {
          *out += nlohmann::json(std::string(s)).dump();
        } catch (const nlohmann::json::exception&) {
          return Corrupt(r.what + ": string at offset " + std::to_string(at) + " is not UTF-8");
        }
      }
      return Ok();
    }
    case vp::kUuid: {
      FLOE_ASSIGN_OR_RETURN(auto s, r.Slice(p, 16));
      std::string h = VariantHex(s);
      quoted(h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20));
      return Ok();
    }
  }
  return Corrupt(r.what + ": unknown primitive type " + std::to_string(type) + " at offset " + std::to_string(at));
}

Status WriteVariantValue(const VariantDictionary& dict, const VariantReader& r, size_t at, int depth, std::string* out) {
  if (depth > kMaxVariantDepth) return Corrupt(r.what + ": nested deeper than " + std::to_string(kMaxVariantDepth) + " levels");
  FLOE_ASSIGN_OR_RETURN(uint64_t header, r.LE(at, 1));
  int basic = static_cast<int>(header & 3);
  int h = static_cast<int>(header >> 2);
  if (basic == kVariantPrimitive) return WriteVariantPrimitive(r, at, h, out);
  if (basic == kVariantShortString) {
    FLOE_ASSIGN_OR_RETURN(auto s, r.Slice(at + 1, h));
    try {
      *out += nlohmann::json(std::string(s)).dump();
    } catch (const nlohmann::json::exception&) {
      return Corrupt(r.what + ": string at offset " + std::to_string(at) + " is not UTF-8");
    }
    return Ok();
  }
  bool object = basic == kVariantObject;
  int offset_size = (h & 3) + 1;
  int id_size = object ? ((h >> 2) & 3) + 1 : 0;
  bool large = object ? (h >> 4) & 1 : (h >> 2) & 1;
  FLOE_ASSIGN_OR_RETURN(uint64_t count, r.LE(at + 1, large ? 4 : 1));
  size_t ids_at = at + 1 + (large ? 4 : 1);
  if (count > r.bytes.size()) return Corrupt(r.what + ": " + std::to_string(count) + " elements exceed its bytes");
  size_t offsets_at = ids_at + count * id_size;
  size_t values_at = offsets_at + (count + 1) * offset_size;
  // The last offset is the size of the values: every element lies inside them (a reader that
  // copies a container by its size, as the shredding reader does, must get all of it).
  FLOE_ASSIGN_OR_RETURN(uint64_t values_size, r.LE(offsets_at + count * offset_size, offset_size));
  if (values_at > r.bytes.size() || values_size > r.bytes.size() - values_at)
    return Corrupt(r.what + ": the " + std::to_string(values_size) + " value bytes of the container at offset " +
                   std::to_string(at) + " run past its end (" + std::to_string(r.bytes.size()) + " bytes)");
  const VariantReader inside{r.bytes.substr(0, values_at + values_size), r.what};
  *out += object ? '{' : '[';
  for (uint64_t i = 0; i < count; ++i) {
    if (i) *out += ',';
    if (object) {
      FLOE_ASSIGN_OR_RETURN(uint64_t id, r.LE(ids_at + i * id_size, id_size));
      if (id >= dict.keys.size())
        return Corrupt(r.what + ": field id " + std::to_string(id) + " is outside the metadata's dictionary of " +
                       std::to_string(dict.keys.size()) + " keys");
      try {
        *out += nlohmann::json(std::string(dict.keys[id])).dump();
      } catch (const nlohmann::json::exception&) {
        return Corrupt("variant metadata: key " + std::to_string(id) + " is not UTF-8");
      }
      *out += ':';
    }
    FLOE_ASSIGN_OR_RETURN(uint64_t offset, r.LE(offsets_at + i * offset_size, offset_size));
    if (offset >= values_size)
      return Corrupt(r.what + ": element " + std::to_string(i) + " at offset " + std::to_string(values_at + offset) +
                     " lies past the " + std::to_string(values_size) + " value bytes of its container");
    FLOE_RETURN_IF_ERROR(WriteVariantValue(dict, inside, values_at + offset, depth + 1, out));
  }
  *out += object ? '}' : ']';
  return Ok();
}

}  // namespace

Result<VariantBytes> EncodeVariant(const nlohmann::json& json) {
  std::map<std::string, uint32_t> keys;
  CollectVariantKeys(json, &keys);
  uint32_t next = 0;
  uint64_t total = 0;
  for (auto& [k, id] : keys) id = next++, total += k.size();
  VariantBytes out;
  int offset_size = VariantBytesFor(std::max<uint64_t>(total, keys.size()));
  // version 1, sorted_strings set (the dictionary is in key order and unique).
  out.metadata.push_back(static_cast<char>(1 | 1 << 4 | (offset_size - 1) << 6));
  VariantPutLE(&out.metadata, keys.size(), offset_size);
  uint64_t at = 0;
  for (const auto& [k, id] : keys) VariantPutLE(&out.metadata, at, offset_size), at += k.size();
  VariantPutLE(&out.metadata, at, offset_size);
  for (const auto& [k, id] : keys) out.metadata += k;
  FLOE_RETURN_IF_ERROR(EncodeVariantValue(json, keys, 0, &out.value));
  return out;
}

Result<std::string> VariantToJsonText(std::string_view metadata, std::string_view value) {
  FLOE_ASSIGN_OR_RETURN(VariantDictionary dict, ReadVariantMetadata(metadata));
  std::string out;
  FLOE_RETURN_IF_ERROR(WriteVariantValue(dict, VariantReader{value, "variant value"}, 0, 0, &out));
  return out;
}

Result<std::vector<std::string_view>> VariantMetadataKeys(std::string_view metadata) {
  FLOE_ASSIGN_OR_RETURN(VariantDictionary dict, ReadVariantMetadata(metadata));
  return std::move(dict.keys);
}

std::string PackVariant(std::string_view metadata, std::string_view value) {
  std::string out;
  VariantPutLE(&out, metadata.size(), 4);
  out.append(metadata);
  out.append(value);
  return out;
}

Result<VariantBytes> UnpackVariant(std::string_view packed) {
  VariantReader r{packed, "variant"};
  FLOE_ASSIGN_OR_RETURN(uint64_t n, r.LE(0, 4));
  FLOE_ASSIGN_OR_RETURN(auto metadata, r.Slice(4, n));
  return VariantBytes{std::string(metadata), std::string(packed.substr(4 + n))};
}

Result<std::string> PackedVariantFromJsonText(std::string_view text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    std::string shown(text.substr(0, 60));
    return InvalidArgument("variant value '" + shown + (text.size() > 60 ? "..." : "") + "' is not JSON");
  }
  FLOE_ASSIGN_OR_RETURN(VariantBytes v, EncodeVariant(j));
  return PackVariant(v.metadata, v.value);
}

Result<std::string> PackedVariantToJsonText(std::string_view packed) {
  FLOE_ASSIGN_OR_RETURN(VariantBytes v, UnpackVariant(packed));
  return VariantToJsonText(v.metadata, v.value);
}

}  // namespace floe
