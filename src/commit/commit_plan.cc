#include "commit/commit_plan.h"

#include <set>

#include "table_files/manifest_io.h"
#include "meta/metadata_builder.h"
#include "commit/row_id_assignment.h"
#include "commit/snapshot_lineage.h"
#include "util/clock.h"

namespace floe {
namespace {

// Writes go to branches that exist (main always may be created by its first snapshot).
Status CheckWritableBranch(const TableMetadata& table, const TableIdentifier& id, const std::string& branch) {
  if (branch == kMainBranch) return Ok();
  auto ref = table.refs.find(branch);
  if (ref == table.refs.end())
    return NotFound("table " + id.ToString() + " has no branch '" + branch + "' (create it first)");
  if (ref->second.type == RefType::kTag)
    return InvalidArgument("'" + branch + "' is a tag of " + id.ToString() + "; writes go to branches");
  return Ok();
}

}  // namespace

Status Attempt::WaitForLists() {
  Status first = Ok();
  for (auto& write : list_writes) {
    Status st = write->Wait();
    if (first && !st) first = st;
  }
  return first;
}

Result<TableMetadata> StageUpdates(const TableMetadata& table, const std::vector<TableUpdate>& updates) {
  MetadataBuilder builder = MetadataBuilder::From(table, "staged");
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(updates));
  return builder.Build(NowMillis());
}

std::string CommitPlan::what() const {
  if (options_.transaction || steps_.size() != 1) return "transaction on " + id_.ToString();
  if (steps_[0].operation) return "commit to " + id_.ToString();
  const std::string& what = steps_[0].change.what;
  return (what.empty() ? std::string("metadata change") : what) + " to " + id_.ToString();
}

bool CommitPlan::OnlyAppends() const {
  if (steps_.empty()) return false;
  for (const Step& step : steps_)
    if (!step.operation || step.operation->operation() != "append") return false;
  return true;
}

size_t CommitPlan::LastOperationIndex() const {
  for (size_t i = steps_.size(); i-- > 0;)
    if (steps_[i].operation) return i;
  return steps_.size();
}

std::optional<std::string> CommitPlan::key_branch() const {
  if (!options_.idempotency_key) return std::nullopt;
  const size_t last = LastOperationIndex();
  return last == steps_.size() ? std::string(kMainBranch) : steps_[last].branch;
}

Status CommitPlan::Prepare(const OperationContext& ctx, const TableMetadata& base) {
  std::optional<TableMetadata> staged;  // only once a metadata step precedes an operation
  OperationContext step_ctx = ctx;
  for (const Step& step : steps_) {
    const TableMetadata& table = staged ? *staged : base;
    if (!step.operation) {
      FLOE_RETURN_IF_ERROR(CheckMetadataStep(step, table));
      FLOE_ASSIGN_OR_RETURN(TableMetadata next, StageUpdates(table, step.change.updates));
      staged = std::move(next);
      continue;
    }
    step_ctx.branch = step.branch;
    FLOE_RETURN_IF_ERROR(step.operation->Prepare(step_ctx, table));
  }
  return Ok();
}

