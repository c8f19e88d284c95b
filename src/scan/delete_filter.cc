#include "scan/delete_filter.h"

#include <algorithm>
#include <cstring>

#include "expr/row_evaluator.h"
#include "scan/delete_index.h"

namespace floe {

namespace {

void AppendFixed(const void* p, size_t n, std::string* key) { key->append(static_cast<const char*>(p), n); }

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

Status PositionDeleteSet::Add(const ColumnBatch& deletes, std::string_view data_file_path) {
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
  for (size_t r = 0; r < deletes.num_rows; ++r) {
    if (paths.IsNull(r) || pos.IsNull(r)) continue;
    if (paths.BytesAt(r) != data_file_path) continue;
    int64_t p = pos.type->id() == TypeId::kLong ? pos.longs[r] : pos.ints[r];
    if (!positions_.empty() && p < positions_.back()) sorted = false;
    positions_.push_back(p);
  }
  if (!sorted) std::sort(positions_.begin(), positions_.end());
  return Ok();
}

void PositionDeleteSet::Apply(int64_t first_position, std::vector<uint8_t>* keep) const {
  int64_t end = first_position + static_cast<int64_t>(keep->size());
  auto it = std::lower_bound(positions_.begin(), positions_.end(), first_position);
  for (; it != positions_.end() && *it < end; ++it) (*keep)[*it - first_position] = 0;
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
  std::string key;
  for (size_t r = 0; r < deletes.num_rows; ++r) {
    key.clear();
    for (const Column* c : cols) AppendValueKey(*c, r, &key);
    keys_.insert(key);
  }
  return Ok();
}

Status EqualityDeleteSet::Apply(const ColumnBatch& data, std::vector<uint8_t>* keep) const {
  if (keys_.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(auto cols, KeyColumns(data, "the data being filtered"));
  std::string key;
  for (size_t r = 0; r < data.num_rows; ++r) {
    if (!(*keep)[r]) continue;
    key.clear();
    for (const Column* c : cols) AppendValueKey(*c, r, &key);
    if (keys_.count(key)) (*keep)[r] = 0;
  }
  return Ok();
}

}  // namespace floe
