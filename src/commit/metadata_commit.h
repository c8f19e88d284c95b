// Committing a change to a table's metadata that is not a snapshot (schema, partition spec,
// sort order, properties, refs): the requirements it makes of the base plus its updates.
//
// Such a change is planned once against the base it read. If the swap is lost to a writer
// that changed something else (an append moved a branch), the same requirements are checked
// against the new state and the same commit is sent again. If a requirement no longer holds
// (another schema change landed), the change is refused, not re-planned: Iceberg never
// silently re-applies an evolution on top of another. The error is a CommitConflict naming
// the failed requirement. A lost answer (CommitStateUnknown) is reconciled by reloading: if
// the table already shows every update the change is done, otherwise it is sent again. The
// change runs through the commit engine (commit_engine.h) as a plan of one metadata step.
#pragma once

#include <memory>
#include <optional>

#include "catalog/catalog.h"
#include "commit/commit_base.h"
#include "commit/metadata_change.h"
#include "commit/retry_policy.h"

namespace floe {

struct MetadataCommitOptions {
  std::optional<RetryPolicy> retry;  // default: the table's commit.retry.* properties
  // The table the change was planned on, for the first attempt (CommitOptions::base).
  std::shared_ptr<CommitBase> base;
};

// Commits `change` (nothing when it has no updates: the table is returned as loaded).
Result<LoadedTable> CommitMetadataChange(Catalog& catalog, const TableIdentifier& id, const MetadataChange& change,
                                         const MetadataCommitOptions& options = {});

}  // namespace floe
