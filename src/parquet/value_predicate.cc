#include "parquet/value_predicate.h"

namespace floe::parquet {

bool PushdownType(const Type& type) {
  return type.is_primitive() && type.id() != TypeId::kFloat && type.id() != TypeId::kDouble;
}

std::optional<ValuePredicate> PushdownPredicate(const Expr& expr, const Schema& schema) {
  if (!expr) return std::nullopt;
  if (expr->op() == Op::kAnd) {
    if (auto left = PushdownPredicate(expr->left(), schema)) return left;
    return PushdownPredicate(expr->right(), schema);
  }
  if (expr->op() != Op::kEq && expr->op() != Op::kIn) return std::nullopt;
  const TermPtr& term = expr->term();
  if (!term || !term->is_reference() || term->field_id < 0) return std::nullopt;
  for (const NestedField& f : schema.fields()) {
    if (f.id != term->field_id) continue;
    if (!PushdownType(*f.type)) return std::nullopt;
    return ValuePredicate{f, expr->literals()};
  }
  return std::nullopt;  // a nested field, or one the schema lacks
}

Result<Column> PredicateValues(const ValuePredicate& predicate) {
  Column values(predicate.field.type);
  for (const Literal& v : predicate.values) {
    if (v.is_null()) continue;
    auto st = values.Append(v);
    if (!st) return std::unexpected(st.error().WithContext("predicate on column '" + predicate.field.name + "'"));
  }
  return values;
}

}  // namespace floe::parquet
