// SQL decimal arithmetic: the result type of `a <op> b` when one side is a decimal and the
// other a decimal or a whole number, and its exact value (no floating point on the way).
//
// Result types follow the usual SQL rules (those of SQL Server, Hive and Spark), for operands
// decimal(p1, s1) and decimal(p2, s2) (an int is decimal(10, 0), a long decimal(20, 0), a
// whole-number literal has just its digits):
//   +, -   scale max(s1, s2)          precision max(p1 - s1, p2 - s2) + scale + 1
//   *      scale s1 + s2              precision p1 + p2 + 1
//   /      scale max(6, s1 + p2 + 1)  precision p1 - s1 + s2 + scale
//   %      scale max(s1, s2)          precision min(p1 - s1, p2 - s2) + scale
// A precision above 38 is cut to 38 by giving up scale (keeping at least min(scale, 6) digits),
// as Spark does. Values are rounded half away from zero when the scale shrinks.
#pragma once

#include "expr/expression.h"
#include "types/decimal_digits.h"
#include "types/literal.h"

namespace floe {

// The decimal form of a whole-number or decimal type (int: decimal(10, 0), long:
// decimal(20, 0)); InvalidArgument for any other type.
Result<TypePtr> AsDecimalType(const TypePtr& type);

// The result type of `left <op> right`, both decimal or whole-number types (AsDecimalType).
Result<TypePtr> DecimalResultType(ArithOp op, const TypePtr& left, const TypePtr& right);

// The value of `a <op> b` (each a decimal, int or long) as a decimal of `result` (from
// DecimalResultType). Null when either is null or on division or modulo by zero;
// InvalidArgument when the value does not fit `result`'s precision.
Result<Literal> DecimalArithmetic(ArithOp op, const Literal& a, const Literal& b, const TypePtr& result);

// `v` (a decimal, int or long) as a decimal of `target`: rounded half away from zero to its
// scale; InvalidArgument naming the value when it needs more digits than the precision.
Result<Literal> FitDecimal(const Literal& v, const TypePtr& target);

}  // namespace floe
