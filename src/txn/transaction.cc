#include "txn/transaction.h"

#include <chrono>
#include <set>
#include <thread>

#include "meta/metadata_builder.h"
#include "txn/commit_loop.h"
#include "txn/manifest_output.h"
#include "util/clock.h"
#include "util/uuid.h"

namespace floe {
namespace {

Result<TableMetadata> Stage(const TableMetadata& table, const std::vector<TableUpdate>& updates) {
  MetadataBuilder builder = MetadataBuilder::From(table, "staged");
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(updates));
  return builder.Build(NowMillis());
}

void DeleteQuietly(FileIO& io, const std::vector<std::string>& paths) {
  for (const auto& p : paths) (void)io.Delete(p);
}

}  // namespace

Status Transaction::Begin() {
  FLOE_ASSIGN_OR_RETURN(base_, catalog_.LoadTable(id_));
  staged_ = base_.metadata;
  begun_ = true;
  return Ok();
}

Status Transaction::AddMetadataChange(const MetadataChange& change) {
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  if (change.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(staged_, Stage(staged_, change.updates));
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

Result<CommitReport> Transaction::Commit(const CommitOptions& options) {
  if (committed_) return InvalidArgument("transaction on " + id_.ToString() + " was already committed");
  if (!begun_) FLOE_RETURN_IF_ERROR(Begin());
  const int64_t start = MonotonicMicros();
  CommitReport report;
  OperationContext ctx;
  ctx.io = catalog_.io().get();
  FileIO& io = *ctx.io;
  FLOE_ASSIGN_OR_RETURN(const RetryPolicy policy, RetryPolicy::Resolve(options.retry, base_.metadata.properties));
  Backoff backoff(policy.backoff());

  std::vector<SnapshotOperation*> operations;
  for (auto& step : steps_)
    if (auto* s = std::get_if<SnapshotStep>(&step)) operations.push_back(s->operation.get());
  auto delete_prepared = [&] {
    for (SnapshotOperation* op : operations) DeleteQuietly(io, op->prepared_files());
  };
  {
    // Prepare against the staged metadata each operation will first see.
    TableMetadata staged = base_.metadata;
    for (auto& step : steps_) {
      if (auto* m = std::get_if<MetadataChange>(&step)) {
        FLOE_ASSIGN_OR_RETURN(staged, Stage(staged, m->updates));
        continue;
      }
      auto& s = std::get<SnapshotStep>(step);
      ctx.branch = s.branch;
      if (auto st = s.operation->Prepare(ctx, staged); !st) {
        delete_prepared();
        return std::unexpected(st.error());
      }
    }
  }

  LoadedTable current = base_;
  std::vector<std::string> failed_attempt_files;
  std::string last_conflict;
  for (int attempt = 1;; ++attempt) {
    report.attempts = attempt;
    if (attempt > 1) {
      auto reloaded = catalog_.LoadTable(id_);
      if (!reloaded) return std::unexpected(reloaded.error());
      current = std::move(*reloaded);
    }
    auto fail = [&](const Error& e) -> Result<CommitReport> {
      DeleteQuietly(io, failed_attempt_files);
      delete_prepared();
      return std::unexpected(e);
    };
    TableCommit commit;
    commit.id = id_;
    commit.requirements.push_back(AssertTableUuid{current.metadata.table_uuid});
    TableMetadata staged = current.metadata;
    std::set<std::string> asserted_branches;
    std::vector<std::string> attempt_files;
    std::vector<std::string> unlisted_files;  // garbage once this attempt lands (AttemptOutput)
    int64_t last_snapshot_id = 0, last_sequence = 0;
    Status built = Ok();
    for (auto& step : steps_) {
      if (auto* m = std::get_if<MetadataChange>(&step)) {
        if (auto held = CheckRequirements(m->requirements, current.metadata); !held)
          return fail(CommitConflict(m->what + " in a transaction on " + id_.ToString() + " refused: " +
                                     held.error().message + " (another commit changed what it was planned against)")
                          .error());
        commit.requirements.insert(commit.requirements.end(), m->requirements.begin(), m->requirements.end());
        commit.updates.insert(commit.updates.end(), m->updates.begin(), m->updates.end());
        auto next = Stage(staged, m->updates);
        if (!next) return fail(next.error());
        staged = std::move(*next);
        continue;
      }
      auto& s = std::get<SnapshotStep>(step);
      ctx.branch = s.branch;
      if (s.branch != kMainBranch) {
        auto ref = staged.refs.find(s.branch);
        if (ref == staged.refs.end()) return fail(NotFound("table " + id_.ToString() + " has no branch '" + s.branch + "'").error());
        if (ref->second.type == RefType::kTag) return fail(InvalidArgument("'" + s.branch + "' is a tag; writes go to branches").error());
      }
      const Snapshot* head = staged.SnapshotForRef(s.branch);
      if (asserted_branches.insert(s.branch).second) {
        // The branch as this attempt found it (later steps build on our own snapshots).
        const Snapshot* found = current.metadata.SnapshotForRef(s.branch);
        commit.requirements.push_back(
            AssertRefSnapshotId{s.branch, found ? std::optional<int64_t>(found->snapshot_id) : std::nullopt});
      }
      if (auto valid = s.operation->Validate(ctx, staged, head); !valid) return fail(valid.error());
      const int64_t snapshot_id = NewSnapshotId(staged);
      const int64_t sequence = staged.format_version >= 2 ? staged.last_sequence_number + 1 : 0;
      auto output = s.operation->Apply(ctx, staged, head, snapshot_id, sequence);
      if (!output) return fail(output.error());
      attempt_files.insert(attempt_files.end(), output->attempt_files.begin(), output->attempt_files.end());
      unlisted_files.insert(unlisted_files.end(), output->unlisted_files.begin(), output->unlisted_files.end());
      const std::string list_path = ctx.NewManifestListPath(staged, snapshot_id, attempt);
      std::optional<int64_t> parent;
      if (head) parent = head->snapshot_id;
      attempt_files.push_back(list_path);
      if (auto st = WriteManifestListFile(io, staged, output->manifests, snapshot_id, parent, sequence, list_path); !st) {
        DeleteQuietly(io, attempt_files);
        return fail(st.error());
      }
      Snapshot snapshot = NewSnapshot(staged, head, snapshot_id, sequence, list_path,
                                      output->summary.Build(s.operation->operation(), head ? &head->summary : nullptr));
      for (const auto& [k, v] : options.summary) snapshot.summary[k] = v;
      const SnapshotRef ref = MovedBranch(staged, s.branch, snapshot_id);
      std::vector<TableUpdate> updates = {AddSnapshot{snapshot}, SetSnapshotRef{s.branch, ref}};
      auto next = Stage(staged, updates);
      if (!next) {
        DeleteQuietly(io, attempt_files);
        return fail(next.error());
      }
      staged = std::move(*next);
      commit.updates.insert(commit.updates.end(), updates.begin(), updates.end());
      last_snapshot_id = snapshot_id;
      last_sequence = sequence;
    }
    if (commit.updates.empty()) {
      committed_ = true;
      report.metadata_location = current.metadata_location;
      return report;
    }

    if (options.before_swap) options.before_swap(attempt);
    auto swapped = catalog_.CommitTable(commit);
    // Landed: the failed attempts' files and those this one wrote but does not list are garbage.
    auto delete_garbage = [&] {
      DeleteQuietly(io, failed_attempt_files);
      DeleteQuietly(io, unlisted_files);
    };
    if (swapped) {
      delete_garbage();
      committed_ = true;
      report.snapshot_id = last_snapshot_id;
      report.sequence_number = last_sequence;
      report.metadata_location = swapped->metadata_location;
      report.total_ms = (MonotonicMicros() - start) / 1000.0;
      return report;
    }
    const Error& error = swapped.error();
    if (error.kind == ErrorKind::kCommitStateUnknown) {
      auto reloaded = catalog_.LoadTable(id_);
      if (reloaded && last_snapshot_id && reloaded->metadata.SnapshotById(last_snapshot_id)) {
        delete_garbage();
        committed_ = true;
        report.snapshot_id = last_snapshot_id;
        report.sequence_number = last_sequence;
        report.metadata_location = reloaded->metadata_location;
        report.reconciled_unknown = true;
        return report;
      }
      return std::unexpected(error.WithContext("transaction on " + id_.ToString() + " may or may not have landed"));
    }
    // A commit to another branch may have taken our sequence number (see commit_loop.cc).
    bool sequence_taken = false;
    if (error.kind == ErrorKind::kInvalidArgument && last_sequence > 0) {
      auto reloaded = catalog_.LoadTable(id_);
      sequence_taken = reloaded && reloaded->metadata.last_sequence_number >= last_sequence -
                                                                                  static_cast<int64_t>(operations.size()) + 1;
    }
    if (error.kind != ErrorKind::kCommitConflict && !sequence_taken) return std::unexpected(error);
    ++report.conflicts;
    report.conflict_reasons.push_back(error.message);
    last_conflict = error.message;
    failed_attempt_files.insert(failed_attempt_files.end(), attempt_files.begin(), attempt_files.end());
    const double elapsed = (MonotonicMicros() - start) / 1000.0;
    if (!policy.MayRetry(attempt, elapsed))
      return fail(policy.GaveUp("transaction on " + id_.ToString(), attempt, elapsed, last_conflict));
    const int64_t wait = backoff.WaitMs(attempt);
    report.backoff_ms += static_cast<double>(wait);
    std::this_thread::sleep_for(std::chrono::milliseconds(wait));
  }
}

}  // namespace floe
