// How a Parquet leaf's physical values become an Iceberg type's values, and PLAIN decoding
// of fixed-size values into that form (the chunk decoder's value layer, column_reader.cc).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "parquet/file_schema.h"
#include "types/type.h"
#include "floe/result.h"

namespace floe::parquet {

// Claimed sizes beyond these are lies, not data: refusing them keeps a hostile file from
// making the reader allocate without bound.
constexpr int64_t kMaxPageBytes = 1ll << 30;
constexpr int64_t kMaxPageValues = 1ll << 26;

enum class OutKind { kBool, kInt32, kInt64, kFloat, kDouble, kDecimal, kBytes };

struct Conversion {
  OutKind out = OutKind::kInt64;
  int32_t physical = 0;
  int type_length = 0;
  int64_t multiply = 1;  // integer unit scaling (e.g. millis -> micros)
  int64_t divide = 1;
  bool int96_nanos = false;  // INT96 -> nanoseconds (else microseconds)
};

// The conversion for reading `leaf` as `target`; NotSupported when it cannot be read so.
Result<Conversion> PlanConversion(const LeafDescriptor& leaf, const TypePtr& target);
// An INT96 (nanos of day, Julian day) as microseconds or nanoseconds since the epoch.
int64_t Int96ToTime(const uint8_t* p, bool nanos);
// A big-endian two's complement integer of n <= 16 bytes.
__int128 BigEndianToInt128(const uint8_t* b, size_t n);
// Applies the conversion's unit scaling (flooring division).
int64_t ScaleInt(int64_t v, const Conversion& c);

// The PLAIN BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value at *pos of [p, p + size); advances *pos.
Status NextPlainBytes(const Conversion& c, const uint8_t* p, size_t size, size_t* pos, std::string_view* v);

// Decodes n PLAIN values (fixed-size outputs) from [p, p + size) into out; *consumed gets
// the bytes used.
template <typename T>
Status DecodePlain(const Conversion& c, const uint8_t* p, size_t size, size_t n, T* out, size_t* consumed) {
  auto need = [&](size_t bytes) -> Status {
    if (bytes > size) return Corrupt("PLAIN values reach past the end of the page");
    *consumed = bytes;
    return Ok();
  };
  if (n == 0) return need(0);  // an empty run: `out` may be null, which memcpy must not see
  if constexpr (std::is_same_v<T, uint8_t>) {  // booleans, one bit each
    FLOE_RETURN_IF_ERROR(need((n + 7) / 8));
    for (size_t i = 0; i < n; ++i) out[i] = (p[i >> 3] >> (i & 7)) & 1;
    return Ok();
  } else if constexpr (std::is_same_v<T, int32_t>) {
    FLOE_RETURN_IF_ERROR(need(n * 4));
    std::memcpy(out, p, n * 4);
    return Ok();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (c.physical == physical::kInt96) {
      FLOE_RETURN_IF_ERROR(need(n * 12));
      for (size_t i = 0; i < n; ++i) out[i] = Int96ToTime(p + 12 * i, c.int96_nanos);
      return Ok();
    }
    if (c.physical == physical::kInt32) {
      FLOE_RETURN_IF_ERROR(need(n * 4));
      for (size_t i = 0; i < n; ++i) {
        int32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        out[i] = ScaleInt(v, c);
      }
      return Ok();
    }
    FLOE_RETURN_IF_ERROR(need(n * 8));
    std::memcpy(out, p, n * 8);
    if (c.multiply != 1 || c.divide != 1)
      for (size_t i = 0; i < n; ++i) out[i] = ScaleInt(out[i], c);
    return Ok();
  } else if constexpr (std::is_same_v<T, float>) {
    FLOE_RETURN_IF_ERROR(need(n * 4));
    std::memcpy(out, p, n * 4);
    return Ok();
  } else if constexpr (std::is_same_v<T, double>) {
    if (c.physical == physical::kFloat) {
      FLOE_RETURN_IF_ERROR(need(n * 4));
      for (size_t i = 0; i < n; ++i) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        out[i] = f;
      }
      return Ok();
    }
    FLOE_RETURN_IF_ERROR(need(n * 8));
    std::memcpy(out, p, n * 8);
    return Ok();
  } else {  // __int128 decimals
    if (c.physical == physical::kInt32 || c.physical == physical::kInt64) {
      size_t w = c.physical == physical::kInt32 ? 4 : 8;
      FLOE_RETURN_IF_ERROR(need(n * w));
      for (size_t i = 0; i < n; ++i) {
        if (w == 4) {
          int32_t v;
          std::memcpy(&v, p + 4 * i, 4);
          out[i] = v;
        } else {
          int64_t v;
          std::memcpy(&v, p + 8 * i, 8);
          out[i] = v;
        }
      }
      return Ok();
    }
    if (c.physical == physical::kFixedLenByteArray) {
      size_t w = static_cast<size_t>(c.type_length);
      FLOE_RETURN_IF_ERROR(need(n * w));
      for (size_t i = 0; i < n; ++i) out[i] = BigEndianToInt128(p + w * i, w);
      return Ok();
    }
    size_t pos = 0;  // BYTE_ARRAY decimals
    for (size_t i = 0; i < n; ++i) {
      if (size - pos < 4) return Corrupt("PLAIN byte array length reaches past the end of the page");
      uint32_t len;
      std::memcpy(&len, p + pos, 4);
      pos += 4;
      if (len > size - pos) return Corrupt("PLAIN byte array reaches past the end of the page");
      if (len > 16) return Corrupt("decimal wider than 16 bytes");
      out[i] = BigEndianToInt128(p + pos, len);
      pos += len;
    }
    *consumed = pos;
    return Ok();
  }
}

}  // namespace floe::parquet
