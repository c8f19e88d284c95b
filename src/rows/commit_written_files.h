// How a row-level write commits the files it wrote: every write that creates files (appends of
// rows, copy-on-write and merge-on-read deletes and updates, upserts, overwrites) commits them
// here, as one FilesOperation through the commit engine, with the write's intent and the
// judge of its rows (key_validation.h) handed to the commit, and is redone on a new table state
// when the only refusal came from commits that left its rows alone.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "catalog/catalog.h"
#include "commit/commit_report.h"
#include "commit/files_operation.h"
#include "expr/expression.h"
#include "table_files/file_namer.h"
#include "rows/key_validation.h"
#include "rows/row_write_options.h"

namespace floe {

// Commits `change` whose new files are already written, each named by `names` (the write's
// NewWriteNamer, catalog/intent_store.h): the commit's manifests and manifest lists join that
// intent, which the engine clears once the commit landed or certainly failed (CommitOptions::
// names). `abort` deletes the written files. The commit engine calls it when the commit
// certainly failed or was an idempotent replay, never when it landed or may have
// (CommitOptions::discard_written_files).
// `rebase_possible`, when given, is set when a refusal came only from commits that did not
// touch the write's rows (FilesOperation::rebase_possible).
Result<CommitReport> CommitWrittenFiles(Catalog& catalog, const TableIdentifier& id, FilesChange change,
                                        const RowWriteOptions& options, FileNamer& names,
                                        const std::function<void()>& abort, bool* rebase_possible = nullptr);

// Runs `write` (read, write files, commit, all from the table's state at the call) and, while
// its commit is refused with *rebase_possible set, runs it again on the new state: a rebase.
// Each follows a commit that landed, so rebases go on until the retry policy's time budget is
// spent (commit.retry.total-timeout-ms, or options.commit.retry), whatever num-retries says.
// The result counts the rebases. A redo gets the options without after_files_written (the
// hook runs once, on the first run).
using RowWrite = std::function<Result<RowWriteResult>(const RowWriteOptions& options, bool* rebase_possible)>;
Result<RowWriteResult> WithRebase(Catalog& catalog, const TableIdentifier& id, const RowWriteOptions& options,
                                  const RowWrite& write);

// The rows a row-level write changes, for key-aware validation: `bound` (bound to the table's
// schema) and, for a keyed write, its keys. The read cap comes from `options`.
std::shared_ptr<RowScope> RowScopeFor(const Expr& bound, const RowWriteOptions& options,
                                      std::vector<int> key_ids = {}, std::shared_ptr<const KeySet> keys = nullptr);

}  // namespace floe
