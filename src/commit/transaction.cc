#include "commit/transaction.h"

#include "catalog/intent_store.h"
#include "commit/commit_engine.h"

namespace floe {

Status Transaction::Begin() {
  FLOE_ASSIGN_OR_RETURN(handed_, CommitBase::Load(catalog_, id_));
  base_ = handed_->KeepAlive();
  staged_ = *base_;
  if (!names_) names_ = NewWriteNamer(catalog_, id_, *base_);
  begun_ = true;
  return Ok();
}

Status Transaction::AddMetadataChange(const MetadataChange& change) {
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  if (change.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(staged_, StageUpdates(staged_, change.updates));
  steps_.emplace_back(change);
  return Ok();
}

Status Transaction::UpdateSchema(const SchemaUpdate& update) {
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, update.Plan(staged_));
  return AddMetadataChange(change);
}

Status Transaction::UpdateSpec(const SpecUpdate& update) {
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, update.Plan(staged_));
  return AddMetadataChange(change);
}

Status Transaction::UpdateProperties(const std::map<std::string, std::string>& set,
                                     const std::vector<std::string>& remove) {
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, PlanProperties(staged_, set, remove));
  return AddMetadataChange(change);
}

void Transaction::AddOperation(std::unique_ptr<SnapshotOperation> operation, std::string branch) {
  steps_.emplace_back(SnapshotStep{std::move(operation), std::move(branch)});
}

Result<std::unique_ptr<CommitPlan>> Transaction::Plan(const CommitOptions& options) {
  if (committed_) return InvalidArgument("transaction on " + id_.ToString() + " was already committed");
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  auto plan = std::make_unique<CommitPlan>(id_, PlanOptions{options.idempotency_key, options.summary, /*transaction=*/true, names_.get()});
  for (auto& step : steps_) {
    if (auto* change = std::get_if<MetadataChange>(&step)) {
      plan->AddMetadataChange(*change);
    } else {
      auto& s = std::get<SnapshotStep>(step);
      plan->AddOperation(*s.operation, s.branch);
    }
  }
  return plan;
}

Result<CommitReport> Transaction::Commit(const CommitOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::vector<CommitReport> reports, CommitTransactions(catalog_, {this}, options));
  return std::move(reports.front());
}

Result<std::vector<CommitReport>> CommitTransactions(Catalog& catalog, const std::vector<Transaction*>& transactions,
                                                     const CommitOptions& options) {
  std::vector<std::unique_ptr<CommitPlan>> plans;
  std::vector<CommitPlan*> order;
  for (Transaction* tx : transactions) {
    if (&tx->catalog_ != &catalog)
      return InvalidArgument("transaction on " + tx->id_.ToString() + " belongs to another catalog");
    FLOE_ASSIGN_OR_RETURN(plans.emplace_back(), tx->Plan(options));
    order.push_back(plans.back().get());
  }
  // One transaction: its first attempt starts from the table it was planned on, when still young.
  CommitOptions run = options;
  if (transactions.size() == 1) run.base = transactions.front()->handed_;
  FLOE_ASSIGN_OR_RETURN(std::vector<CommitOutcome> outcomes, RunMultiTableCommit(catalog, order, run));
  std::vector<CommitReport> reports;
  for (Transaction* tx : transactions) tx->committed_ = true;
  for (auto& outcome : outcomes) reports.push_back(std::move(outcome.report));
  return reports;
}

}  // namespace floe
