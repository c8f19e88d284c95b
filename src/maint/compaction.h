// Compaction: rewrite a table's small data files (or all of them), per partition, into fewer
// files with their deletes applied, and commit the swap as one rewrite ("replace") snapshot.
//
// The rewrite also removes the delete files that no live data file needs anymore (every data
// file they may apply to is among the rewritten inputs). It is refused (ValidationFailed) if,
// since the files were read, another commit removed one of the inputs or added a delete that
// may apply to one: committing would resurrect deleted rows or drop the new delete's effect.
#pragma once

#include <cstdint>
#include <functional>

#include "catalog/catalog.h"
#include "expr/expression.h"
#include "txn/commit_loop.h"

namespace floe {

struct CompactionOptions {
  // Only files that may hold rows matching this filter (null: every file).
  Expr filter;
  // Files smaller than this are rewritten; 0 means 3/4 of write.target-file-size-bytes.
  int64_t small_file_bytes = 0;
  // Rewrite every file regardless of size.
  bool rewrite_all = false;
  // A partition is rewritten when it has at least this many candidate files, or when one of
  // them has deletes to apply.
  int min_input_files = 2;
  CommitOptions commit;
  // Called once the new files are written, before the commit (tests let another writer in).
  std::function<void()> after_files_written;
};

struct CompactionResult {
  bool committed = false;  // false when nothing needed rewriting
  int64_t data_files_rewritten = 0;
  int64_t data_files_added = 0;
  int64_t delete_files_removed = 0;
  int64_t rows_rewritten = 0;
  CommitReport commit;
};

Result<CompactionResult> CompactTable(Catalog& catalog, const TableIdentifier& id, const CompactionOptions& options = {});

}  // namespace floe
