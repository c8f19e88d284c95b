// Merge-on-read delete and update: instead of rewriting the files that hold matching rows, add
// position delete files that mark those rows deleted (and, for an update, a data file with the
// updated rows), committed as one row delta.
//
// Validation follows DESIGN.md's conflict table for row deltas: the data files our position
// deletes point at must still be live at commit (any isolation); under serializable isolation,
// data or delete files added meanwhile that may match the filter refuse the commit. An update
// also refuses matching delete files at snapshot isolation: two updates of one row would
// otherwise both leave a new version of it.
#pragma once

#include <functional>

#include "txn/key_validation.h"
#include "txn/operations.h"
#include "txn/row_writes.h"

namespace floe {

// The mode a table asks for a command (write.delete.mode, write.update.mode, write.merge.mode;
// copy-on-write by default). InvalidArgument names a property with an unknown value.
Result<WriteMode> WriteModeFor(const TableMetadata& table, RowLevelCommand command);
// options.mode when set, else the table's property (loads the table).
Result<WriteMode> ChosenWriteMode(Catalog& catalog, const TableIdentifier& id, RowLevelCommand command,
                                  const RowWriteOptions& options);

// Position delete files may be added to v2 tables only (v3 deletes by position through
// deletion vectors): InvalidArgument for a v3 table, naming it.
Status CheckPositionDeletesAllowed(const TableMetadata& table, const TableIdentifier& id);

Result<RowWriteResult> MergeOnReadDelete(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                         const RowWriteOptions& options = {});
Result<RowWriteResult> MergeOnReadUpdate(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                         const std::vector<Assignment>& assignments,
                                         const RowWriteOptions& options = {});

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
