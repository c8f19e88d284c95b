// The RLE / bit-packed hybrid encoding (definition levels, dictionary indices, RLE booleans),
// and the deprecated BIT_PACKED level encoding.
//
// Runs are either "repeat value v, n times" or "these 8*k values, each bit_width bits, packed
// LSB first". The decoder checks every run against the input: a run that reaches past the
// end of the data, or a value wider than bit_width allows, is Corrupt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "floe/result.h"

namespace floe::parquet {

class RleDecoder {
 public:
  RleDecoder() = default;
  // bit_width in [0, 32]; data is the run stream without any length prefix.
  RleDecoder(const uint8_t* data, size_t size, int bit_width);

  // Decodes exactly n values into out; fewer values left in the stream is Corrupt.
  Status Decode(uint32_t* out, size_t n);
  // Same, into bytes (levels, booleans); bit_width must be <= 8.
  Status Decode(uint8_t* out, size_t n);

 private:
  template <typename T>
  Status DecodeImpl(T* out, size_t n);
  Status NextRun();

  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  // Current run: a repeat of repeat_value_ (repeat_left_ times), or packed values.
  uint32_t repeat_value_ = 0;
  size_t repeat_left_ = 0;
  const uint8_t* packed_ = nullptr;   // start of the packed run
  size_t packed_bytes_ = 0;           // bytes of the packed run available in the input
  size_t packed_index_ = 0;           // next value within the packed run
  size_t packed_left_ = 0;            // values left in the packed run (declared)
};

// Encodes n values of bit_width bits; appends the run stream (no length prefix) to out.
void RleEncode(const uint32_t* values, size_t n, int bit_width, std::string* out);
void RleEncode(const uint8_t* values, size_t n, int bit_width, std::string* out);

// Decodes the deprecated BIT_PACKED encoding (MSB first, no runs) of n values; *consumed
// receives the bytes used.
Status BitPackedMsbDecode(const uint8_t* data, size_t size, int bit_width, uint8_t* out, size_t n,
                          size_t* consumed);

// Bits needed to store values 0..max_value.
inline int BitWidth(uint64_t max_value) {
  int w = 0;
  while (max_value) { ++w; max_value >>= 1; }
  return w;
}

}  // namespace floe::parquet
