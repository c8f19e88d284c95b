#include "write/partition_rows.h"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace floe {

namespace {

// Distinct source-cell values remembered per batch. Past it (a transform of a column with a
// distinct value in nearly every row, such as day(ts)) the tuple is computed per row again
// and nothing more is remembered, so memory stays bounded and no lookup is wasted.
constexpr size_t kRememberedCells = 4096;

template <typename T>
void AppendRaw(const T& v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// Appends row r's cell of c as stored (a null marker, or the value's bytes) to out. False for a
// type whose value is not one flat cell (struct, list, map): such a row is not remembered.
bool AppendCell(const Column& c, size_t r, std::string* out) {
  if (c.IsNull(r)) {
    out->push_back('\x01');
    return true;
  }
  out->push_back('\x02');
  switch (c.type->id()) {
    case TypeId::kBoolean: out->push_back(static_cast<char>(c.bools[r])); return true;
    case TypeId::kInt:
    case TypeId::kDate: AppendRaw(c.ints[r], out); return true;
    case TypeId::kFloat: AppendRaw(c.floats[r], out); return true;
    case TypeId::kDouble: AppendRaw(c.doubles[r], out); return true;
    case TypeId::kDecimal: AppendRaw(c.decimals[r], out); return true;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      const std::string_view bytes = c.BytesAt(r);
      AppendRaw(static_cast<uint32_t>(bytes.size()), out);
      out->append(bytes);
      return true;
    }
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return false;
    default: AppendRaw(c.longs[r], out); return true;
  }
}

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using IndexByBytes = std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;

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
  IndexByBytes group_of_key;    // tuple key -> group
  IndexByBytes group_of_cells;  // source cells -> group (the remembered ones)
  bool remember = true;
  std::string cells, last_cells, key;
  uint32_t last_group = 0;
  bool have_last = false;
  std::vector<Literal> tuple(fields.size());

  for (size_t r = 0; r < batch.num_rows; ++r) {
    if (remember) {
      cells.clear();
      for (const Column* c : sources) remember = remember && AppendCell(*c, r, &cells);
    }
    if (remember) {
      if (have_last && cells == last_cells) {
        groups[last_group].rows.push_back(static_cast<uint32_t>(r));
        continue;
      }
      if (auto it = group_of_cells.find(std::string_view(cells)); it != group_of_cells.end()) {
        last_cells = cells, last_group = it->second, have_last = true;
        groups[last_group].rows.push_back(static_cast<uint32_t>(r));
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
      if (group_of_cells.size() < kRememberedCells) {
        group_of_cells.emplace(cells, group);
        last_cells = cells, last_group = group, have_last = true;
      } else {
        remember = false;
      }
    }
  }
  return groups;
}

}  // namespace floe
