// Committing one snapshot operation to one branch.
//
// CommitOperation runs the operation through the commit engine (commit_engine.h) as a plan of
// one step: conflicts are retried after a paced wait, refusals are final, a lost answer is
// reconciled by reloading, and an attempt's files are never deleted while its fate is unknown.
// Idempotency: a commit may carry a key, stored in its snapshot summary. If the target branch's
// ancestry already holds a snapshot with that key, the commit returns it and writes nothing.
#pragma once

#include "catalog/catalog.h"
#include "commit/commit_options.h"
#include "commit/commit_report.h"
#include "commit/snapshot_operation.h"

namespace floe {

// Commits `operation` to table `id`. On success the report says what happened; on failure the
// error's kind says why (CommitConflict after retries ran out, ValidationFailed, ...).
Result<CommitReport> CommitOperation(Catalog& catalog, const TableIdentifier& id, SnapshotOperation& operation,
                                     const CommitOptions& options = {});

}  // namespace floe
