#include "txn/metadata_commit.h"

#include "txn/commit_engine.h"

namespace floe {

Status CheckRequirements(const std::vector<TableRequirement>& requirements, const TableMetadata& table) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, &table));
  return Ok();
}

Result<LoadedTable> CommitMetadataChange(Catalog& catalog, const TableIdentifier& id, const MetadataChange& change,
                                         const MetadataCommitOptions& options) {
  CommitPlan plan(id, PlanOptions{});
  if (!change.empty()) plan.AddMetadataChange(change);
  CommitOptions commit;
  commit.retry = options.retry;
  FLOE_ASSIGN_OR_RETURN(CommitOutcome outcome, RunCommit(catalog, plan, commit));
  return LoadedTable{id, std::move(outcome.table.metadata_location), *outcome.table.metadata};
}

}  // namespace floe
