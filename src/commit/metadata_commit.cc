#include "commit/metadata_commit.h"

#include "commit/commit_engine.h"

namespace floe {

Result<LoadedTable> CommitMetadataChange(Catalog& catalog, const TableIdentifier& id, const MetadataChange& change,
                                         const MetadataCommitOptions& options) {
  CommitPlan plan(id, PlanOptions{});
  if (!change.empty()) plan.AddMetadataChange(change);
  CommitOptions commit;
  commit.retry = options.retry;
  commit.base = options.base;
  FLOE_ASSIGN_OR_RETURN(CommitOutcome outcome, RunCommit(catalog, plan, commit));
  return LoadedTable{id, std::move(outcome.table.metadata_location), *outcome.table.metadata};
}

}  // namespace floe
