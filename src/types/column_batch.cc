#include "types/column_batch.h"

#include <cstring>

namespace floe {

Column::Column(TypePtr t) : type(std::move(t)) {
  if (!type) return;
  switch (type->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid: offsets.push_back(0); break;
    case TypeId::kStruct:
      for (const auto& f : type->fields()) children.emplace_back(f.type);
      break;
    default: break;
  }
}

size_t Column::null_count() const {
  size_t n = 0;
  for (uint8_t b : nulls) n += b;
  return n;
}

void Column::Reserve(size_t rows) {
  switch (type->id()) {
    case TypeId::kBoolean: bools.reserve(rows); break;
    case TypeId::kInt:
    case TypeId::kDate: ints.reserve(rows); break;
    case TypeId::kFloat: floats.reserve(rows); break;
    case TypeId::kDouble: doubles.reserve(rows); break;
    case TypeId::kDecimal: decimals.reserve(rows); break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid: offsets.reserve(rows + 1); break;
    case TypeId::kStruct:
      for (auto& c : children) c.Reserve(rows);
      break;
    case TypeId::kList:
    case TypeId::kMap: break;
    default: longs.reserve(rows); break;
  }
}

Literal Column::Get(size_t row) const {
  if (IsNull(row)) return Literal::Null(type);
  switch (type->id()) {
    case TypeId::kBoolean: return Literal(type, bools[row] != 0);
    case TypeId::kInt:
    case TypeId::kDate: return Literal(type, ints[row]);
    case TypeId::kFloat: return Literal(type, floats[row]);
    case TypeId::kDouble: return Literal(type, doubles[row]);
    case TypeId::kDecimal: return Literal(type, decimals[row]);
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid: return Literal(type, std::string(BytesAt(row)));
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return Literal::Null(type);  // nested values are read through children
    default: return Literal(type, longs[row]);
  }
}

void Column::AppendNull() {
  if (nulls.empty()) nulls.assign(length, 0);
  nulls.push_back(1);
  switch (type->id()) {
    case TypeId::kBoolean: bools.push_back(0); break;
    case TypeId::kInt:
    case TypeId::kDate: ints.push_back(0); break;
    case TypeId::kFloat: floats.push_back(0); break;
    case TypeId::kDouble: doubles.push_back(0); break;
    case TypeId::kDecimal: decimals.push_back(0); break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid: offsets.push_back(static_cast<uint32_t>(bytes.size())); break;
    case TypeId::kStruct:
      for (auto& c : children) c.AppendNull();
      break;
    case TypeId::kList:
    case TypeId::kMap: break;
    default: longs.push_back(0); break;
  }
  ++length;
}

Status Column::Append(const Literal& in) {
  if (in.is_null()) {
    AppendNull();
    return Ok();
  }
  Literal v = in;
  if (!in.type() || !in.type()->Equals(*type)) {
    FLOE_ASSIGN_OR_RETURN(v, in.CastTo(type));
  }
  switch (type->id()) {
    case TypeId::kBoolean: bools.push_back(v.AsBool()); break;
    case TypeId::kInt:
    case TypeId::kDate: ints.push_back(v.AsInt()); break;
    case TypeId::kFloat: floats.push_back(v.AsFloat()); break;
    case TypeId::kDouble: doubles.push_back(v.AsDouble()); break;
    case TypeId::kDecimal: decimals.push_back(v.AsDecimal()); break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid:
      bytes += v.AsBytes();
      offsets.push_back(static_cast<uint32_t>(bytes.size()));
      break;
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: return InvalidArgument("cannot append a single value to a " + type->ToString() + " column");
    default: longs.push_back(v.AsLong()); break;
  }
  if (!nulls.empty()) nulls.push_back(0);
  ++length;
  return Ok();
}

ColumnBatch::ColumnBatch(const Schema& schema) : ColumnBatch(schema.fields()) {}

ColumnBatch::ColumnBatch(std::vector<NestedField> f) : fields(std::move(f)) {
  for (const auto& field : fields) columns.emplace_back(field.type);
}

int ColumnBatch::ColumnIndexById(int field_id) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].id == field_id) return static_cast<int>(i);
  return -1;
}

int ColumnBatch::ColumnIndexByName(std::string_view name) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) return static_cast<int>(i);
  return -1;
}

Status ColumnBatch::AppendRow(const std::vector<Literal>& row) {
  if (row.size() != columns.size())
    return InvalidArgument("row has " + std::to_string(row.size()) + " values, the batch has " +
                           std::to_string(columns.size()) + " columns");
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i].is_null() && fields[i].required)
      return InvalidArgument("column '" + fields[i].name + "' is required but the row has null");
  }
  // Convert every value first so that a bad value leaves the batch unchanged.
  std::vector<Literal> converted;
  converted.reserve(row.size());
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i].is_null() || (row[i].type() && row[i].type()->Equals(*fields[i].type))) {
      converted.push_back(row[i]);
      continue;
    }
    auto cast = row[i].CastTo(fields[i].type);
    if (!cast) return std::unexpected(cast.error().WithContext("column '" + fields[i].name + "'"));
    converted.push_back(std::move(*cast));
  }
  for (size_t i = 0; i < converted.size(); ++i) {
    auto st = columns[i].Append(converted[i]);
    if (!st) return std::unexpected(st.error().WithContext("column '" + fields[i].name + "'"));
  }
  ++num_rows;
  return Ok();
}

