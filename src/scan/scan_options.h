// What a scan reads: which snapshot, which rows (a filter), which columns.
//
// Split out of table_scan.h so that snapshot selection and the metadata tables can take the
// same options without pulling in the whole scan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "expr/expression.h"

namespace floe {

struct ScanOptions {
  // At most one of the three picks the snapshot; none means the table's current snapshot.
  std::optional<int64_t> snapshot_id;
  std::optional<std::string> ref;       // a branch or tag name
  std::optional<int64_t> as_of_ms;      // the snapshot current at this time (snapshot log)

  // Rows to keep: `filter_text` (WHERE syntax, parsed by the expr room) and `filter` (an
  // unbound or bound expression) are ANDed; empty text and a null expression mean all rows.
  std::string filter_text;
  Expr filter;

  // Top-level or dotted column names to return; empty means every column of the schema.
  std::vector<std::string> columns;
  bool case_sensitive = true;

  // At most this many rows (the first ones in task order). Planning stops once the files it
  // has planned certainly hold them (no deletes, no residual filter), and reading stops as
  // soon as it has them: ReadTasks reads one file at a time, only as far as it must.
  std::optional<int64_t> limit;

  // Keep column metrics (sizes, counts, bounds) in the planned tasks' DataFiles. Reading does
  // not need them; dropping them makes a plan of many files much smaller.
  bool include_column_stats = true;
  // Threads that read manifests while planning; 0 picks ScanParallelism's default
  // (table_scan.h: 8 on an object store, one per core locally).
  int planning_threads = 0;
  // Data files ReadTable reads at once (ReadTasks); 0 picks the same default. Output order
  // does not depend on it.
  int read_parallelism = 0;
};

}  // namespace floe
