// The Iceberg metrics a manifest entry carries for a data file, and the metrics modes of
// write.metadata.metrics.* (none, counts, truncate(N), full) that decide which are kept.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "types/literal.h"
#include "types/schema.h"
#include "util/flat_map.h"

namespace floe::parquet {

struct DataFileMetrics {
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  // Keyed by field id of primitive (leaf) columns.
  FlatMap<int, int64_t> column_sizes;       // compressed bytes of the column's chunks
  FlatMap<int, int64_t> value_counts;       // values including nulls
  FlatMap<int, int64_t> null_value_counts;
  FlatMap<int, int64_t> nan_value_counts;   // float and double columns only
  FlatMap<int, Literal> lower_bounds;       // Literal::ToBinary gives the manifest's form
  FlatMap<int, Literal> upper_bounds;
  std::vector<int64_t> split_offsets;        // where each row group starts
};

struct MetricsMode {
  enum Kind { kNone, kCounts, kTruncate, kFull };
  Kind kind = kTruncate;
  int length = 16;  // for kTruncate
};

// Parses "none", "counts", "full" or "truncate(N)".
Result<MetricsMode> ParseMetricsMode(std::string_view text);

// The mode of each leaf field: write.metadata.metrics.column.<full name> overrides
// write.metadata.metrics.default (truncate(16) when absent).
Result<std::map<int, MetricsMode>> ResolveMetricsModes(const Schema& schema,
                                                       const std::map<std::string, std::string>& properties);

// Truncation of bounds for truncate(N): the lower bound is the first N code points (strings)
// or bytes (binary); the upper bound is the same prefix with its last code point / byte
// incremented so it still bounds every value, or nullopt when no such prefix exists.
std::string TruncateLowerString(const std::string& s, int n);
std::optional<std::string> TruncateUpperString(const std::string& s, int n);
std::string TruncateLowerBinary(const std::string& s, int n);
std::optional<std::string> TruncateUpperBinary(const std::string& s, int n);

}  // namespace floe::parquet
