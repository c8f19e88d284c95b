#include <climits>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "api/api_internal.h"
#include "types/nested_json.h"
#include "types/schema_text.h"

namespace floe {
namespace {

// The cell as a literal of `type`: numbers narrowed where they fit, strings parsed by CastTo.
Result<Literal> CellLiteral(const Cell& cell, const TypePtr& type, const std::string& column) {
  if (std::holds_alternative<std::monostate>(cell)) return Literal::Null(type);
  if (const bool* b = std::get_if<bool>(&cell)) return Literal::Boolean(*b).CastTo(type);
  if (const int64_t* i = std::get_if<int64_t>(&cell)) {
    if (type->id() == TypeId::kInt || type->id() == TypeId::kDate) {
      if (*i < INT32_MIN || *i > INT32_MAX) return InvalidArgument(std::to_string(*i) + " does not fit " + type->ToString());
      return type->id() == TypeId::kInt ? Literal::Int(static_cast<int32_t>(*i)) : Literal::Date(static_cast<int32_t>(*i));
    }
    return Literal::Long(*i).CastTo(type);
  }
  if (const double* d = std::get_if<double>(&cell)) {
    if (type->id() == TypeId::kFloat) return Literal::Float(static_cast<float>(*d));
    // A double into a decimal is rounded to the decimal's scale, as SQL's CAST does.
    if (type->id() == TypeId::kDecimal) return Literal::String(fmt::format("{:.{}f}", *d, type->scale())).CastTo(type);
    return Literal::Double(*d).CastTo(type);
  }
  const std::string& text = std::get<std::string>(cell);
  if (type->is_nested()) {
    // A struct, list or map cell is the value's human JSON text (types/nested_json.h).
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded())
      return InvalidArgument("not JSON text; a " + TypeToText(*type) + " cell is given as its JSON (an object or an array)");
    return LiteralFromCellJson(type, value, column);
  }
  return Literal::String(text).CastTo(type);
}

Cell LiteralCell(const Literal& value) {
  if (value.is_null()) return std::monostate{};
  switch (value.type()->id()) {
    case TypeId::kBoolean: return value.AsBool();
    case TypeId::kInt: return static_cast<int64_t>(value.AsInt());
    case TypeId::kLong: return value.AsLong();
    case TypeId::kFloat: return static_cast<double>(value.AsFloat());
    case TypeId::kDouble: return value.AsDouble();
    case TypeId::kString: return value.AsBytes();
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap: {
      std::string text;
      AppendLiteralJson(value, &text);
      return text;
    }
    default: return value.ToString();
  }
}

}  // namespace

const Cell& Rows::At(size_t row, const std::string& column) const {
  static const Cell kEmpty;
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == column) return row < rows.size() && c < rows[row].size() ? rows[row][c] : kEmpty;
  return kEmpty;
}

std::string CellToString(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "null";
  if (const bool* b = std::get_if<bool>(&cell)) return *b ? "true" : "false";
  if (const int64_t* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const double* d = std::get_if<double>(&cell)) return std::to_string(*d);
  return std::get<std::string>(cell);
}

Result<ColumnBatch> RowsToBatch(const Rows& rows, const Schema& schema) {
  ColumnBatch batch(schema);
  const std::vector<NestedField>& fields = batch.fields;
  std::vector<int> source(fields.size(), -1);  // the index in rows.columns of each field
  for (size_t c = 0; c < rows.columns.size(); ++c) {
    const int index = batch.ColumnIndexByName(rows.columns[c]);
    if (index < 0) return InvalidArgument("the table has no column '" + rows.columns[c] + "'");
    if (source[index] >= 0) return InvalidArgument("column '" + rows.columns[c] + "' is given twice");
    source[index] = static_cast<int>(c);
  }
  std::vector<Literal> row;
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    if (rows.rows[r].size() != rows.columns.size())
      return InvalidArgument("row " + std::to_string(r) + " has " + std::to_string(rows.rows[r].size()) +
                             " cells for " + std::to_string(rows.columns.size()) + " columns");
    row.clear();
    for (size_t f = 0; f < fields.size(); ++f) {
      const TypePtr& type = fields[f].type;
      if (source[f] < 0) {
        row.push_back(Literal::Null(type));
        continue;
      }
      auto cast = CellLiteral(rows.rows[r][source[f]], type, fields[f].name);
      if (!cast) return std::unexpected(cast.error().WithContext("row " + std::to_string(r) + ", column '" + fields[f].name + "'"));
      row.push_back(std::move(*cast));
    }
    if (auto st = batch.AppendRow(row); !st) return std::unexpected(st.error().WithContext("row " + std::to_string(r)));
  }
  return batch;
}

Rows BatchToRows(const ColumnBatch& batch) {
  Rows rows;
  for (const auto& field : batch.fields) rows.columns.push_back(field.name);
  rows.rows.reserve(batch.num_rows);
  for (size_t r = 0; r < batch.num_rows; ++r) {
    std::vector<Cell> cells;
    for (const Literal& value : batch.Row(r)) cells.push_back(LiteralCell(value));
    rows.rows.push_back(std::move(cells));
  }
  return rows;
}

}  // namespace floe