std::vector<Literal> ColumnBatch::Row(size_t row) const {
  std::vector<Literal> out;
  out.reserve(columns.size());
  for (const auto& c : columns) out.push_back(c.Get(row));
  return out;
}

namespace {

// dst[before + i] = src[rows[i]], or T{} where that row is null (as AppendNull leaves it).
template <typename T>
void GatherValues(const std::vector<T>& src, const std::vector<uint32_t>& rows, const std::vector<uint8_t>& nulls,
                  std::vector<T>* dst) {
  const size_t before = dst->size();
  dst->resize(before + rows.size());
  T* out = dst->data() + before;
  if (nulls.empty()) {
    for (size_t i = 0; i < rows.size(); ++i) out[i] = src[rows[i]];
  } else {
    for (size_t i = 0; i < rows.size(); ++i) out[i] = nulls[rows[i]] ? T{} : src[rows[i]];
  }
}

// Appends src's `rows` to dst, which has src's type. The result is what appending each row
// with Append or AppendNull gives: null flags only once some row is null, zero values and
// empty bytes under nulls.
void TakeRows(const Column& src, const std::vector<uint32_t>& rows, Column* dst) {
  const size_t before = dst->length;
  bool any_null = false;
  if (!src.nulls.empty())
    for (uint32_t r : rows) any_null = any_null || src.nulls[r] != 0;
  if (any_null || !dst->nulls.empty()) {
    if (dst->nulls.empty()) dst->nulls.assign(before, 0);
    if (src.nulls.empty()) {
      dst->nulls.resize(before + rows.size(), 0);
    } else {
      for (uint32_t r : rows) dst->nulls.push_back(src.nulls[r]);
    }
  }
  dst->length = before + rows.size();
  static const std::vector<uint8_t> kNoNulls;
  const std::vector<uint8_t>& src_nulls = any_null ? src.nulls : kNoNulls;  // empty: no taken row is null
  switch (src.type->id()) {
    case TypeId::kStruct:
      // Children hold a row for every struct row (null ones included): the same rows are taken.
      for (size_t c = 0; c < src.children.size(); ++c) TakeRows(src.children[c], rows, &dst->children[c]);
      return;
    case TypeId::kBoolean: GatherValues(src.bools, rows, src_nulls, &dst->bools); return;
    case TypeId::kInt:
    case TypeId::kDate: GatherValues(src.ints, rows, src_nulls, &dst->ints); return;
    case TypeId::kFloat: GatherValues(src.floats, rows, src_nulls, &dst->floats); return;
    case TypeId::kDouble: GatherValues(src.doubles, rows, src_nulls, &dst->doubles); return;
    case TypeId::kDecimal: GatherValues(src.decimals, rows, src_nulls, &dst->decimals); return;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      auto length_of = [&](uint32_t r) -> size_t {
        return !src_nulls.empty() && src_nulls[r] ? 0 : src.offsets[r + 1] - src.offsets[r];
      };
      size_t total = 0;
      for (uint32_t r : rows) total += length_of(r);
      size_t pos = dst->bytes.size();
      dst->bytes.resize(pos + total);
      dst->offsets.reserve(dst->offsets.size() + rows.size());
      for (uint32_t r : rows) {
        const size_t n = length_of(r);
        if (n > 0) std::memcpy(dst->bytes.data() + pos, src.bytes.data() + src.offsets[r], n);
        pos += n;
        dst->offsets.push_back(static_cast<uint32_t>(pos));
      }
      return;
    }
    case TypeId::kList:
    case TypeId::kMap: return;
    default: GatherValues(src.longs, rows, src_nulls, &dst->longs); return;
  }
}

}  // namespace

ColumnBatch ColumnBatch::Take(const std::vector<uint32_t>& rows) const {
  ColumnBatch out(fields);
  for (size_t i = 0; i < columns.size(); ++i) TakeRows(columns[i], rows, &out.columns[i]);
  out.num_rows = rows.size();
  return out;
}

ColumnBatch ColumnBatch::Filter(const std::vector<uint8_t>& keep) const {
  std::vector<uint32_t> rows;
  for (size_t r = 0; r < num_rows; ++r)
    if (keep[r]) rows.push_back(static_cast<uint32_t>(r));
  return Take(rows);
}

void ColumnBatch::Append(const ColumnBatch& other) {
  std::vector<uint32_t> rows(other.num_rows);
  for (size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<uint32_t>(r);
  for (size_t i = 0; i < columns.size(); ++i) TakeRows(other.columns[i], rows, &columns[i]);
  num_rows += other.num_rows;
}

}  // namespace floe
