#include "write/partition_rows.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace floe {

namespace {

// Distinct source-cell values remembered per batch. Past it (a transform of a column with a
// distinct value in nearly every row, such as day(ts)) the tuple is computed per row again
// and nothing more is remembered, so memory stays bounded and no lookup is wasted.
constexpr size_t kRememberedCells = 4096;

uint64_t Mix(uint64_t h, uint64_t v) {
  // One round of a multiply-xorshift mixer (the finalizer of murmur3's 64-bit hash).
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

template <typename T>
uint64_t Bits(const T& v) {
  uint64_t out = 0;
  std::memcpy(&out, &v, std::min(sizeof(T), sizeof(out)));
  return out;
}

// The bytes of a string of at most 8 bytes as one number, without a call to memcpy: two
// overlapping 4-byte loads from 4 bytes on, else the first, middle and last byte. Given the
// length, different strings give different numbers (every byte is covered).
uint64_t SmallBytes(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  if (n >= 4) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return (static_cast<uint64_t>(hi) << 32) | lo;
  }
  if (n == 0) return 0;
  return (static_cast<uint64_t>(p[0]) << 16) | (static_cast<uint64_t>(p[n / 2]) << 8) | p[n - 1];
}

// The source cells of a batch's rows, hashed and compared where they are, as stored: a null,
// or the value's bits (so -0.0 and 0.0 are different cells, each given its own tuple, which
// the tuple's key then groups). Struct, list and map cells are not flat: such a batch is
// grouped row by row, without remembering.
class SourceCells {
 public:
  explicit SourceCells(std::vector<const Column*> sources) : sources_(std::move(sources)) {
    for (const Column* c : sources_) {
      const TypeId t = c->type->id();
      flat_ = flat_ && t != TypeId::kStruct && t != TypeId::kList && t != TypeId::kMap;
    }
  }
  bool flat() const { return flat_; }

  uint64_t Hash(size_t r) const {
    uint64_t h = 0;
    for (const Column* c : sources_) h = Mix(h, c->IsNull(r) ? 0x6e756c6cull : CellHash(*c, r));
    return h;
  }

  bool Equal(size_t a, size_t b) const {
    for (const Column* c : sources_) {
      const bool null_a = c->IsNull(a);
      if (null_a != c->IsNull(b)) return false;
      if (!null_a && !CellEqual(*c, a, b)) return false;
    }
    return true;
  }

 private:
  static uint64_t CellHash(const Column& c, size_t r) {
    switch (c.type->id()) {
      case TypeId::kBoolean: return c.bools[r];
      case TypeId::kInt:
      case TypeId::kDate: return Bits(c.ints[r]);
      case TypeId::kFloat: return Bits(c.floats[r]);
      case TypeId::kDouble: return Bits(c.doubles[r]);
      case TypeId::kDecimal: return Mix(Bits(c.decimals[r]), static_cast<uint64_t>(c.decimals[r] >> 64));
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid: {
        const std::string_view bytes = c.BytesAt(r);
        if (bytes.size() <= 8) return Mix(SmallBytes(bytes), bytes.size());
        return std::hash<std::string_view>{}(bytes);
      }
      default: return static_cast<uint64_t>(c.longs[r]);
    }
  }

  static bool CellEqual(const Column& c, size_t a, size_t b) {
    switch (c.type->id()) {
      case TypeId::kBoolean: return c.bools[a] == c.bools[b];
      case TypeId::kInt:
      case TypeId::kDate: return c.ints[a] == c.ints[b];
      case TypeId::kFloat: return Bits(c.floats[a]) == Bits(c.floats[b]);
      case TypeId::kDouble: return Bits(c.doubles[a]) == Bits(c.doubles[b]);
      case TypeId::kDecimal: return c.decimals[a] == c.decimals[b];
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid: {
        const std::string_view x = c.BytesAt(a), y = c.BytesAt(b);
        if (x.size() != y.size()) return false;
        return x.size() <= 8 ? SmallBytes(x) == SmallBytes(y) : x == y;
      }
      default: return c.longs[a] == c.longs[b];
    }
  }

