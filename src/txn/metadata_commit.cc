#include "txn/metadata_commit.h"

#include <chrono>
#include <thread>

#include "meta/metadata_builder.h"
#include "util/backoff.h"
#include "util/clock.h"

namespace floe {

namespace {

// Whether `table` already shows every update: applying them again changes nothing. After a
// lost answer this tells that our commit (or an identical one) landed.
bool AlreadyApplied(const LoadedTable& table, const std::vector<TableUpdate>& updates) {
  MetadataBuilder builder = MetadataBuilder::From(table.metadata, table.metadata_location);
  if (!builder.ApplyAll(updates)) return false;
  auto built = builder.Build(table.metadata.last_updated_ms);
  return built && built->metadata_log.size() == table.metadata.metadata_log.size() &&
         built->last_updated_ms == table.metadata.last_updated_ms;
}

}  // namespace

Status CheckRequirements(const std::vector<TableRequirement>& requirements, const TableMetadata& table) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, &table));
  return Ok();
}

Result<LoadedTable> CommitMetadataChange(Catalog& catalog, const TableIdentifier& id, const MetadataChange& change,
                                         const MetadataCommitOptions& options) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog.LoadTable(id));
  if (change.empty()) return loaded;
  const int64_t start = MonotonicMicros();
  FLOE_ASSIGN_OR_RETURN(const RetryPolicy policy, RetryPolicy::Resolve(options.retry, loaded.metadata.properties));
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
    if (committed.error().kind == ErrorKind::kCommitStateUnknown) {
      // Reconcile: landed = done; not visible = the swap did not happen, so retry.
      auto reloaded = catalog.LoadTable(id);
      if (!reloaded)
        return std::unexpected(committed.error().WithContext(what + " to " + id.ToString() + " may or may not have landed"));
      if (AlreadyApplied(*reloaded, change.updates)) return reloaded;
      last_conflict = "lost answer: " + committed.error().message;
    } else if (committed.error().kind == ErrorKind::kCommitConflict) {
      last_conflict = committed.error().message;
    } else {
      return std::unexpected(committed.error());
    }
    const double elapsed = (MonotonicMicros() - start) / 1000.0;
    if (!policy.MayRetry(attempt, elapsed))
      return std::unexpected(policy.GaveUp(what + " to " + id.ToString(), attempt, elapsed, last_conflict));
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff.WaitMs(attempt)));
  }
}

}  // namespace floe
