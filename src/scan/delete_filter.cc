#include "scan/delete_filter.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "expr/row_evaluator.h"
#include "scan/delete_index.h"
#include "util/warning.h"

namespace floe {

namespace {

void AppendFixed(const void* p, size_t n, std::string* key) { key->append(static_cast<const char*>(p), n); }

// The key hash. Each type hashes the very value AppendValueKey encodes (ints widened to long,
// floats to double, floats by their bits), so equal encodings give equal hashes.
constexpr uint64_t kRowKeySeed = 0x243f6a8885a308d3;
constexpr uint64_t kNullKeyHash = 0x13198a2e03707344;
constexpr uint64_t kStructKeySeed = 0xa4093822299f31d0;

// MurmurHash3's 64-bit finalizer: a bijection that spreads every input bit over the output.
uint64_t FinishKeyHash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccd;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53;
  return k ^ (k >> 33);
}

uint64_t MixKeyHash(uint64_t hash, uint64_t value) { return FinishKeyHash(hash ^ value); }

uint64_t HashKeyBytes(const char* p, size_t n) {
  uint64_t h = FinishKeyHash(n + kRowKeySeed);  // the length first: zero padding of the tail is unambiguous
  uint64_t word;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::memcpy(&word, p + i, 8);
    h = MixKeyHash(h, word);
  }
  if (i < n) {
    word = 0;
    std::memcpy(&word, p + i, n - i);
    h = MixKeyHash(h, word);
  }
  return h;
}

// hash[r] = mix(hash[r], value(r)), or the null hash where column[r] is null.
template <class ValueHash>
void MixColumnValues(const Column& column, size_t rows, uint64_t* hash, ValueHash value) {
  if (column.nulls.empty()) {
    for (size_t r = 0; r < rows; ++r) hash[r] = MixKeyHash(hash[r], value(r));
    return;
  }
  for (size_t r = 0; r < rows; ++r) hash[r] = MixKeyHash(hash[r], column.nulls[r] ? kNullKeyHash : value(r));
}

// Mixes the first `rows` values of `column` into hash[0..rows), one type dispatch per column.
void HashKeyColumn(const Column& column, size_t rows, uint64_t* hash) {
  const Column& c = column;
  switch (c.type->id()) {
    case TypeId::kBoolean: MixColumnValues(c, rows, hash, [&](size_t r) { return uint64_t{c.bools[r] != 0}; }); break;
    case TypeId::kInt:
    case TypeId::kDate:
      MixColumnValues(c, rows, hash, [&](size_t r) { return static_cast<uint64_t>(int64_t{c.ints[r]}); });
      break;
    case TypeId::kFloat:
      MixColumnValues(c, rows, hash, [&](size_t r) { return std::bit_cast<uint64_t>(static_cast<double>(c.floats[r])); });
      break;
    case TypeId::kDouble:
      MixColumnValues(c, rows, hash, [&](size_t r) { return std::bit_cast<uint64_t>(c.doubles[r]); });
      break;
    case TypeId::kDecimal:
      MixColumnValues(c, rows, hash, [&](size_t r) {
        auto v = static_cast<unsigned __int128>(c.decimals[r]);
        return static_cast<uint64_t>(v) ^ FinishKeyHash(static_cast<uint64_t>(v >> 64));
      });
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
      MixColumnValues(c, rows, hash, [&](size_t r) {
        return HashKeyBytes(c.bytes.data() + c.offsets[r], c.offsets[r + 1] - c.offsets[r]);
      });
      break;
    case TypeId::kStruct: {
      std::vector<uint64_t> fields(rows, kStructKeySeed);
      for (const Column& child : c.children) HashKeyColumn(child, rows, fields.data());
      MixColumnValues(c, rows, hash, [&](size_t r) { return fields[r]; });
      break;
    }
    case TypeId::kList:
    case TypeId::kMap: MixColumnValues(c, rows, hash, [](size_t) { return uint64_t{1}; }); break;  // as the key: null or not
    default: MixColumnValues(c, rows, hash, [&](size_t r) { return static_cast<uint64_t>(c.longs[r]); }); break;
  }
}

}  // namespace

