#include "parquet/nested_levels.h"

namespace floe::parquet {

namespace {

constexpr int64_t kAbsent = -1;

class Shredder {
 public:
  Shredder(const std::vector<const Column*>& chain, const std::vector<bool>& optional, const std::string& name,
           ShreddedLeaf* out)
      : chain_(chain), optional_(optional), name_(name), out_(out) {}

  // Entry (or entries) of row `row` of chain[d], whose ancestors are all present:
  // `def` counts the levels defined above it, `rep` is the repetition level its first entry
  // carries, `depth` the number of lists and maps above it.
  Status Visit(size_t d, size_t row, uint8_t def, uint8_t rep, uint8_t depth) {
    const Column& c = *chain_[d];
    if (row >= c.length) return Bad("a child row past the end of its column");
    if (c.IsNull(row)) {
      if (!optional_[d]) return Bad("a required value that is null");
      Emit(def, rep, kAbsent);
      return Ok();
    }
    if (optional_[d]) ++def;
    if (d + 1 == chain_.size()) {
      Emit(def, rep, static_cast<int64_t>(row));
      return Ok();
    }
    switch (c.type->id()) {
      case TypeId::kStruct: return Visit(d + 1, row, def, rep, depth);
      case TypeId::kList:
      case TypeId::kMap: {
        if (c.offsets.size() < row + 2 || c.offsets[row] > c.offsets[row + 1])
          return Bad("list or map offsets that do not fit its rows");
        const uint32_t lo = c.offsets[row], hi = c.offsets[row + 1];
        if (lo == hi) {  // empty: defined up to the list itself
          Emit(def, rep, kAbsent);
          return Ok();
        }
        const uint8_t inner_depth = static_cast<uint8_t>(depth + 1);
        for (uint32_t i = lo; i < hi; ++i)
          FLOE_RETURN_IF_ERROR(Visit(d + 1, i, static_cast<uint8_t>(def + 1), i == lo ? rep : inner_depth, inner_depth));
        return Ok();
      }
      default: return Bad("a path through a column that is not a struct, list or map");
    }
  }

  std::vector<int64_t> leaf_rows;
  size_t record = 0;  // the record being visited, for messages

 private:
  void Emit(uint8_t def, uint8_t rep, int64_t leaf_row) {
    out_->def_levels.push_back(def);
    out_->rep_levels.push_back(rep);
    leaf_rows.push_back(leaf_row);
  }

  Status Bad(const std::string& what) const {
    return InvalidArgument("parquet writer: column '" + name_ + "' has " + what + " (row " + std::to_string(record) + ")");
  }

  const std::vector<const Column*>& chain_;
  const std::vector<bool>& optional_;
  const std::string& name_;
  ShreddedLeaf* out_;
};

template <typename T>
Status GatherVector(const std::vector<T>& src, const std::vector<int64_t>& rows, std::vector<T>* dst) {
  dst->resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] == kAbsent) continue;
    if (static_cast<size_t>(rows[i]) >= src.size()) return InvalidArgument("parquet writer: leaf column holds fewer values than rows");
    (*dst)[i] = src[rows[i]];
  }
  return Ok();
}

}  // namespace

Status ShredLeaf(const std::vector<const Column*>& chain, const std::vector<bool>& optional, size_t begin,
                 size_t end, const std::string& name, ShreddedLeaf* out) {
  out->def_levels.clear();
  out->rep_levels.clear();
  Shredder shredder(chain, optional, name, out);
  // At least one entry per record.
  out->def_levels.reserve(end - begin);
  out->rep_levels.reserve(end - begin);
  shredder.leaf_rows.reserve(end - begin);
  for (size_t r = begin; r < end; ++r) {
    shredder.record = r;
    FLOE_RETURN_IF_ERROR(shredder.Visit(0, r, 0, 0, 0));
  }
  const Column& leaf = *chain.back();
  // An entry has a leaf row exactly when it is defined down to the leaf (its level is the maximum).
  const std::vector<int64_t>& present = shredder.leaf_rows;
  out->entries = Column(leaf.type);
  Column& e = out->entries;
  e.length = present.size();
  // The vector the leaf's type keeps its values in (types/literal.h), sized even when the
  // batch holds no value of it.
  switch (leaf.type->id()) {
    case TypeId::kBoolean: return GatherVector(leaf.bools, present, &e.bools);
    case TypeId::kInt:
    case TypeId::kDate: return GatherVector(leaf.ints, present, &e.ints);
    case TypeId::kFloat: return GatherVector(leaf.floats, present, &e.floats);
    case TypeId::kDouble: return GatherVector(leaf.doubles, present, &e.doubles);
    case TypeId::kDecimal: return GatherVector(leaf.decimals, present, &e.decimals);
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kVariant: break;
    default: return GatherVector(leaf.longs, present, &e.longs);
  }
  {
    e.offsets.assign(1, 0);
    e.offsets.reserve(present.size() + 1);
    for (int64_t r : present) {
      if (r != kAbsent) {
        if (static_cast<size_t>(r) + 1 >= leaf.offsets.size() || leaf.offsets[r] > leaf.offsets[r + 1] ||
            leaf.offsets[r + 1] > leaf.bytes.size())
          return InvalidArgument("parquet writer: column '" + name + "' has offsets that do not fit its bytes");
        e.bytes.append(leaf.BytesAt(static_cast<size_t>(r)));
      }
      e.offsets.push_back(static_cast<uint32_t>(e.bytes.size()));
    }
  }
  return Ok();
}

}  // namespace floe::parquet
