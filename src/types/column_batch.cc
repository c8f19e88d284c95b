#include "types/column_batch.h"

#include <cstring>

namespace floe {

namespace {

// Which of a Column's vectors holds a type's values (column_batch.h): the one place that
// maps types to storage, so every switch below names a storage, not a list of types.
enum class Storage { kBools, kInts, kFloats, kDoubles, kDecimals, kLongs, kBytes, kStruct, kOffsets };

Storage StorageOf(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return Storage::kBools;
    case TypeId::kInt:
    case TypeId::kDate: return Storage::kInts;
    case TypeId::kFloat: return Storage::kFloats;
    case TypeId::kDouble: return Storage::kDoubles;
    case TypeId::kDecimal: return Storage::kDecimals;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
    case TypeId::kFixed:
    case TypeId::kUuid: return Storage::kBytes;
    case TypeId::kStruct: return Storage::kStruct;
    case TypeId::kList:
    case TypeId::kMap: return Storage::kOffsets;
    default: return Storage::kLongs;  // long, time and the timestamps
  }
}

}  // namespace

Column::Column(TypePtr t) : type(std::move(t)) {
  if (!type) return;
  switch (StorageOf(*type)) {
    case Storage::kBytes: offsets.push_back(0); break;
    case Storage::kStruct:
      for (const auto& f : type->fields()) children.emplace_back(f.type);
      break;
    case Storage::kOffsets:
      offsets.push_back(0);
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
  switch (StorageOf(*type)) {
    case Storage::kBools: bools.reserve(rows); break;
    case Storage::kInts: ints.reserve(rows); break;
    case Storage::kFloats: floats.reserve(rows); break;
    case Storage::kDoubles: doubles.reserve(rows); break;
    case Storage::kDecimals: decimals.reserve(rows); break;
    case Storage::kBytes: offsets.reserve(rows + 1); break;
    case Storage::kStruct:
      for (auto& c : children) c.Reserve(rows);
      break;
    case Storage::kOffsets: offsets.reserve(rows + 1); break;
    default: longs.reserve(rows); break;
  }
}

Literal Column::Get(size_t row) const {
  if (IsNull(row)) return Literal::Null(type);
  switch (StorageOf(*type)) {
    case Storage::kBools: return Literal(type, bools[row] != 0);
    case Storage::kInts: return Literal(type, ints[row]);
    case Storage::kFloats: return Literal(type, floats[row]);
    case Storage::kDoubles: return Literal(type, doubles[row]);
    case Storage::kDecimals: return Literal(type, decimals[row]);
    case Storage::kBytes: return Literal(type, std::string(BytesAt(row)));
    case Storage::kStruct: {
      std::vector<Literal> items;
      items.reserve(children.size());
      for (const auto& c : children) items.push_back(c.Get(row));
      return Literal::Nested(type, std::move(items));
    }
    case Storage::kOffsets: {
      std::vector<Literal> items;
      items.reserve((offsets[row + 1] - offsets[row]) * children.size());
      for (uint32_t i = offsets[row]; i < offsets[row + 1]; ++i)
        for (const auto& c : children) items.push_back(c.Get(i));
      return Literal::Nested(type, std::move(items));
    }
    default: return Literal(type, longs[row]);
  }
}

void Column::AppendNull() {
  if (nulls.empty()) nulls.assign(length, 0);
  nulls.push_back(1);
  switch (StorageOf(*type)) {
    case Storage::kBools: bools.push_back(0); break;
    case Storage::kInts: ints.push_back(0); break;
    case Storage::kFloats: floats.push_back(0); break;
    case Storage::kDoubles: doubles.push_back(0); break;
    case Storage::kDecimals: decimals.push_back(0); break;
    case Storage::kBytes: offsets.push_back(static_cast<uint32_t>(bytes.size())); break;
    case Storage::kStruct:
      for (auto& c : children) c.AppendNull();
      break;
    case Storage::kOffsets: offsets.push_back(offsets.back()); break;
    default: longs.push_back(0); break;
  }
  ++length;
}

void Column::Truncate(size_t rows) {
  if (rows >= length) return;
  if (!nulls.empty()) {
    nulls.resize(rows);
    bool any = false;
    for (uint8_t b : nulls) any = any || b != 0;
    if (!any) nulls.clear();  // flags only while some row is null
  }
  switch (StorageOf(*type)) {
    case Storage::kBools: bools.resize(rows); break;
    case Storage::kInts: ints.resize(rows); break;
    case Storage::kFloats: floats.resize(rows); break;
    case Storage::kDoubles: doubles.resize(rows); break;
    case Storage::kDecimals: decimals.resize(rows); break;
    case Storage::kBytes:
      offsets.resize(rows + 1);
      bytes.resize(offsets.back());
      break;
    case Storage::kStruct:
      for (auto& c : children) c.Truncate(rows);
      break;
    case Storage::kOffsets:
      offsets.resize(rows + 1);
      for (auto& c : children) c.Truncate(offsets.back());
      break;
    default: longs.resize(rows); break;
  }
  length = rows;
}

// Appends a struct, list or map value (v holds NestedItems); on an error every child is cut
// back, so the column is as it was.
Status Column::AppendNested(const Literal& v) {
  const std::vector<Literal>& items = v.AsItems();
  const auto& fields = type->fields();
  const bool is_map = type->id() == TypeId::kMap;
  if (type->id() == TypeId::kStruct) {
    if (items.size() != fields.size())
      return InvalidArgument("a struct value has " + std::to_string(items.size()) + " fields, the type has " +
                             std::to_string(fields.size()));
    for (size_t i = 0; i < fields.size(); ++i) {
      Status st = Ok();
      if (items[i].is_null() && fields[i].required) {
        st = InvalidArgument("required, but the value has null");
      } else {
        st = children[i].Append(items[i]);
      }
      if (!st) {
        for (size_t j = 0; j < i; ++j) children[j].Truncate(length);
        return std::unexpected(st.error().WithContext("field '" + fields[i].name + "'"));
      }
    }
  } else {
    const size_t width = children.size();  // list: elements; map: key, value pairs
    if (items.size() % width != 0) return InvalidArgument("a map value needs a value for every key");
    const size_t child_before = children[0].length;
    for (size_t i = 0; i < items.size(); ++i) {
      const bool is_key = is_map && i % width == 0;
      Status st = Ok();
      if (items[i].is_null() && (is_key || fields[i % width].required)) {
        st = InvalidArgument(is_key ? "a map key cannot be null" : "required, but the value has null");
      } else {
        st = children[i % width].Append(items[i]);
      }
      if (!st) {
        for (auto& c : children) c.Truncate(child_before);
        std::string where = !is_map ? "element " + std::to_string(i)
                                    : (is_key ? "key " : "value of key ") + std::to_string(i / width);
        return std::unexpected(st.error().WithContext(where));
      }
    }
    offsets.push_back(static_cast<uint32_t>(children[0].length));
  }
  if (!nulls.empty()) nulls.push_back(0);
  ++length;
  return Ok();
}

Status Column::Append(const Literal& in) {
  if (in.is_null()) {
    AppendNull();
    return Ok();
  }
  Literal v = in;
  if (in.type() != type && (!in.type() || !in.type()->Equals(*type))) {
    FLOE_ASSIGN_OR_RETURN(v, in.CastTo(type));
  }
  switch (StorageOf(*type)) {
    case Storage::kBools: bools.push_back(v.AsBool()); break;
    case Storage::kInts: ints.push_back(v.AsInt()); break;
    case Storage::kFloats: floats.push_back(v.AsFloat()); break;
    case Storage::kDoubles: doubles.push_back(v.AsDouble()); break;
    case Storage::kDecimals: decimals.push_back(v.AsDecimal()); break;
    case Storage::kBytes:
      bytes += v.AsBytes();
      offsets.push_back(static_cast<uint32_t>(bytes.size()));
      break;
    case Storage::kStruct:
    case Storage::kOffsets:
      if (!std::holds_alternative<NestedItems>(v.value()))
        return InvalidArgument("a " + type->ToString() + " column takes nested values, not " + v.ToString());
      return AppendNested(v);
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
  switch (StorageOf(*src.type)) {
    case Storage::kStruct:
      // Children hold a row for every struct row (null ones included): the same rows are taken.
      for (size_t c = 0; c < src.children.size(); ++c) TakeRows(src.children[c], rows, &dst->children[c]);
      return;
    case Storage::kBools: GatherValues(src.bools, rows, src_nulls, &dst->bools); return;
    case Storage::kInts: GatherValues(src.ints, rows, src_nulls, &dst->ints); return;
    case Storage::kFloats: GatherValues(src.floats, rows, src_nulls, &dst->floats); return;
    case Storage::kDoubles: GatherValues(src.doubles, rows, src_nulls, &dst->doubles); return;
    case Storage::kDecimals: GatherValues(src.decimals, rows, src_nulls, &dst->decimals); return;
    case Storage::kBytes: {
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
    case Storage::kOffsets: {
      // The taken rows' element ranges, in order; a null row has an empty range.
      std::vector<uint32_t> child_rows;
      dst->offsets.reserve(dst->offsets.size() + rows.size());
      uint32_t end = dst->offsets.back();
      for (uint32_t r : rows) {
        if (src_nulls.empty() || !src_nulls[r]) {
          for (uint32_t i = src.offsets[r]; i < src.offsets[r + 1]; ++i) child_rows.push_back(i);
          end += src.offsets[r + 1] - src.offsets[r];
        }
        dst->offsets.push_back(end);
      }
      for (size_t c = 0; c < src.children.size(); ++c) TakeRows(src.children[c], child_rows, &dst->children[c]);
      return;
    }
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
