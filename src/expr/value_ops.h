// Value-level building blocks the evaluators share: comparisons with the expression model's
// semantics, LIKE matching, arithmetic, and the slow one-value-at-a-time evaluator.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "expr/expression.h"
#include "types/literal.h"

namespace floe {

// Three-valued truth.
enum class Truth : uint8_t { kFalse, kTrue, kUnknown };

// Orders two non-null values of the same (or an integer-widened) type. Floating point follows
// the expression model: NaN equals NaN and sorts above every number, and -0.0 == 0.0 (unlike
// Literal::Compare, which puts -0.0 first).
int CompareValues(const Literal& a, const Literal& b);
bool IsNaN(const Literal& v);  // false for nulls and non-floating types

// SQL LIKE: % matches any sequence, _ one character (UTF-8 code point), backslash escapes.
bool LikeMatch(std::string_view text, std::string_view pattern);
// When the pattern has no wildcard: the exact text it matches.
std::optional<std::string> LikeExactText(std::string_view pattern);
// When the pattern is a literal prefix followed only by %s ('abc%'): the prefix.
std::optional<std::string> LikePrefix(std::string_view pattern);

// Number of UTF-8 code points (truncate[W] on strings counts these).
size_t Utf8Length(std::string_view s);

// Integer arithmetic wraps on overflow; division or modulo by zero gives no value (null).
std::optional<int64_t> ArithLong(ArithOp op, int64_t a, int64_t b);
std::optional<double> ArithDouble(ArithOp op, double a, double b);

// Converts a literal to a column's type for comparison; nullopt when the two cannot be
// compared. A whole number outside an int column's range stays a long (comparisons widen).
std::optional<Literal> ConvertForComparison(const Literal& value, const TypePtr& target);

// The value of a bound term for one row; `lookup(field_id)` gives the row's value (nullptr or
// a null literal when missing). Arithmetic yields null when an operand is null, and so does a
// decimal overflow (EvaluateTermChecked says so instead).
Literal EvaluateTerm(const TermPtr& term, const std::function<const Literal*(int)>& lookup);
// The same, with decimal arithmetic (decimal_arithmetic.h) refusing a value that overflows its
// result type: for values that are stored (an UPDATE's SET), where a silent null would be wrong.
Result<Literal> EvaluateTermChecked(const TermPtr& term, const std::function<const Literal*(int)>& lookup);

// A predicate's three-valued truth for one (possibly null) term value.
Truth EvaluatePredicate(Op op, const Literal& value, const std::vector<Literal>& literals);

// Full three-valued evaluation of a bound expression on one row (NOT handled directly, so this
// also checks RewriteNot). Slow: one Literal per value; used for partition tuples and tests.
Truth EvaluateRow(const Expr& expr, const std::function<const Literal*(int)>& lookup);

}  // namespace floe
