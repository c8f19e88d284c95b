// Hash tables that map a column's values to dictionary indices while writing.
//
// Open addressing with linear probing; the table stores index + 1 (0 = empty slot) and the
// entries live densely in insertion order, which is the dictionary page's order.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace floe::parquet {

inline uint64_t MixBits(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

// Dictionary of fixed-width values, compared by bit pattern (so -0.0 and 0.0, and NaN
// payloads, stay distinct and round-trip exactly).
template <typename T>
class FixedDictionary {
 public:
  FixedDictionary() { Rehash(1024); }

  // The index of v, inserting it if new; *inserted tells which.
  uint32_t Insert(T v, bool* inserted) {
    uint64_t bits = Bits(v);
    size_t slot = MixBits(bits) & mask_;
    while (true) {
      uint32_t e = table_[slot];
      if (e == 0) break;
      if (Bits(values_[e - 1]) == bits) {
        *inserted = false;
        return e - 1;
      }
      slot = (slot + 1) & mask_;
    }
    values_.push_back(v);
    table_[slot] = static_cast<uint32_t>(values_.size());
    *inserted = true;
    if (values_.size() * 2 > table_.size()) Rehash(table_.size() * 2);
    return static_cast<uint32_t>(values_.size() - 1);
  }

  const std::vector<T>& values() const { return values_; }
  size_t size() const { return values_.size(); }
  size_t byte_size() const { return values_.size() * sizeof(T); }
  void Clear() {
    values_.clear();
    Rehash(1024);
  }

 private:
  static uint64_t Bits(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
  }
  void Rehash(size_t n) {
    table_.assign(n, 0);
    mask_ = n - 1;
    for (size_t i = 0; i < values_.size(); ++i) {
      size_t slot = MixBits(Bits(values_[i])) & mask_;
      while (table_[slot] != 0) slot = (slot + 1) & mask_;
      table_[slot] = static_cast<uint32_t>(i + 1);
    }
  }

  std::vector<T> values_;
  std::vector<uint32_t> table_;
  size_t mask_ = 0;
};

// Dictionary of byte strings.
class BytesDictionary {
 public:
  BytesDictionary() { Rehash(1024); }

  uint32_t Insert(std::string_view v, bool* inserted) {
    uint64_t h = Hash(v);
    size_t slot = h & mask_;
    while (true) {
      uint32_t e = table_[slot];
      if (e == 0) break;
      if (hashes_[e - 1] == h && At(e - 1) == v) {
        *inserted = false;
        return e - 1;
      }
      slot = (slot + 1) & mask_;
    }
    bytes_.append(v);
    offsets_.push_back(static_cast<uint32_t>(bytes_.size()));
    hashes_.push_back(h);
    table_[slot] = static_cast<uint32_t>(hashes_.size());
    *inserted = true;
    if (hashes_.size() * 2 > table_.size()) Rehash(table_.size() * 2);
    return static_cast<uint32_t>(hashes_.size() - 1);
  }

  std::string_view At(size_t i) const {
    return std::string_view(bytes_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  size_t size() const { return hashes_.size(); }
  // Bytes of the dictionary page (PLAIN: 4-byte length + bytes per entry).
  size_t byte_size() const { return bytes_.size() + 4 * hashes_.size(); }
  void Clear() {
    bytes_.clear();
    offsets_.assign(1, 0);
    hashes_.clear();
    Rehash(1024);
  }

 private:
  static uint64_t Hash(std::string_view v) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ v.size();
    size_t i = 0;
    for (; i + 8 <= v.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, v.data() + i, 8);
      h = MixBits(h ^ w) * 0x9e3779b97f4a7c15ULL;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, v.data() + i, v.size() - i);
    return MixBits(h ^ tail ^ (tail << 17));
  }
  void Rehash(size_t n) {
    table_.assign(n, 0);
    mask_ = n - 1;
    for (size_t i = 0; i < hashes_.size(); ++i) {
      size_t slot = hashes_[i] & mask_;
      while (table_[slot] != 0) slot = (slot + 1) & mask_;
      table_[slot] = static_cast<uint32_t>(i + 1);
    }
  }

  std::string bytes_;
  std::vector<uint32_t> offsets_{0};
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> table_;
  size_t mask_ = 0;
};

}  // namespace floe::parquet
