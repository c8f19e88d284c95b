#include "rows/row_changes.h"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "expr/binder.h"
#include "expr/decimal_arithmetic.h"
#include "expr/value_ops.h"
#include "types/nested_json.h"
#include "types/schema_text.h"

namespace floe {

Result<std::vector<BoundAssignment>> BindAssignments(const Schema& schema, const std::vector<Assignment>& assignments) {
  std::vector<BoundAssignment> sets;
  for (const auto& a : assignments) {
    const NestedField* field = schema.FindField(a.column);
    if (!field) return InvalidArgument("SET names column '" + a.column + "', which is not in the table");
    int index = -1;
    for (size_t i = 0; i < schema.fields().size(); ++i)
      if (schema.fields()[i].id == field->id) index = static_cast<int>(i);
    if (index < 0) return InvalidArgument("SET can only change top-level columns, not '" + a.column + "'");
    if (a.value && a.value->kind == Term::Kind::kLiteral) {
      if (a.value->literal.is_null() && field->required)
        return InvalidArgument("SET " + a.column + " = NULL: column '" + a.column + "' is required (not null)");
      sets.push_back(BoundAssignment{index, a.value});  // a constant needs no binding
      continue;
    }
    // A term is bound by binding a predicate that holds it.
    FLOE_ASSIGN_OR_RETURN(Expr bound, Bind(Predicate(Op::kIsNull, a.value), schema));
    sets.push_back(BoundAssignment{index, bound->term()});
  }
  return sets;
}

namespace {

// The SET value as the column's type. A decimal column takes a decimal or whole number rounded
// to its scale, and refuses one that needs more digits than its precision (CastTo would not
// check); a struct, list or map column takes a value of its type or its JSON text (a string).
Result<Literal> ToColumnType(Literal v, const NestedField& field) {
  if (v.is_null()) return Literal::Null(field.type);
  if (v.type() && v.type()->Equals(*field.type)) return v;
  const TypeId from = v.type() ? v.type()->id() : TypeId::kString;
  if (field.type->is_nested()) {
    if (from != TypeId::kString)
      return InvalidArgument("column '" + field.name + "' is a " + TypeToText(*field.type) +
                             "; give its value as JSON text, e.g. '" +
                             std::string(field.type->id() == TypeId::kList ? "[...]" : "{...}") + "'");
    nlohmann::json json = nlohmann::json::parse(v.AsBytes(), nullptr, false);
    if (json.is_discarded())
      return InvalidArgument("'" + v.AsBytes() + "' is not JSON text; column '" + field.name + "' is a " +
                             TypeToText(*field.type) + " and takes its value as JSON");
    return LiteralFromCellJson(field.type, json, field.name);
  }
  bool to_decimal = field.type->id() == TypeId::kDecimal &&
                    (from == TypeId::kDecimal || from == TypeId::kInt || from == TypeId::kLong);
  return to_decimal ? FitDecimal(v, field.type) : v.CastTo(field.type);
}

}  // namespace

// Column by column: the rows kept are taken as they are (nested values included, never through
// a Literal), then each SET column is rebuilt from its old values and the selected rows' new ones.
Result<ColumnBatch> ApplyAssignments(const Schema& schema, const ColumnBatch& rows, const std::vector<uint8_t>& selected,
                                     const std::vector<BoundAssignment>& sets, bool only_selected) {
  std::vector<uint32_t> kept;
  kept.reserve(rows.num_rows);
  for (size_t r = 0; r < rows.num_rows; ++r)
    if (!only_selected || selected[r]) kept.push_back(static_cast<uint32_t>(r));
  ColumnBatch out = rows.Take(kept);
  if (sets.empty()) return out;

  // The new values of the selected rows, in row order: one single-column batch per assignment.
  std::vector<ColumnBatch> values;
  for (const auto& set : sets) values.emplace_back(std::vector<NestedField>{schema.fields()[set.column]});
  std::vector<std::optional<Literal>> original(rows.columns.size());  // the row's values, read when a term needs them
  for (size_t r = 0; r < rows.num_rows; ++r) {
    if (!selected[r]) continue;
    std::fill(original.begin(), original.end(), std::nullopt);
    auto lookup = [&](int field_id) -> const Literal* {
      const int index = rows.ColumnIndexById(field_id);
      if (index < 0) return nullptr;
      if (!original[index]) original[index] = rows.columns[index].Get(r);
      return &*original[index];
    };
    for (size_t i = 0; i < sets.size(); ++i) {
      const NestedField& field = schema.fields()[sets[i].column];
      auto v = EvaluateTermChecked(sets[i].value, lookup);
      if (!v) return InvalidArgument("SET " + field.name + ": " + v.error().message);
      auto cast = ToColumnType(std::move(*v), field);
      if (!cast) return InvalidArgument("SET " + field.name + ": " + cast.error().message);
      if (cast->is_null() && field.required)
        return InvalidArgument("SET " + field.name + ": column '" + field.name + "' is required (not null); the value is NULL");
      auto st = values[i].AppendRow({std::move(*cast)});
      if (!st) return std::unexpected(st.error().WithContext("SET " + field.name));
    }
  }
  for (size_t i = 0; i < sets.size(); ++i) {
    const int column = sets[i].column;
    // The old column followed by the new values; then one Take picks, row by row, the old value
    // or the new one.
    ColumnBatch merged(std::vector<NestedField>{rows.fields[column]});
    merged.columns[0] = rows.columns[column];
    merged.num_rows = rows.num_rows;
    merged.Append(values[i]);
    std::vector<uint32_t> pick;
    pick.reserve(kept.size());
    uint32_t next_new = static_cast<uint32_t>(rows.num_rows);
    for (uint32_t r : kept) pick.push_back(selected[r] ? next_new++ : r);
    out.columns[column] = std::move(merged.Take(pick).columns[0]);
  }
  return out;
}

}  // namespace floe
