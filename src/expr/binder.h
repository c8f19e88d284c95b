// Binding: resolves an expression's column names to field ids of a schema and converts its
// literals to the columns' types, so that evaluators compare like with like.
#pragma once

#include "expr/expression.h"
#include "types/schema.h"

namespace floe {

// Errors (InvalidArgument) name the column and the value: "column 'x' not found",
// "cannot compare string column 'country' with 12", "is_nan needs a float or double column,
// 'id' is long". Binding an already bound expression re-resolves it by name.
Result<Expr> Bind(const Expr& expr, const Schema& schema, bool case_sensitive = true);

}  // namespace floe
