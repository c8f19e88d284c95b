#include "rows/commit_written_files.h"

#include <chrono>

#include "commit/commit_operation.h"
#include "commit/retry_policy.h"

namespace floe {

Result<CommitReport> CommitWrittenFiles(Catalog& catalog, const TableIdentifier& id, FilesChange change,
                                        const RowWriteOptions& options, FileNamer& names,
                                        const std::function<void()>& abort, bool* rebase_possible) {
  FilesOperation operation(std::move(change));
  CommitOptions commit = options.commit;
  commit.names = &names;
  commit.discard_written_files = abort;  // the engine alone knows when the commit certainly failed
  auto report = CommitOperation(catalog, id, operation, commit);
  if (!report && rebase_possible) {
    *rebase_possible = report.error().kind == ErrorKind::kValidationFailed && operation.rebase_possible();
  }
  return report;
}

Result<RowWriteResult> WithRebase(Catalog& catalog, const TableIdentifier& id, const RowWriteOptions& options,
                                  const RowWrite& write) {
  // A redo follows a commit that landed (it removed or rewrote this write's input files
  // without touching its rows): the table made progress, as when an append loses its race. So
  // the redos are bounded by the time budget (commit.retry.total-timeout-ms), not by the retry
  // count, which bounds the attempts of one state against the swap (DESIGN.md, What conflicts).
  const auto started = std::chrono::steady_clock::now();
  std::optional<RetryPolicy> policy;
  RowWriteOptions redo = options;
  redo.after_files_written = nullptr;
  for (int rebases = 0;; ++rebases) {
    bool rebase_possible = false;
    auto result = write(rebases == 0 ? options : redo, &rebase_possible);
    if (result) {
      result->rebases = rebases;
      return result;
    }
    if (!rebase_possible) return result;
    if (!policy) {
      FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
      FLOE_ASSIGN_OR_RETURN(policy, RetryPolicy::Resolve(options.commit.retry, table.metadata.properties));
    }
    const auto elapsed_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    if (elapsed_ms >= policy->total_timeout_ms) {
      return std::unexpected(result.error().WithContext(
          "redone on new table states " + std::to_string(rebases) + " times in " + std::to_string(elapsed_ms) +
          " ms (commit.retry.total-timeout-ms is " + std::to_string(policy->total_timeout_ms) + "), still refused"));
    }
  }
}

std::shared_ptr<RowScope> RowScopeFor(const Expr& bound, const RowWriteOptions& options, std::vector<int> key_ids,
                                      std::shared_ptr<const KeySet> keys) {
  auto scope = std::make_shared<RowScope>();
  scope->filter = bound;
  scope->key_ids = std::move(key_ids);
  scope->keys = std::move(keys);
  if (options.key_check_max_bytes) scope->max_bytes_read = *options.key_check_max_bytes;
  if (options.key_check_max_files) scope->max_files_read = *options.key_check_max_files;
  return scope;
}

}  // namespace floe