void AppendValueKey(const Column& column, size_t row, std::string* key) {
  if (column.IsNull(row)) {
    key->push_back('\0');
    return;
  }
  key->push_back('\1');
  switch (column.type->id()) {
    case TypeId::kBoolean: key->push_back(column.bools[row] ? 1 : 0); break;
    case TypeId::kInt:
    case TypeId::kDate: {
      int64_t v = column.ints[row];  // widened: an int equals the same long after promotion
      AppendFixed(&v, sizeof v, key);
      break;
    }
    case TypeId::kFloat: {
      double v = column.floats[row];  // widened: float promotes to double
      AppendFixed(&v, sizeof v, key);
      break;
    }
    case TypeId::kDouble: AppendFixed(&column.doubles[row], sizeof(double), key); break;
    case TypeId::kDecimal: AppendFixed(&column.decimals[row], sizeof(__int128), key); break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      std::string_view b = column.BytesAt(row);
      uint32_t n = static_cast<uint32_t>(b.size());
      AppendFixed(&n, sizeof n, key);
      key->append(b);
      break;
    }
    case TypeId::kStruct:
      for (const Column& child : column.children) AppendValueKey(child, row, key);
      break;
    case TypeId::kList:
    case TypeId::kMap: break;  // not allowed as equality fields by the spec
    default: AppendFixed(&column.longs[row], sizeof(int64_t), key); break;
  }
}

void PositionDeleteSet::AddPositions(const std::vector<int64_t>& positions) {
  const bool was_sorted_after = positions_.empty() || positions.empty() || positions.front() >= positions_.back();
  positions_.insert(positions_.end(), positions.begin(), positions.end());
  if (!was_sorted_after || !std::is_sorted(positions_.end() - static_cast<std::ptrdiff_t>(positions.size()), positions_.end()))
    std::sort(positions_.begin(), positions_.end());
}

Status PositionDeleteSet::Add(const ColumnBatch& deletes, std::string_view data_file_path,
                              std::string_view delete_file_path) {
  int path_index = deletes.ColumnIndexById(kDeleteFilePathFieldId);
  int pos_index = deletes.ColumnIndexById(kDeletePosFieldId);
  if (path_index < 0 || pos_index < 0)
    return Corrupt("position delete file lacks the file_path or pos column (field ids 2147483546, 2147483545)");
  const Column& paths = deletes.columns[path_index];
  const Column& pos = deletes.columns[pos_index];
  if (paths.offsets.empty() || (pos.type->id() != TypeId::kLong && pos.type->id() != TypeId::kInt))
    return Corrupt("position delete file has file_path of type " + paths.type->ToString() + " and pos of type " +
                   pos.type->ToString() + " (expected string and long)");
  bool sorted = true;
  size_t null_rows = 0;
  for (size_t r = 0; r < deletes.num_rows; ++r) {
    if (paths.IsNull(r) || pos.IsNull(r)) {
      ++null_rows;
      continue;
    }
    if (paths.BytesAt(r) != data_file_path) continue;
    int64_t p = pos.type->id() == TypeId::kLong ? pos.longs[r] : pos.ints[r];
    if (!positions_.empty() && p < positions_.back()) sorted = false;
    positions_.push_back(p);
  }
  if (!sorted) std::sort(positions_.begin(), positions_.end());
  // Both columns are required by the spec; a row missing either deletes nothing. Said once per
  // delete file (Warn repeats no message), not once per data file it is applied to.
  if (null_rows > 0)
    Warn("position delete file " + std::string(delete_file_path.empty() ? "(unnamed)" : delete_file_path) +
         " has " + std::to_string(null_rows) + " row(s) with a null file_path or pos; they delete nothing");
  return Ok();
}

