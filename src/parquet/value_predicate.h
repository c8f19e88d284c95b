// An IN-list predicate on one column (`country = 'DE'`, `id IN (1, 2)`) that a Parquet scan
// evaluates on the file's encoded values: on dictionary ids when a page holds them, so a
// string column's strings are never built.
#pragma once

#include <optional>
#include <vector>

#include "expr/expression.h"
#include "types/column_batch.h"
#include "types/literal.h"
#include "types/schema.h"

namespace floe::parquet {

// Rows whose column `field` equals one of `values` (SQL semantics: a null never matches).
struct ValuePredicate {
  NestedField field;            // a top-level primitive field, matched in files like a projection
  std::vector<Literal> values;  // of the field's type (others are cast); nulls are ignored
};

// A conjunct of the bound filter `expr` that is such a predicate: `col = literal` or
// `col IN (...)`, alone or under ANDs, on a top-level field of `schema` whose type is not
// floating-point (whose equality is not bitwise). Every row the filter matches also matches
// the returned predicate, so a scan may drop the rows the predicate rejects before it
// evaluates the filter. nullopt when the filter has no such conjunct.
std::optional<ValuePredicate> PushdownPredicate(const Expr& expr, const Schema& schema);

// Whether a predicate can be evaluated on this type (primitives but float and double).
bool PushdownType(const Type& type);

// The predicate's values as a Column of its field's type, nulls dropped. InvalidArgument
// when a value cannot be cast to the type.
Result<Column> PredicateValues(const ValuePredicate& predicate);

}  // namespace floe::parquet
