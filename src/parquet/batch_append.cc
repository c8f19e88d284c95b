#include "parquet/batch_append.h"

namespace floe::parquet {

namespace {
template <typename T>
void Extend(std::vector<T>& dst, const std::vector<T>& src) {
  dst.insert(dst.end(), src.begin(), src.end());
}
}  // namespace

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