void PositionDeleteSet::Apply(int64_t first_position, std::vector<uint8_t>* keep) const {
  int64_t end = first_position + static_cast<int64_t>(keep->size());
  auto it = std::lower_bound(positions_.begin(), positions_.end(), first_position);
  for (; it != positions_.end() && *it < end; ++it) (*keep)[*it - first_position] = 0;
}

EqualityDeleteSet::EqualityDeleteSet(std::vector<int> field_ids, int hash_bits)
    : field_ids_(std::move(field_ids)),
      hash_mask_(hash_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << std::max(hash_bits, 0)) - 1) {}

std::vector<uint64_t> EqualityDeleteSet::RowHashes(const std::vector<const Column*>& cols, size_t rows) const {
  std::vector<uint64_t> hashes(rows, kRowKeySeed);
  for (const Column* c : cols) HashKeyColumn(*c, rows, hashes.data());
  if (hash_mask_ != ~uint64_t{0})
    for (uint64_t& h : hashes) h &= hash_mask_;
  return hashes;
}

void EqualityDeleteSet::InsertHash(uint64_t hash) {
  if (hash == 0) {
    has_zero_hash_ = true;
    return;
  }
  if ((hash_count_ + 1) * 2 > hash_slots_.size()) {
    std::vector<uint64_t> old = std::move(hash_slots_);
    hash_slots_.assign(std::max<size_t>(16, old.size() * 2), 0);
    hash_count_ = 0;
    for (uint64_t h : old)
      if (h) InsertHash(h);
  }
  size_t mask = hash_slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    if (hash_slots_[i] == hash) return;
    if (hash_slots_[i] == 0) {
      hash_slots_[i] = hash;
      ++hash_count_;
      return;
    }
  }
}

bool EqualityDeleteSet::MayContain(uint64_t hash) const {
  if (hash == 0) return has_zero_hash_;
  if (hash_slots_.empty()) return false;
  size_t mask = hash_slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    if (hash_slots_[i] == hash) return true;
    if (hash_slots_[i] == 0) return false;
  }
}

Result<std::vector<const Column*>> EqualityDeleteSet::KeyColumns(const ColumnBatch& batch, std::string_view what) const {
  std::vector<const Column*> cols;
  for (int id : field_ids_) {
    const Column* c = FindColumn(batch, id);  // equality fields may sit inside structs
    if (!c) return Corrupt(std::string(what) + " has no column with field id " + std::to_string(id));
    cols.push_back(c);
  }
  return cols;
}

Status EqualityDeleteSet::Add(const ColumnBatch& deletes, std::string_view delete_file_path) {
  FLOE_ASSIGN_OR_RETURN(auto cols, KeyColumns(deletes, "equality delete file " + std::string(delete_file_path)));
  std::vector<uint64_t> hashes = RowHashes(cols, deletes.num_rows);
  std::string key;
  for (size_t r = 0; r < deletes.num_rows; ++r) {
    key.clear();
    for (const Column* c : cols) AppendValueKey(*c, r, &key);
    if (keys_.insert(key).second) InsertHash(hashes[r]);
  }
  return Ok();
}

Status EqualityDeleteSet::Apply(const ColumnBatch& data, std::vector<uint8_t>* keep) const {
  if (keys_.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(auto cols, KeyColumns(data, "the data being filtered"));
  std::vector<uint64_t> hashes = RowHashes(cols, data.num_rows);
  std::string key;
  for (size_t r = 0; r < data.num_rows; ++r) {
    if (!(*keep)[r] || !MayContain(hashes[r])) continue;  // a miss proves the key is not deleted
    key.clear();
    for (const Column* c : cols) AppendValueKey(*c, r, &key);
    if (keys_.count(key)) (*keep)[r] = 0;
  }
  return Ok();
}

}  // namespace floe
