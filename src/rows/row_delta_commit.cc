#include "rows/row_delta_commit.h"

#include <chrono>

#include "commit/commit_operation.h"
#include "commit/retry_policy.h"

namespace floe {

Result<CommitReport> CommitRowDelta(Catalog& catalog, const TableIdentifier& id, FilesChange change,
                                    RowPositionDeletes& deletes, const RowWriteOptions& options, FileNamer& names,
                                    const std::function<void()>& abort, bool* rebase_possible, int* merges) {
  // Each merge follows a commit that landed (it added the vector merged), so merges are bounded
  // by the retry policy's time budget, as rebases are (commit_written_files.h WithRebase).
  const auto started = std::chrono::steady_clock::now();
  std::optional<RetryPolicy> policy;
  // Attempts number on across the merged retries, and the report counts them all: every swap
  // tried by a commit that was then refused lost to another commit (a conflict).
  int attempts_before = 0, last_attempt = 0;
  for (;;) {
    FilesOperation operation(change);
    CommitOptions commit = options.commit;
    commit.names = nullptr;  // the engine names its manifests in an intent of its own
    bool discard = false;
    commit.discard_written_files = [&] { discard = true; };
    last_attempt = 0;
    commit.before_swap = [&](int attempt) {
      last_attempt = attempt;
      if (options.commit.before_swap) options.commit.before_swap(attempts_before + attempt);
    };
    auto report = CommitOperation(catalog, id, operation, commit);
    if (report) {
      report->attempts += attempts_before;
      report->conflicts += attempts_before;
      deletes.DropSuperseded();
      if (discard) {
        abort();  // an idempotent replay: nothing of ours is referenced
      } else {
        (void)names.Clear();  // every file named is referenced now, or deleted
      }
      return report;
    }
    const std::vector<DataFile>& others = operation.vectors_to_merge();
    const bool merge = report.error().kind == ErrorKind::kValidationFailed && discard &&
                       (!others.empty() || !operation.gone_delete_files().empty());
    if (!merge) {
      if (rebase_possible)
        *rebase_possible = report.error().kind == ErrorKind::kValidationFailed && operation.rebase_possible();
      if (discard) abort();
      return report;
    }
    attempts_before += last_attempt;
    if (!policy) {
      auto loaded = catalog.LoadTable(id);
      auto resolved = loaded ? RetryPolicy::Resolve(options.commit.retry, loaded->metadata.properties)
                             : Result<RetryPolicy>(std::unexpected(loaded.error()));
      if (!resolved) {
        abort();
        return std::unexpected(resolved.error());
      }
      policy = *resolved;
    }
    const auto elapsed_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    if (elapsed_ms >= policy->total_timeout_ms) {
      abort();
      return std::unexpected(report.error().WithContext(
          "merged concurrent deletion vectors " + std::to_string(*merges) + " times in " +
          std::to_string(elapsed_ms) + " ms (commit.retry.total-timeout-ms is " +
          std::to_string(policy->total_timeout_ms) + "), still refused"));
    }
    auto merged = deletes.Remerge(others, operation.gone_delete_files());
    if (!merged) {
      abort();
      return std::unexpected(merged.error().WithContext("merging concurrent deletion vectors into " + id.ToString()));
    }
    std::vector<DataFile> added;
    for (auto& f : change.added_delete_files)
      if (!IsDeletionVector(f)) added.push_back(std::move(f));  // equality deletes stay as written
    for (auto& f : merged->added) added.push_back(std::move(f));
    change.added_delete_files = std::move(added);
    // What the new vectors replace: the old delete files still live, and the merged vectors.
    change.removed_delete_files = std::move(merged->replaced);
    for (const DataFile& f : others) change.merged_vectors.insert(ContentFileKey(f));
    ++*merges;
  }
}

}  // namespace floe