std::vector<std::string> CommitPlan::prepared_files() const {
  std::vector<std::string> out;
  for (const Step& step : steps_) {
    if (!step.operation) continue;
    auto files = step.operation->prepared_files();
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

Status CommitPlan::Build(OperationContext& ctx, const TableMetadata& current, Attempt& attempt, CommitReport& report) {
  attempt.commit.id = id_;
  attempt.commit.requirements.push_back(AssertTableUuid{current.table_uuid});
  // `current` with the steps so far applied, made only when a later step must see them
  // (copying a long history costs more than a single operation's own I/O).
  std::optional<TableMetadata> staged;
  std::set<std::string> asserted_branches;
  const size_t last_operation = LastOperationIndex();
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const TableMetadata& table = staged ? *staged : current;
    const size_t updates_before = attempt.commit.updates.size();
    if (!step.operation) {
      FLOE_RETURN_IF_ERROR(BuildMetadataStep(step, current, table, attempt));
    } else {
      if (asserted_branches.insert(step.branch).second) {
        // The branch as this attempt found it; later steps build on our own snapshots.
        const Snapshot* found = current.SnapshotForRef(step.branch);
        attempt.commit.requirements.push_back(
            AssertRefSnapshotId{step.branch, found ? std::optional<int64_t>(found->snapshot_id) : std::nullopt});
      }
      FLOE_RETURN_IF_ERROR(BuildOperationStep(ctx, step, i == last_operation, table, attempt, report));
    }
    if (i + 1 == steps_.size()) break;
    // A later step sees this one's updates and may read the files they name.
    if (ctx.background_writes) FLOE_RETURN_IF_ERROR(ctx.background_writes->WaitAll());
    FLOE_RETURN_IF_ERROR(attempt.WaitForLists());
    std::vector<TableUpdate> step_updates(attempt.commit.updates.begin() + updates_before, attempt.commit.updates.end());
    FLOE_ASSIGN_OR_RETURN(TableMetadata next, StageUpdates(table, step_updates));
    staged = std::move(next);
  }
  return Ok();
}

Status CommitPlan::CheckMetadataStep(const Step& step, const TableMetadata& current) const {
  Status held = CheckRequirements(step.change.requirements, current);
  if (held) return held;
  const std::string what = step.change.what.empty() ? std::string("metadata change") : step.change.what;
  return CommitConflict(what + " to " + id_.ToString() + " refused: " + held.error().message +
                        " (another commit changed what this change was planned against; reload and plan it again)");
}

Status CommitPlan::BuildMetadataStep(const Step& step, const TableMetadata& current, const TableMetadata& table,
                                     Attempt& attempt) {
  // A step was planned on the table as the steps before it leave it (`table`: two schema
  // changes in one transaction, the second asserting the schema the first made), so its
  // requirements are checked there. The catalog checks the commit's requirements against the
  // table before any of it: one that holds only because an earlier step made it so is implied
  // by that step's own requirements, and is not sent.
  FLOE_RETURN_IF_ERROR(CheckMetadataStep(step, table));
  auto& commit = attempt.commit;
  for (const auto& requirement : step.change.requirements)
    if (CheckRequirements({requirement}, current)) commit.requirements.push_back(requirement);
  commit.updates.insert(commit.updates.end(), step.change.updates.begin(), step.change.updates.end());
  return Ok();
}

Status CommitPlan::BuildOperationStep(OperationContext& ctx, const Step& step, bool last_operation,
                                      const TableMetadata& table, Attempt& attempt, CommitReport& report) {
  FLOE_RETURN_IF_ERROR(CheckWritableBranch(table, id_, step.branch));
  ctx.branch = step.branch;
  const Snapshot* head = table.SnapshotForRef(step.branch);
  int64_t t = MonotonicMicros();
  Status valid = step.operation->Validate(ctx, table, head);
  report.validate_ms += MillisSince(t);
  FLOE_RETURN_IF_ERROR(valid);

  t = MonotonicMicros();
  const int64_t snapshot_id = NewSnapshotId(table);
  const int64_t sequence_number = table.format_version >= 2 ? table.last_sequence_number + 1 : 0;
  FLOE_ASSIGN_OR_RETURN(AttemptOutput output, step.operation->Apply(ctx, table, head, snapshot_id, sequence_number));
  attempt.files.insert(attempt.files.end(), output.attempt_files.begin(), output.attempt_files.end());
  attempt.unlisted.insert(attempt.unlisted.end(), output.unlisted_files.begin(), output.unlisted_files.end());
  std::optional<int64_t> parent_id;
  if (head) parent_id = head->snapshot_id;
  // Format 3: row ids come from this attempt's base, as the sequence number does.
  std::optional<RowIdRange> row_ids;
  if (table.format_version >= 3) row_ids = AssignRowIds(table, output.manifests);
  FLOE_ASSIGN_OR_RETURN(std::string list_bytes,
                        ManifestListBytes(table, output.manifests, snapshot_id, parent_id, sequence_number,
                                          row_ids ? std::optional<int64_t>(row_ids->first_row_id) : std::nullopt));
  // Written while the catalog writes the document; the engine awaits it before the swap.
  FLOE_ASSIGN_OR_RETURN(const std::string list_path, ctx.NewManifestListPath(table, snapshot_id, attempt.number));
  attempt.list_writes.push_back(std::make_unique<BackgroundWrite>(*ctx.io, list_path, std::move(list_bytes)));
  attempt.files.push_back(list_path);

  Snapshot snapshot = NewSnapshot(table, head, snapshot_id, sequence_number, list_path,
                                  output.summary.Build(step.operation->operation(), head ? &head->summary : nullptr));
  if (row_ids) {
    snapshot.first_row_id = row_ids->first_row_id;
    snapshot.added_rows = row_ids->added_rows;
  }
  for (const auto& [k, v] : options_.summary) snapshot.summary[k] = v;
  if (last_operation && options_.idempotency_key)
    snapshot.summary[IdempotencyKeyProperty(table)] = *options_.idempotency_key;
  const SnapshotRef ref = MovedBranch(table, step.branch, snapshot_id);
  attempt.commit.updates.push_back(AddSnapshot{std::move(snapshot)});
  attempt.commit.updates.push_back(SetSnapshotRef{step.branch, ref});
  attempt.snapshot_ids.push_back(snapshot_id);
  if (attempt.first_sequence_number == 0) attempt.first_sequence_number = sequence_number;
  attempt.last_sequence_number = sequence_number;
  report.write_ms += MillisSince(t);
  return Ok();
}

}  // namespace floe