  std::vector<const Column*> sources_;
  bool flat_ = true;
};

// Remembered cells: open addressing over (hash, a row holding those cells, its group).
class CellTable {
 public:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  CellTable() : slots_(2 * kRememberedCells) {}
  bool full() const { return size_ >= kRememberedCells; }

  // The group of the cells of row r, or kEmpty when they are not remembered.
  uint32_t Find(const SourceCells& cells, uint64_t hash, size_t r) const {
    for (size_t i = hash & kMask;; i = (i + 1) & kMask) {
      const Slot& s = slots_[i];
      if (s.group == kEmpty) return kEmpty;
      if (s.hash == hash && cells.Equal(s.row, r)) return s.group;
    }
  }
  // Remembers row r's cells (not yet remembered, and the table not full).
  void Insert(uint64_t hash, size_t r, uint32_t group) {
    size_t i = hash & kMask;
    while (slots_[i].group != kEmpty) i = (i + 1) & kMask;
    slots_[i] = Slot{hash, static_cast<uint32_t>(r), group};
    ++size_;
  }

 private:
  static constexpr size_t kMask = 2 * kRememberedCells - 1;  // at most half full
  struct Slot {
    uint64_t hash = 0;
    uint32_t row = 0;
    uint32_t group = kEmpty;
  };
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace

Result<std::vector<PartitionGroup>> GroupRowsByPartition(const PartitionSpec& spec, const ColumnBatch& batch) {
  const auto& fields = spec.fields();
  std::vector<const Column*> sources;
  for (const auto& pf : fields) {
    const int index = batch.ColumnIndexById(pf.source_id);
    if (index < 0) return InvalidArgument("partition source column id " + std::to_string(pf.source_id) + " is missing");
    sources.push_back(&batch.columns[static_cast<size_t>(index)]);
  }

  std::vector<PartitionGroup> groups;
  std::unordered_map<std::string, uint32_t> group_of_key;  // tuple key -> group
  const SourceCells cells(sources);
  CellTable remembered;
  bool remember = cells.flat();
  size_t last_row = 0;  // the last row looked up, and its group
  uint32_t last_group = CellTable::kEmpty;
  std::string key;
  std::vector<Literal> tuple(fields.size());

  for (size_t r = 0; r < batch.num_rows; ++r) {
    uint64_t hash = 0;
    if (remember) {
      if (last_group != CellTable::kEmpty && cells.Equal(last_row, r)) {
        groups[last_group].rows.push_back(static_cast<uint32_t>(r));
        continue;
      }
      hash = cells.Hash(r);
      if (const uint32_t g = remembered.Find(cells, hash, r); g != CellTable::kEmpty) {
        last_row = r, last_group = g;
        groups[g].rows.push_back(static_cast<uint32_t>(r));
        continue;
      }
    }
    key.clear();
    for (size_t p = 0; p < fields.size(); ++p) {
      FLOE_ASSIGN_OR_RETURN(tuple[p], fields[p].transform.Apply(sources[p]->Get(r)));
      if (tuple[p].is_null()) {
        key += '\x01';
      } else {
        FLOE_ASSIGN_OR_RETURN(std::string bytes, tuple[p].ToBinary());
        key += '\x02' + std::to_string(bytes.size()) + ':' + bytes;
      }
    }
    auto [it, inserted] = group_of_key.emplace(key, static_cast<uint32_t>(groups.size()));
    if (inserted) groups.push_back(PartitionGroup{tuple, key, {}});
    const uint32_t group = it->second;
    groups[group].rows.push_back(static_cast<uint32_t>(r));
    if (remember) {
      if (!remembered.full()) {
        remembered.Insert(hash, r, group);
        last_row = r, last_group = group;
      } else {
        remember = false;
      }
    }
  }
  return groups;
}

}  // namespace floe
