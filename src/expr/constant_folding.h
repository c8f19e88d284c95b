// Constants in the WHERE text: number literals, and arithmetic and comparisons between
// constants, folded while parsing (`x > 2 * 3` compares x with 6).
#pragma once

#include <string_view>

#include "expr/expression.h"

namespace floe {

// 12 is a long (a decimal(38,0) beyond the long range), 1.50 an exact decimal(3,2), 1e3 a
// double. Errors carry no position; the parser adds it.
Result<Literal> ParseNumberLiteral(std::string_view text);

bool IsNumberLiteral(const Literal& value);

// Longs stay exact (wrapping on overflow); anything else is computed in double.
Result<Literal> FoldArithmetic(ArithOp op, const Literal& x, const Literal& y);
Result<Literal> NegateConstant(const Literal& value);
// The truth of `x op y` for two constants: numbers by value, other values of one type by order.
Result<bool> CompareConstants(Op op, const Literal& x, const Literal& y);

}  // namespace floe
