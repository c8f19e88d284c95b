#include "commit/commit_operation.h"

#include "commit/commit_engine.h"

namespace floe {

Result<CommitReport> CommitOperation(Catalog& catalog, const TableIdentifier& id, SnapshotOperation& operation,
                                     const CommitOptions& options) {
  CommitPlan plan(id, PlanOptions{options.idempotency_key, options.summary});
  plan.AddOperation(operation, options.branch);
  FLOE_ASSIGN_OR_RETURN(CommitOutcome outcome, RunCommit(catalog, plan, options));
  return std::move(outcome.report);
}

}  // namespace floe
