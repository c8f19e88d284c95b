// Projecting a row filter through a partition spec into a filter on partition tuples, and
// evaluating such filters on a file's partition tuple.
//
// Inclusive projection: if a row matches the filter, its partition tuple matches the projection
// (so a partition that fails it holds no matching row). Strict projection: if a partition tuple
// matches the projection, every row with that tuple matches the filter. The projected
// expression references partition fields: field ids and names of the spec's fields, with the
// transforms' result types. What a transform cannot carry (arithmetic, general LIKE, a range
// through bucket, anything through void) projects to true (inclusive) or false (strict).
#pragma once

#include <vector>

#include "expr/expression.h"
#include "types/partition_spec.h"

namespace floe {

Result<Expr> ProjectInclusive(const Expr& bound, const PartitionSpec& spec);
Result<Expr> ProjectStrict(const Expr& bound, const PartitionSpec& spec);

// The projection of one predicate (of a bound reference) through one partition field;
// nullptr when the transform says nothing about it.
Expr ProjectPredicate(const Expression& predicate, const PartitionField& field, bool strict);

// Whether a projected expression is TRUE for a partition tuple (values indexed like
// spec.fields()).
bool EvaluatePartition(const Expr& projected, const PartitionSpec& spec, const std::vector<Literal>& partition);

// The part of a row filter still to check on the rows of a file with this partition tuple:
// predicates that the tuple decides become true or false and drop out. Evaluating the residual
// on the file's rows gives the same matches as the full filter.
// `country = 'DE' AND x > 1` with identity(country) on partition ('DE') -> `x > 1`.
Result<Expr> Residual(const Expr& bound, const PartitionSpec& spec, const std::vector<Literal>& partition);

}  // namespace floe
