// What every row-level write shares: how it changes rows (write mode), its options, what it
// reports, where its rows come from, and the assignments of an update.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "commit/commit_options.h"
#include "commit/commit_report.h"
#include "expr/expression.h"
#include "types/column_batch.h"

namespace floe {

// How delete, update and upsert change rows: rewrite the files that hold them (copy-on-write),
// or add delete files that readers apply (merge-on-read).
enum class WriteMode { kCopyOnWrite, kMergeOnRead };

struct RowWriteOptions {
  CommitOptions commit;
  // Overrides the table's write.delete.mode / write.update.mode / write.merge.mode
  // (copy-on-write when unset).
  std::optional<WriteMode> mode;
  // Appends are Iceberg's default append: once a table has commit.manifest.min-count-to-merge
  // (100) data manifests of a spec, they are merged up to commit.manifest.target-size-bytes,
  // unless commit.manifest.merge.enabled is false. Without merging, every append adds a
  // manifest that each later commit rewrites into its manifest list and each scan opens.
  // False: a fast append (new manifests only).
  bool merge_append = true;
  // Called once the new data files are written and before the commit starts (tests and the demo
  // use it to let another writer land "half way through" this one's work).
  std::function<void()> after_files_written;
  // The cost cap of key-aware validation (key_validation.h: RowScope's defaults when unset);
  // past it a concurrent file that may hold rows of this write refuses it, as by file metrics.
  std::optional<int64_t> key_check_max_bytes;
  std::optional<int> key_check_max_files;
  // Called with the running count of rows written, for progress displays.
  std::function<void(int64_t rows, int64_t bytes)> progress;
};

struct RowWriteResult {
  CommitReport commit;
  bool committed = false;          // false when there was nothing to change
  int64_t rows_added = 0;          // appended, or rewritten by copy-on-write
  int64_t rows_deleted = 0;
  int64_t rows_updated = 0;
  int64_t files_added = 0;
  int64_t files_removed = 0;
  // Times the write was redone on a newer table state because commits that did not touch its
  // rows replaced its input files (key_validation.h).
  int rebases = 0;
  // Times a merge-on-read write on a v3 table lost its race to commits that added deletion
  // vectors for its data files and merged their positions into its own (row_delta_commit.h).
  int vector_merges = 0;
};

// Produces the next batch of rows; false when there are no more.
using RowSource = std::function<Result<bool>(ColumnBatch* batch)>;

struct Assignment {
  std::string column;
  TermPtr value;  // unbound: a literal, a column, or arithmetic over them
};

}  // namespace floe
