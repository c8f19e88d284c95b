// The WHERE-text people type, parsed into an unbound expression.
//
//   country = 'DE' AND order_id % 2 = 0
//   ts >= '2026-01-01' AND name LIKE 'abc%' AND id IN (1, 2, 3)
//   amount IS NULL OR NOT (a > 1 OR b < 2) OR x BETWEEN 1 AND 5
//
// Keywords are case-insensitive. Identifiers are bare (a_b), double-quoted ("odd name", ""
// escapes a quote) or back-quoted, and dotted for nested fields (location.lat). Strings use
// single quotes ('' escapes one). Numbers: 12 is a long, 1.50 a decimal, 1e3 a double; the
// binder converts every literal to its column's type, so '2026-01-01' compares with a date or
// timestamp column. X'0AFF' is a binary value. A bare boolean column is a condition.
// LIKE 'abc%' becomes starts-with, LIKE 'abc' equality, other patterns a general LIKE.
//
// Errors are InvalidArgument with the 1-based position of the offending text:
// "expected a value after '=' at position 12".
#pragma once

#include <string_view>

#include "expr/expression.h"

namespace floe {

Result<Expr> ParseFilter(std::string_view text);

}  // namespace floe
