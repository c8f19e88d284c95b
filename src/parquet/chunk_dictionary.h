// A column chunk's dictionary page, decoded to the target type, and which of its entries a
// value predicate accepts (so data pages can be matched on their dictionary ids alone).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/parquet_format.h"
#include "parquet/value_conversion.h"
#include "types/column_batch.h"

namespace floe::parquet {

// Variable-length values: a list of (offset, length) views into a buffer.
struct ByteViews {
  std::vector<uint32_t> offsets{0};
  std::string bytes;
  size_t size() const { return offsets.size() - 1; }
  std::string_view At(size_t i) const { return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]); }
};

struct ChunkDictionary {
  bool present = false;
  OutKind kind = OutKind::kInt64;
  // The entries, in the one vector kind uses.
  std::vector<uint8_t> bools;
  std::vector<int32_t> ints;
  std::vector<int64_t> longs;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<__int128> decimals;
  ByteViews bytes;  // followed by 16 bytes of slack, for 16-byte copies of short entries
  // After MatchAgainst: per entry, 1 when it is a predicate value.
  std::vector<uint8_t> matches;
  bool any_match = false;

  // Decodes a (decompressed) dictionary page body.
  Status Decode(const Conversion& conv, const DictionaryPageHeader& h, const uint8_t* body, size_t size);
  size_t size() const;
  // Fills `matches` for an IN list: a Column of the target type without nulls.
  void MatchAgainst(const Column& predicate);
};

// Whether v is one of the values (compared as the target type's values: bitwise for
// integers, decimals and booleans; callers keep floating point out).
template <typename T>
bool ValueIn(const T& v, const std::vector<T>& set) {
  for (const T& x : set)
    if (x == v) return true;
  return false;
}
bool BytesIn(std::string_view v, const Column& set);

}  // namespace floe::parquet
