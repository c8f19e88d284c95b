#include "types/wkb.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace floe {
namespace {

constexpr int kMaxWkbDepth = 64;  // collections nested deeper are refused (stack safety)

struct WkbReader {
  std::string_view b;
  size_t at = 0;

  Status Need(size_t n, const char* what) const {
    if (b.size() - at < n)
      return Corrupt("WKB: " + std::string(what) + " at byte " + std::to_string(at) + " runs past the end (" +
                     std::to_string(b.size()) + " bytes)");
    return Ok();
  }
  Result<uint32_t> U32(bool little, const char* what) {
    FLOE_RETURN_IF_ERROR(Need(4, what));
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t byte = static_cast<unsigned char>(b[at + i]);
      v |= little ? byte << (8 * i) : byte << (8 * (3 - i));
    }
    at += 4;
    return v;
  }
  Result<double> F64(bool little) {
    FLOE_RETURN_IF_ERROR(Need(8, "coordinate"));
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      uint64_t byte = static_cast<unsigned char>(b[at + i]);
      v |= little ? byte << (8 * i) : byte << (8 * (7 - i));
    }
    at += 8;
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  }
};

std::string WktNumber(double d) {
  if (std::isnan(d)) return "NaN";
  std::ostringstream s;
  s.precision(17);
  s << d;
  return s.str();
}

Status WktPoints(WkbReader& r, bool little, int dims, uint32_t count, std::string* out) {
  // Each point takes 8 bytes per dimension: a count larger than the bytes left is corrupt.
  if (count > (r.b.size() - r.at) / (8 * dims))
    return Corrupt("WKB: " + std::to_string(count) + " points at byte " + std::to_string(r.at) + " exceed the bytes left");
  *out += '(';
  for (uint32_t i = 0; i < count; ++i) {
    if (i) *out += ", ";
    for (int d = 0; d < dims; ++d) {
      FLOE_ASSIGN_OR_RETURN(double v, r.F64(little));
      if (d) *out += ' ';
      *out += WktNumber(v);
    }
  }
  *out += ')';
  return Ok();
}

Status WktGeometry(WkbReader& r, int depth, std::string* out) {
  if (depth > kMaxWkbDepth) return Corrupt("WKB: collections nested deeper than " + std::to_string(kMaxWkbDepth) + " levels");
  FLOE_RETURN_IF_ERROR(r.Need(1, "byte order"));
  unsigned char order = static_cast<unsigned char>(r.b[r.at]);
  if (order > 1) return Corrupt("WKB: byte order " + std::to_string(order) + " at byte " + std::to_string(r.at) + " is neither 0 nor 1");
  bool little = order == 1;
  ++r.at;
  size_t type_at = r.at;
  FLOE_ASSIGN_OR_RETURN(uint32_t code, r.U32(little, "geometry type"));
  uint32_t base = code % 1000, variant = code / 1000;
  if (base < 1 || base > 7 || variant > 3)
    return Corrupt("WKB: geometry type " + std::to_string(code) + " at byte " + std::to_string(type_at) + " is not one of 1..7 (+1000/2000/3000)");
  static const char* kNames[] = {"", "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON",
                                 "GEOMETRYCOLLECTION"};
  int dims = variant == 0 ? 2 : variant == 3 ? 4 : 3;
  *out += kNames[base];
  *out += variant == 1 ? " Z " : variant == 2 ? " M " : variant == 3 ? " ZM " : " ";
  if (base == 1) {
    // An empty point is written as NaN coordinates.
    size_t start = r.at;
    std::string text;
    FLOE_RETURN_IF_ERROR(WktPoints(r, little, dims, 1, &text));
    bool empty = true;
    WkbReader again{r.b, start};
    for (int d = 0; d < dims; ++d) empty = empty && std::isnan(*again.F64(little));
    *out += empty ? "EMPTY" : text;
    return Ok();
  }
  FLOE_ASSIGN_OR_RETURN(uint32_t count, r.U32(little, "element count"));
  if (count == 0) {
    *out += "EMPTY";
    return Ok();
  }
  if (base == 2) return WktPoints(r, little, dims, count, out);
  // Every ring needs at least its 4-byte count; every nested geometry at least 5 bytes.
  if (count > (r.b.size() - r.at) / 4)
    return Corrupt("WKB: " + std::to_string(count) + " elements at byte " + std::to_string(r.at) + " exceed the bytes left");
  *out += '(';
  for (uint32_t i = 0; i < count; ++i) {
    if (i) *out += ", ";
    if (base == 3) {
      FLOE_ASSIGN_OR_RETURN(uint32_t n, r.U32(little, "ring point count"));
      FLOE_RETURN_IF_ERROR(WktPoints(r, little, dims, n, out));
      continue;
    }
    std::string part;
    size_t part_at = r.at;
    FLOE_RETURN_IF_ERROR(WktGeometry(r, depth + 1, &part));
    if (base != 7) {
      // A multi-geometry holds only its single kind; WKT writes the parts without their names.
      static const char* kPart[] = {"", "", "", "", "POINT", "LINESTRING", "POLYGON"};
      std::string expected = kPart[base];
      if (part.rfind(expected + " ", 0) != 0)
        return Corrupt("WKB: element " + std::to_string(i) + " at byte " + std::to_string(part_at) + " of a " +
                       kNames[base] + " is not a " + expected);
      part = part.substr(part.find(' ') + 1);
      if (part.rfind("Z ", 0) == 0 || part.rfind("M ", 0) == 0) part = part.substr(2);
      if (part.rfind("ZM ", 0) == 0) part = part.substr(3);
    }
    *out += part;
  }
  *out += ')';
  return Ok();
}

}  // namespace

Result<std::string> WkbToWkt(std::string_view wkb) {
  WkbReader r{wkb};
  std::string out;
  FLOE_RETURN_IF_ERROR(WktGeometry(r, 0, &out));
  if (r.at != wkb.size())
    return Corrupt("WKB: " + std::to_string(wkb.size() - r.at) + " bytes follow the geometry (at byte " + std::to_string(r.at) + ")");
  return out;
}

Result<std::string> WkbFromHex(std::string_view hex) {
  if (hex.size() % 2) return InvalidArgument("WKB hex '" + std::string(hex.substr(0, 40)) + "' has an odd number of digits");
  std::string bytes;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0)
      return InvalidArgument("WKB hex '" + std::string(hex.substr(0, 40)) + "' holds a non-hex character at " + std::to_string(i));
    bytes.push_back(static_cast<char>(hi << 4 | lo));
  }
  auto wkt = WkbToWkt(bytes);
  if (!wkt) return InvalidArgument("WKB hex '" + std::string(hex.substr(0, 40)) + "' is not a geometry: " + wkt.error().message);
  return bytes;
}

std::string WkbHex(std::string_view wkb) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (unsigned char c : wkb) s.push_back(digits[c >> 4]), s.push_back(digits[c & 15]);
  return s;
}

}  // namespace floe
