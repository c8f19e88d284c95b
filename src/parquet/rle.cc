#include "parquet/rle.h"

#include <cstring>
#include <vector>

namespace floe::parquet {

RleDecoder::RleDecoder(const uint8_t* data, size_t size, int bit_width)
    : pos_(data), end_(data + size), bit_width_(bit_width) {}

Status RleDecoder::NextRun() {
  uint64_t header = 0;
  for (int shift = 0;; shift += 7) {
    if (pos_ >= end_) return Corrupt("RLE data ends before all values were read");
    if (shift > 35) return Corrupt("RLE run header too long");
    uint8_t b = *pos_++;
    header |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  if (header & 1) {
    uint64_t groups = header >> 1;
    if (groups == 0) return Corrupt("RLE: empty bit-packed run");
    packed_left_ = groups * 8;
    size_t declared = groups * static_cast<size_t>(bit_width_);
    size_t avail = static_cast<size_t>(end_ - pos_);
    // Some writers cut the padding of the last run; the values themselves are checked on use.
    packed_bytes_ = declared < avail ? declared : avail;
    packed_ = pos_;
    packed_index_ = 0;
    pos_ += packed_bytes_;
    repeat_left_ = 0;
  } else {
    repeat_left_ = header >> 1;
    if (repeat_left_ == 0) return Corrupt("RLE: empty repeated run");
    size_t nbytes = (bit_width_ + 7) / 8;
    if (static_cast<size_t>(end_ - pos_) < nbytes) return Corrupt("RLE: truncated run value");
    uint32_t v = 0;
    for (size_t i = 0; i < nbytes; ++i) v |= static_cast<uint32_t>(pos_[i]) << (8 * i);
    pos_ += nbytes;
    if (bit_width_ < 32 && (v >> bit_width_) != 0) return Corrupt("RLE: run value wider than its bit width");
    repeat_value_ = v;
    packed_left_ = 0;
  }
  return Ok();
}

template <typename T>
Status RleDecoder::DecodeImpl(T* out, size_t n) {
  const uint64_t mask = bit_width_ == 32 ? 0xffffffffull : ((1ull << bit_width_) - 1);
  const size_t w = static_cast<size_t>(bit_width_);
  while (n > 0) {
    if (repeat_left_ == 0 && packed_left_ == 0) FLOE_RETURN_IF_ERROR(NextRun());
    if (repeat_left_ > 0) {
      size_t take = repeat_left_ < n ? repeat_left_ : n;
      T v = static_cast<T>(repeat_value_);
      for (size_t i = 0; i < take; ++i) out[i] = v;
      out += take;
      n -= take;
      repeat_left_ -= take;
      continue;
    }
    size_t take = packed_left_ < n ? packed_left_ : n;
    // Values whose bits end within the available bytes.
    size_t end_index = packed_index_ + take;
    if (w > 0 && end_index * w > packed_bytes_ * 8) return Corrupt("RLE: bit-packed run reaches past the end of the data");
    size_t i = packed_index_;
    if (w == 0) {
      for (size_t k = 0; k < take; ++k) out[k] = 0;
    } else {
      // Fast path: an unaligned 8-byte load holds any value (w <= 32, shift <= 7).
      size_t fast_end = packed_bytes_ >= 8 ? ((packed_bytes_ - 8) * 8) / w : 0;
      if (fast_end > end_index) fast_end = end_index;
      T* o = out;
      for (; i < fast_end; ++i) {
        size_t bit = i * w;
        uint64_t word;
        std::memcpy(&word, packed_ + (bit >> 3), 8);
        *o++ = static_cast<T>((word >> (bit & 7)) & mask);
      }
      for (; i < end_index; ++i) {
        size_t bit = i * w;
        uint64_t word = 0;
        size_t byte = bit >> 3;
        size_t avail = packed_bytes_ - byte;
        std::memcpy(&word, packed_ + byte, avail < 8 ? avail : 8);
        *o++ = static_cast<T>((word >> (bit & 7)) & mask);
      }
    }
    packed_index_ = end_index;
    packed_left_ -= take;
    out += take;
    n -= take;
  }
  return Ok();
}

Status RleDecoder::Decode(uint32_t* out, size_t n) { return DecodeImpl(out, n); }

Status RleDecoder::Decode(uint8_t* out, size_t n) {
  if (bit_width_ > 8) return Corrupt("RLE: bit width too large for levels");
  return DecodeImpl(out, n);
}

namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

template <typename T>
void PutPacked(const T* values, size_t n, int bit_width, std::string* out) {
  size_t groups = (n + 7) / 8;
  PutVarint((groups << 1) | 1, out);
  size_t nbytes = groups * bit_width;
  size_t start = out->size();
  out->resize(start + nbytes + 8, '\0');  // slack for the 8-byte stores below
  uint8_t* dst = reinterpret_cast<uint8_t*>(out->data()) + start;
  for (size_t i = 0; i < n; ++i) {
    size_t bit = i * bit_width;
    uint64_t word;
    std::memcpy(&word, dst + (bit >> 3), 8);
    word |= static_cast<uint64_t>(values[i]) << (bit & 7);
    std::memcpy(dst + (bit >> 3), &word, 8);
  }
  out->resize(start + nbytes);
}

template <typename T>
void PutRepeat(T value, size_t count, int bit_width, std::string* out) {
  PutVarint(static_cast<uint64_t>(count) << 1, out);
  uint32_t v = static_cast<uint32_t>(value);
  for (int i = 0; i < (bit_width + 7) / 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Runs of at least this many equal values become repeat runs; shorter ones are packed.
constexpr size_t kMinRepeat = 8;

template <typename T>
void RleEncodeImpl(const T* v, size_t n, int bit_width, std::string* out) {
  size_t literal_start = 0;
  size_t i = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && v[j] == v[i]) ++j;
    size_t run = j - i;
    if (run >= kMinRepeat) {
      size_t literal = i - literal_start;
      // A packed run holds a multiple of 8 values: lend it the head of the repeat run.
      size_t pad = (8 - literal % 8) % 8;
      if (literal > 0 && run - pad >= 1) {
        PutPacked(v + literal_start, literal + pad, bit_width, out);
        i += pad;
        run -= pad;
      }
      PutRepeat(v[i], run, bit_width, out);
      literal_start = j;
    }
    i = j;
  }
  if (literal_start < n) PutPacked(v + literal_start, n - literal_start, bit_width, out);
}

}  // namespace

void RleEncode(const uint32_t* values, size_t n, int bit_width, std::string* out) { RleEncodeImpl(values, n, bit_width, out); }
void RleEncode(const uint8_t* values, size_t n, int bit_width, std::string* out) { RleEncodeImpl(values, n, bit_width, out); }

Status BitPackedMsbDecode(const uint8_t* data, size_t size, int bit_width, uint8_t* out, size_t n, size_t* consumed) {
  if (bit_width > 8) return Corrupt("BIT_PACKED levels wider than 8 bits");
  size_t nbytes = (n * bit_width + 7) / 8;
  if (nbytes > size) return Corrupt("BIT_PACKED levels reach past the end of the page");
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    for (int b = 0; b < bit_width; ++b) {
      size_t bit = i * bit_width + b;
      v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    out[i] = static_cast<uint8_t>(v);
  }
  *consumed = nbytes;
  return Ok();
}

}  // namespace floe::parquet
