#include "rows/row_changes.h"

#include "expr/binder.h"
#include "expr/decimal_arithmetic.h"
#include "expr/value_ops.h"

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

Result<ColumnBatch> ApplyAssignments(const Schema& schema, const ColumnBatch& rows, const std::vector<uint8_t>& selected,
                                     const std::vector<BoundAssignment>& sets, bool only_selected) {
  ColumnBatch out(schema);
  for (size_t r = 0; r < rows.num_rows; ++r) {
    if (only_selected && !selected[r]) continue;
    std::vector<Literal> row = rows.Row(r);
    if (selected[r]) {
      const std::vector<Literal> original = row;
      auto lookup = [&](int field_id) -> const Literal* {
        for (size_t i = 0; i < schema.fields().size(); ++i)
          if (schema.fields()[i].id == field_id) return &original[i];
        return nullptr;
      };
      for (const auto& set : sets) {
        const NestedField& field = schema.fields()[set.column];
        auto v = EvaluateTermChecked(set.value, lookup);
        if (!v) return InvalidArgument("SET " + field.name + ": " + v.error().message);
        // A decimal column takes a decimal or whole number rounded to its scale, and refuses
        // one that needs more digits than its precision (CastTo would not check).
        TypeId from = v->type() ? v->type()->id() : TypeId::kString;
        bool to_decimal = field.type->id() == TypeId::kDecimal && !v->is_null() &&
                          (from == TypeId::kDecimal || from == TypeId::kInt || from == TypeId::kLong);
        auto cast = to_decimal ? FitDecimal(*v, field.type) : v->CastTo(field.type);
        if (!cast) return InvalidArgument("SET " + field.name + ": " + cast.error().message);
        if (cast->is_null() && field.required)
          return InvalidArgument("SET " + field.name + ": column '" + field.name + "' is required (not null); the value is NULL");
        row[set.column] = std::move(*cast);
      }
    }
    auto st = out.AppendRow(row);
    if (!st) return std::unexpected(st.error().WithContext("updated row"));
  }
  return out;
}

}  // namespace floe
