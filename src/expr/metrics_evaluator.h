// Judging a whole data file from its column metrics, without reading it.
//
// Inclusive: "can some row of this file match?" (false lets a scan skip the file; it must never
// be false when a row matches). Strict: "does every row match?" (true lets a delete drop the
// whole file; it must never be true when a row does not match). Predicates that metrics cannot
// judge (arithmetic terms, general LIKE) make the inclusive answer true and the strict one false.
#pragma once

#include <cstdint>
#include <map>

#include "util/flat_map.h"
#include <string>

#include "expr/expression.h"

namespace floe {

// A data file's metrics as its manifest entry holds them, keyed by field id. Any map may lack
// any field (unknown). Value counts include nulls and NaNs. Bounds are Iceberg's single-value
// binary form and cover non-null, non-NaN values; string and binary bounds may be truncated
// (the lower bound a prefix of the true minimum, the upper bound rounded up), which keeps them
// valid bounds.
struct FileMetrics {
  int64_t record_count = -1;  // -1 when unknown
  FlatMap<int, int64_t> value_counts;
  FlatMap<int, int64_t> null_value_counts;
  FlatMap<int, int64_t> nan_value_counts;
  FlatMap<int, std::string> lower_bounds;
  FlatMap<int, std::string> upper_bounds;

  // Convenience for tests and writers: stores the literals' binary forms (nulls are skipped).
  void SetBounds(int field_id, const Literal& lower, const Literal& upper);
};

// The same evaluators prune manifests: project the filter (ProjectInclusive, projection.h), then
// describe a manifest's partition field summaries as FileMetrics keyed by partition field id
// (bounds from the summary; null_value_counts[id] = 0 when contains_null is false;
// nan_value_counts[id] = 0 when contains_nan is false; counts otherwise unknown) and ask
// InclusiveMetrics.
bool InclusiveMetrics(const Expr& bound, const FileMetrics& metrics);  // might a row match?
bool StrictMetrics(const Expr& bound, const FileMetrics& metrics);     // must every row match?

}  // namespace floe
