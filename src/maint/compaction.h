// Compaction (rewrite-data-files): rewrite a table's small data files (or all of them) into
// fewer files of the target size, with their deletes applied, and commit the swap as rewrite
// ("replace") snapshots.
//
// The work is planned in file groups, one per partition (the files of a group are rewritten
// together). Without partial progress every group lands in one commit, or none does. With
// partial progress (Iceberg's partial-progress.enabled) the groups are spread over at most
// max_commits commits (partial-progress.max-commits), each validated and committed on its own:
// a conflict with a concurrent delete costs the groups of that commit, not the job, and the
// refusal names the groups and their files.
//
// A commit also removes the delete files that no live data file needs anymore (every data file
// they may apply to is among its rewritten inputs). It is refused (ValidationFailed) if, since
// the files were read, another commit removed one of its inputs or added a delete that may
// apply to one: committing would resurrect deleted rows or drop the new delete's effect.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "expr/expression.h"
#include "commit/commit_operation.h"

namespace floe {

struct CompactionOptions {
  // Only files that may hold rows matching this filter (null: every file).
  Expr filter;
  // Files smaller than this are rewritten; 0 means 3/4 of the target file size.
  int64_t small_file_bytes = 0;
  // The size new files roll at; 0: write.target-file-size-bytes.
  int64_t target_file_size_bytes = 0;
  // Rewrite every file regardless of size.
  bool rewrite_all = false;
  // A partition is rewritten when it has at least this many candidate files, or when one of
  // them has deletes to apply.
  int min_input_files = 2;
  bool partial_progress = false;
  int max_commits = 10;  // with partial progress
  CommitOptions commit;
  // Called once a commit's new files are written, before it commits (tests let another writer in).
  std::function<void()> after_files_written;
  // Called after each commit with the groups done so far of all groups.
  std::function<void(int64_t done, int64_t total)> on_progress;
};

struct FileGroupResult {
  std::string partition;             // "country=DE", "" when unpartitioned
  std::vector<std::string> inputs;   // the data files the group rewrites
  bool committed = false;
  std::string error;                 // why not, when it did not
};

struct CompactionResult {
  bool committed = false;  // false when nothing needed rewriting (or, partially, nothing landed)
  int64_t data_files_rewritten = 0;
  int64_t data_files_added = 0;
  int64_t delete_files_removed = 0;
  int64_t rows_rewritten = 0;
  int commits = 0;
  std::vector<FileGroupResult> groups;
  CommitReport commit;  // the last commit's
};

// Without partial progress a failed commit is the error. With it the result lists every group,
// and the error is returned only when no group could commit and one failed for a reason other
// than a conflict or a refusal (an I/O error, say).
Result<CompactionResult> CompactTable(Catalog& catalog, const TableIdentifier& id, const CompactionOptions& options = {});

}  // namespace floe
