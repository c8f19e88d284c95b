// CommitPlan: what one commit changes in one table, as an ordered list of steps, and how one
// attempt turns those steps into a TableCommit on top of the table as it is now.
//
// Every kind of commit is a plan: a snapshot operation is a plan of one operation step, a
// metadata-only change (schema, spec, properties, refs) a plan of one metadata step, and a
// transaction a plan of several. The commit engine (commit_engine.h) runs every plan the
// same way; what differs between kinds of commit lives in the steps:
//   metadata step   planned once against the base it read; every attempt re-checks its
//                   requirements against the table as loaded (a failure is a final
//                   CommitConflict: an evolution is never silently re-applied on top of
//                   another) and sends the same updates;
//   operation step  prepared once (files that never depend on the base), then validated and
//                   applied on every attempt on top of the step before (SnapshotOperation).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "commit/commit_report.h"
#include "commit/metadata_change.h"
#include "commit/snapshot_operation.h"

namespace floe {

// One attempt of a commit, from the files it writes to the answer of its swap.
enum class AttemptState {
  kPrepared,  // its files are written (or being written); nothing points to them yet
  kSwapped,   // the pointer names its document: the commit landed
  kLost,      // it certainly did not land: its own files are garbage
  kUnknown,   // it may have landed: none of the commit's files may be deleted
};

// What one attempt built. Its list writes run in the background until the engine awaits them.
struct Attempt {
  int number = 1;
  AttemptState state = AttemptState::kPrepared;
  TableCommit commit;
  std::vector<std::string> files;     // written for this attempt alone
  std::vector<std::string> unlisted;  // written by the commit but listed by no snapshot of it
  std::vector<std::unique_ptr<BackgroundWrite>> list_writes;
  std::vector<int64_t> snapshot_ids;  // the snapshots it adds, in order
  int64_t first_sequence_number = 0;  // the first sequence number it takes (0: none, or v1)
  int64_t last_sequence_number = 0;

  int64_t snapshot_id() const { return snapshot_ids.empty() ? 0 : snapshot_ids.back(); }
  // Waits for every list write; the first failure.
  Status WaitForLists();
};

// What every operation step of one commit shares.
struct PlanOptions {
  // Stored in the summary of the plan's last snapshot. A plan whose key is already in the
  // ancestry of that snapshot's branch (main for a plan without snapshots) writes nothing.
  std::optional<std::string> idempotency_key;
  std::map<std::string, std::string> summary;  // extra entries in every snapshot's summary
  bool transaction = false;                    // for messages: "transaction on db.t"
  // The namer the plan's new files are named by (table_files/file_namer.h): the caller's data files, and
  // the commit's manifests and lists, in one write intent of this table. Unset, the engine uses
  // CommitOptions::names for a commit of one table, else a write intent of its own.
  FileNamer* names = nullptr;
};

class CommitPlan {
 public:
  CommitPlan(TableIdentifier id, PlanOptions options) : id_(std::move(id)), options_(std::move(options)) {}

  void AddMetadataChange(MetadataChange change) { steps_.push_back(Step{std::move(change), nullptr, {}}); }
  // `operation` must outlive the plan.
  void AddOperation(SnapshotOperation& operation, std::string branch) {
    steps_.push_back(Step{{}, &operation, std::move(branch)});
  }

  bool empty() const { return steps_.empty(); }
  const TableIdentifier& id() const { return id_; }
  // "commit to db.t", "schema change to db.t", "transaction on db.t": for messages.
  std::string what() const;
  const std::optional<std::string>& idempotency_key() const { return options_.idempotency_key; }
  FileNamer* names() const { return options_.names; }
  // The branch whose ancestry holds the idempotency key (the last operation's, else main), when
  // a key is set.
  std::optional<std::string> key_branch() const;
  // Whether every step is an operation that only adds data files (Iceberg's "append"): a
  // retry after a lost race re-applies it on the new base, re-validated like every retry.
  bool OnlyAppends() const;

  // Once, before the first attempt: prepares every operation against the metadata it will
  // first see (the base with the metadata steps before it applied).
  Status Prepare(const OperationContext& ctx, const TableMetadata& base);
  // Every attempt: fills `attempt` from `current` (the table as just loaded). On failure the
  // attempt holds whatever it wrote so far; the failure is final (never retried).
  Status Build(OperationContext& ctx, const TableMetadata& current, Attempt& attempt, CommitReport& report);
  // What every operation's Prepare wrote.
  std::vector<std::string> prepared_files() const;

 private:
  struct Step {
    MetadataChange change;                  // a metadata step when operation is null
    SnapshotOperation* operation = nullptr;
    std::string branch;
  };
  // A metadata step's requirements still hold on `current`; else the final CommitConflict.
  Status CheckMetadataStep(const Step& step, const TableMetadata& current) const;
  // `table` is `current` with the steps before this one applied.
  Status BuildMetadataStep(const Step& step, const TableMetadata& current, const TableMetadata& table,
                           Attempt& attempt);
  Status BuildOperationStep(OperationContext& ctx, const Step& step, bool last_operation, const TableMetadata& table,
                            Attempt& attempt, CommitReport& report);
  size_t LastOperationIndex() const;

  TableIdentifier id_;
  PlanOptions options_;
  std::vector<Step> steps_;
};

// `table` with `updates` applied, as a later step of the same commit sees it.
Result<TableMetadata> StageUpdates(const TableMetadata& table, const std::vector<TableUpdate>& updates);

}  // namespace floe
