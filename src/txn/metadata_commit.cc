#include "txn/metadata_commit.h"

#include <chrono>
#include <thread>

#include "util/backoff.h"

namespace floe {

Status CheckRequirements(const std::vector<TableRequirement>& requirements, const TableMetadata& table) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, &table));
  return Ok();
}

Result<LoadedTable> CommitMetadataChange(Catalog& catalog, const TableIdentifier& id, const MetadataChange& change,
                                         const MetadataCommitOptions& options) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog.LoadTable(id));
  if (change.empty()) return loaded;
  const RetryPolicy policy = options.retry.value_or(RetryPolicy::FromProperties(loaded.metadata.properties));
  Backoff backoff(policy.backoff());
  const std::string what = change.what.empty() ? "metadata change" : change.what;
  TableCommit commit;
  commit.id = id;
  commit.requirements = change.requirements;
  commit.updates = change.updates;
  std::string last_conflict;
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) {
      FLOE_ASSIGN_OR_RETURN(loaded, catalog.LoadTable(id));
    }
    if (auto held = CheckRequirements(change.requirements, loaded.metadata); !held)
      return CommitConflict(what + " to " + id.ToString() + " refused: " + held.error().message +
                            " (another commit changed what this change was planned against; reload and plan it again)");
    auto committed = catalog.CommitTable(commit);
    if (committed) return committed;
    if (committed.error().kind != ErrorKind::kCommitConflict) return std::unexpected(committed.error());
    last_conflict = committed.error().message;
    if (attempt > policy.num_retries)
      return CommitConflict(what + " to " + id.ToString() + " gave up after " + std::to_string(attempt) +
                            " attempts; what kept conflicting: " + last_conflict);
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff.WaitMs(attempt)));
  }
}

}  // namespace floe
