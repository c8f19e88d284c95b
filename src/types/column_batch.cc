#include "types/column_batch.h"

namespace floe {

Column::Column(TypePtr t) : type(std::move(t)) {
  if (!type) return;
  switch (type->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
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

void CopyRows(const Column& src, const std::vector<uint8_t>& keep, Column* dst) {
  if (src.type->id() == TypeId::kStruct) {
    // Children hold a row for every struct row (null ones included), so they are filtered by
    // the same vector; only the struct's own null flags remain per row.
    for (size_t c = 0; c < src.children.size(); ++c) CopyRows(src.children[c], keep, &dst->children[c]);
    for (size_t r = 0; r < src.length; ++r) {
      if (!keep[r]) continue;
      const bool is_null = src.IsNull(r);
      if (is_null && dst->nulls.empty()) dst->nulls.assign(dst->length, 0);  // flags start at the first null
      if (is_null || !dst->nulls.empty()) dst->nulls.push_back(is_null ? 1 : 0);
      ++dst->length;
    }
    return;
  }
  for (size_t r = 0; r < src.length; ++r) {
    if (!keep[r]) continue;
    if (src.IsNull(r)) {
      dst->AppendNull();
      continue;
    }
    switch (src.type->id()) {
      case TypeId::kBoolean: dst->bools.push_back(src.bools[r]); break;
      case TypeId::kInt:
      case TypeId::kDate: dst->ints.push_back(src.ints[r]); break;
      case TypeId::kFloat: dst->floats.push_back(src.floats[r]); break;
      case TypeId::kDouble: dst->doubles.push_back(src.doubles[r]); break;
      case TypeId::kDecimal: dst->decimals.push_back(src.decimals[r]); break;
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kFixed:
      case TypeId::kUuid:
        dst->bytes += src.BytesAt(r);
        dst->offsets.push_back(static_cast<uint32_t>(dst->bytes.size()));
        break;
      case TypeId::kList:
      case TypeId::kMap: break;
      default: dst->longs.push_back(src.longs[r]); break;
    }
    if (!dst->nulls.empty()) dst->nulls.push_back(0);
    ++dst->length;
  }
}

}  // namespace

ColumnBatch ColumnBatch::Filter(const std::vector<uint8_t>& keep) const {
  ColumnBatch out(fields);
  for (size_t i = 0; i < columns.size(); ++i) CopyRows(columns[i], keep, &out.columns[i]);
  for (size_t r = 0; r < num_rows; ++r) out.num_rows += keep[r] ? 1 : 0;
  return out;
}

void ColumnBatch::Append(const ColumnBatch& other) {
  std::vector<uint8_t> all(other.num_rows, 1);
  for (size_t i = 0; i < columns.size(); ++i) CopyRows(other.columns[i], all, &columns[i]);
  num_rows += other.num_rows;
}

}  // namespace floe
