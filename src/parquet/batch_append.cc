#include "parquet/batch_append.h"

namespace floe::parquet {

namespace {
template <typename T>
void Extend(std::vector<T>& dst, const std::vector<T>& src) {
  dst.insert(dst.end(), src.begin(), src.end());
}
// Branch-free: every value is written, and the write position advances only for selected ones.
template <typename T>
void CopySelected(const std::vector<T>& src, size_t from, size_t count, const uint8_t* sel, std::vector<T>& dst) {
  if (src.empty()) return;
  const T* s = src.data() + from;
  if (sel == nullptr) {
    dst.insert(dst.end(), s, s + count);
    return;
  }
  size_t base = dst.size();
  dst.resize(base + count);
  T* d = dst.data() + base;
  size_t k = 0;
  for (size_t i = 0; i < count; ++i) {
    d[k] = s[i];
    k += sel[i];
  }
  dst.resize(base + k);
}

}  // namespace

void AppendSelected(const Column& src, size_t from, size_t count, const uint8_t* sel, Column* dst) {
  bool flags = !src.nulls.empty() || !dst->nulls.empty();
  if (flags) {
    dst->nulls.resize(dst->length, 0);
    CopySelected(src.nulls, from, count, sel, dst->nulls);  // nothing when src has no nulls
  }
  CopySelected(src.bools, from, count, sel, dst->bools);
  CopySelected(src.ints, from, count, sel, dst->ints);
  CopySelected(src.longs, from, count, sel, dst->longs);
  CopySelected(src.floats, from, count, sel, dst->floats);
  CopySelected(src.doubles, from, count, sel, dst->doubles);
  CopySelected(src.decimals, from, count, sel, dst->decimals);
  size_t selected = count;
  if (sel != nullptr) {
    selected = 0;
    for (size_t i = 0; i < count; ++i) selected += sel[i];
  }
  if (src.offsets.size() > 1) {
    if (dst->offsets.empty()) dst->offsets.push_back(0);
    const uint32_t* o = src.offsets.data() + from;
    for (size_t i = 0; i < count; ++i) {
      if (sel != nullptr && !sel[i]) continue;
      dst->bytes.append(src.bytes, o[i], o[i + 1] - o[i]);
      dst->offsets.push_back(static_cast<uint32_t>(dst->bytes.size()));
    }
  }
  dst->length += selected;
  if (flags) dst->nulls.resize(dst->length, 0);  // a null-free src: zero flags for its rows
}

void ClearColumn(Column* c) {
  c->length = 0;
  c->nulls.clear();
  c->bools.clear();
  c->ints.clear();
  c->longs.clear();
  c->floats.clear();
  c->doubles.clear();
  c->decimals.clear();
  c->bytes.clear();
  c->offsets.clear();
  if (c->type && (c->type->id() == TypeId::kString || c->type->id() == TypeId::kBinary ||
                  c->type->id() == TypeId::kFixed || c->type->id() == TypeId::kUuid))
    c->offsets.push_back(0);
  for (auto& child : c->children) ClearColumn(&child);
}

void AppendColumn(Column* dst, const Column& src) {
  if (!src.nulls.empty() || !dst->nulls.empty()) {
    dst->nulls.resize(dst->length, 0);
    if (src.nulls.empty()) {
      dst->nulls.insert(dst->nulls.end(), src.length, 0);
    } else {
      dst->nulls.insert(dst->nulls.end(), src.nulls.begin(), src.nulls.begin() + src.length);
    }
  }
  Extend(dst->bools, src.bools);
  Extend(dst->ints, src.ints);
  Extend(dst->longs, src.longs);
  Extend(dst->floats, src.floats);
  Extend(dst->doubles, src.doubles);
  Extend(dst->decimals, src.decimals);
  if (src.offsets.size() > 1) {
    if (dst->offsets.empty()) dst->offsets.push_back(0);
    uint32_t base = dst->offsets.back();
    uint32_t first = src.offsets[0];
    for (size_t i = 1; i < src.offsets.size(); ++i) dst->offsets.push_back(base + (src.offsets[i] - first));
    dst->bytes.append(src.bytes, first, src.offsets.back() - first);
  }
  for (size_t k = 0; k < dst->children.size() && k < src.children.size(); ++k) AppendColumn(&dst->children[k], src.children[k]);
  dst->length += src.length;
}

void AppendBatch(ColumnBatch* dst, const ColumnBatch& src) {
  for (size_t k = 0; k < dst->columns.size() && k < src.columns.size(); ++k) AppendColumn(&dst->columns[k], src.columns[k]);
  dst->num_rows += src.num_rows;
}

}  // namespace floe::parquet
