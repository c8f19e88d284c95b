// Snapshot management: branches and tags, rollback, fast-forward and cherry-pick.
//
// Ref changes are metadata changes (metadata_commit.h) asserting the ref's current target
// (assert-ref-snapshot-id; "must not exist" for a create), so two writers moving the same ref
// never silently overwrite each other. Writes go to a branch through CommitOptions::branch,
// and their validation follows that branch's ancestry.
//
// Rollback follows Iceberg: RollbackTo and RollbackToTime require the target to be an ancestor
// of the branch's head; SetCurrentSnapshot accepts any snapshot of the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "catalog/catalog.h"
#include "commit/commit_options.h"
#include "commit/metadata_commit.h"

namespace floe {

struct RefRetention {
  std::optional<int> min_snapshots_to_keep;    // branches only
  std::optional<int64_t> max_snapshot_age_ms;  // branches only
  std::optional<int64_t> max_ref_age_ms;
};

// `snapshot_id` unset: the current snapshot of main. AlreadyExists / NotFound / InvalidArgument
// name the ref and the snapshot.
Result<LoadedTable> CreateBranch(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                 std::optional<int64_t> snapshot_id = std::nullopt, const RefRetention& retention = {});
// Points an existing branch at any snapshot (retention kept unless given).
Result<LoadedTable> ReplaceBranch(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                  int64_t snapshot_id, const std::optional<RefRetention>& retention = std::nullopt);
Result<LoadedTable> DropBranch(Catalog& catalog, const TableIdentifier& id, const std::string& name);

Result<LoadedTable> CreateTag(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                              std::optional<int64_t> snapshot_id = std::nullopt,
                              std::optional<int64_t> max_ref_age_ms = std::nullopt);
Result<LoadedTable> ReplaceTag(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                               int64_t snapshot_id, std::optional<int64_t> max_ref_age_ms = std::nullopt);
Result<LoadedTable> DropTag(Catalog& catalog, const TableIdentifier& id, const std::string& name);

// Sets `branch` back to `snapshot_id`, which must be one of its ancestors.
Result<LoadedTable> RollbackTo(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id,
                               const std::string& branch = kMainBranch);
// Sets `branch` back to its latest ancestor committed at or before `timestamp_ms`.
Result<LoadedTable> RollbackToTime(Catalog& catalog, const TableIdentifier& id, int64_t timestamp_ms,
                                   const std::string& branch = kMainBranch);
// Sets main to any snapshot of the table (not necessarily an ancestor).
Result<LoadedTable> SetCurrentSnapshot(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id);

// Moves `branch` to the head of `to` (a branch or tag); the branch's head must be an ancestor
// of it (InvalidArgument otherwise: the histories diverged).
Result<LoadedTable> FastForward(Catalog& catalog, const TableIdentifier& id, const std::string& branch,
                                const std::string& to);

// Applies the changes of snapshot `snapshot_id` (an append or overwrite, usually on another
// branch) to options.branch as a new snapshot whose summary names it in source-snapshot-id.
// Refused (ValidationFailed) if it does not apply: a file it removes is not live there; refused
// (InvalidArgument) if it is already in that branch's history or was cherry-picked before.
Result<CommitReport> CherryPick(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id,
                                const CommitOptions& options = {});

}  // namespace floe
