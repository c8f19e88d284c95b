#include "txn/commit_loop.h"

#include <chrono>
#include <set>
#include <thread>

#include "io/background_write.h"
#include "meta/table_properties.h"
#include "txn/commit_pacing.h"
#include "txn/manifest_output.h"
#include "util/clock.h"
#include "util/uuid.h"

namespace floe {
namespace {

double MillisSince(int64_t start_micros) { return (MonotonicMicros() - start_micros) / 1000.0; }

void DeleteQuietly(FileIO& io, const std::vector<std::string>& paths) {
  for (const auto& p : paths) (void)io.Delete(p);
}

// The files a commit has written so far, and which of them may go when it ends.
class CommitFiles {
 public:
  CommitFiles(FileIO& io, SnapshotOperation& operation, BackgroundWrites& background)
      : io_(io), operation_(operation), background_(background) {}

  // The swap of an attempt that wrote `files` certainly failed.
  void AttemptFailed(const std::vector<std::string>& files) { failed_.insert(failed_.end(), files.begin(), files.end()); }
  // Some attempt's outcome is unknown: it may reference the prepared files, so they stay.
  void KeepPrepared() { keep_prepared_ = true; }

  // The commit landed: the files of failed attempts are garbage, and so are those the operation
  // wrote that the landed snapshot does not list.
  void Landed(const std::vector<std::string>& unlisted) {
    (void)background_.WaitAll();  // nothing is deleted while it may still be being written
    DeleteQuietly(io_, failed_);
    DeleteQuietly(io_, unlisted);
  }
  // The commit ends without landing: everything it wrote goes, except what an attempt of
  // unknown outcome may still reference.
  void Abandon() {
    (void)background_.WaitAll();
    DeleteQuietly(io_, failed_);
    if (!keep_prepared_) DeleteQuietly(io_, operation_.prepared_files());
  }

 private:
  FileIO& io_;
  SnapshotOperation& operation_;
  BackgroundWrites& background_;
  std::vector<std::string> failed_;
  bool keep_prepared_ = false;
};

// A commit to another branch can take the sequence number this attempt chose without moving
// our branch: the catalog then refuses the snapshot while applying updates (InvalidArgument,
// nothing swapped). That is a lost race, not a bad request: reload and retry.
bool SequenceNumberTaken(Catalog& catalog, const TableIdentifier& id, int64_t sequence_number, const Error& error) {
  if (error.kind != ErrorKind::kInvalidArgument || sequence_number == 0) return false;
  auto reloaded = catalog.LoadSharedTable(id);
  return reloaded && reloaded->metadata->last_sequence_number >= sequence_number;
}

}  // namespace

int64_t NewSnapshotId(const TableMetadata& table) {
  while (true) {
    int64_t id = 0;
    FillRandom(&id, sizeof id);
    id &= 0x7fffffffffffffffLL;  // positive, as Iceberg's ids are
    if (id != 0 && table.SnapshotById(id) == nullptr) return id;
  }
}

std::string OperationContext::NewMetadataFilePath(const TableMetadata& table, const std::string& suffix) const {
  std::string location = table.location;
  while (!location.empty() && location.back() == '/') location.pop_back();
  return location + "/metadata/" + RandomUuidString() + suffix;
}

Snapshot NewSnapshot(const TableMetadata& base, const Snapshot* head, int64_t snapshot_id, int64_t sequence_number,
                     const std::string& manifest_list, std::map<std::string, std::string> summary) {
  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id;
  if (head) snapshot.parent_snapshot_id = head->snapshot_id;
  snapshot.sequence_number = sequence_number;
  snapshot.timestamp_ms = std::max<int64_t>(NowMillis(), base.last_updated_ms);
  snapshot.manifest_list = manifest_list;
  snapshot.schema_id = base.current_schema_id;
  snapshot.summary = std::move(summary);
  return snapshot;
}

SnapshotRef MovedBranch(const TableMetadata& base, const std::string& branch, int64_t snapshot_id) {
  SnapshotRef ref;
  if (auto it = base.refs.find(branch); it != base.refs.end()) ref = it->second;
  ref.snapshot_id = snapshot_id;
  ref.type = RefType::kBranch;
  return ref;
}

std::string OperationContext::NewManifestListPath(const TableMetadata& table, int64_t snapshot_id, int attempt) const {
  const std::string unique = NewMetadataFilePath(table, ".avro");
  const size_t slash = unique.rfind('/');
  return unique.substr(0, slash + 1) + "snap-" + std::to_string(snapshot_id) + "-" + std::to_string(attempt) + "-" +
         unique.substr(slash + 1);
}

Result<const Snapshot*> BranchHead(const TableMetadata& table, const TableIdentifier& id, const std::string& branch) {
  const Snapshot* head = table.SnapshotForRef(branch);
  if (!head && branch != kMainBranch && !table.refs.count(branch))
    return NotFound("table " + id.ToString() + " has no branch '" + branch + "'");
  return head;
}

std::string IdempotencyKeyProperty(const TableMetadata& table) {
  return table.Property(props::kIdempotencyKeyProperty, props::kIdempotencyKeySummaryDefault);
}

const Snapshot* FindIdempotentSnapshot(const TableMetadata& table, const std::string& branch, const std::string& key) {
  const Snapshot* head = table.SnapshotForRef(branch);
  if (!head) return nullptr;
  std::string property = IdempotencyKeyProperty(table);
  for (const Snapshot* s : table.Ancestry(head->snapshot_id)) {
    auto it = s->summary.find(property);
    if (it != s->summary.end() && it->second == key) return s;
  }
  return nullptr;
}

std::string CommitReport::ToString() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "snapshot %lld (sequence %lld) after %d attempt%s, %d conflict%s; validate %.1f ms, write %.1f ms, "
                "swap %.1f ms, total %.1f ms",
                static_cast<long long>(snapshot_id), static_cast<long long>(sequence_number), attempts,
                attempts == 1 ? "" : "s", conflicts, conflicts == 1 ? "" : "s", validate_ms, write_ms, swap_ms,
                total_ms);
  std::string out = buf;
  if (idempotent_replay) out += " (idempotency key already committed: nothing written)";
  return out;
}

Result<CommitReport> CommitOperation(Catalog& catalog, const TableIdentifier& id, SnapshotOperation& operation,
                                     const CommitOptions& options) {
  const int64_t start = MonotonicMicros();
  CommitReport report;
  OperationContext ctx;
  ctx.io = catalog.io().get();
  ctx.branch = options.branch;
  // New manifests are made durable while the commit goes on; every attempt awaits them before
  // its swap (with the manifest list, through TableCommit::await_files).
  BackgroundWrites background;
  ctx.background_writes = &background;
  FileIO& io = *ctx.io;

  // Shared, not copied: with a long history a copy costs more than the commit's own I/O.
  int64_t attempt_start = MonotonicMicros();  // an attempt runs from its load to the swap's answer
  FLOE_ASSIGN_OR_RETURN(SharedTable loaded, catalog.LoadSharedTable(id));
  FLOE_ASSIGN_OR_RETURN(const RetryPolicy policy, RetryPolicy::Resolve(options.retry, loaded.metadata->properties));
  CommitPacer& pacer = CommitPacer::ForTable(catalog.name() + "/" + id.ToString());

  auto replay = [&](const Snapshot& done, const std::string& location) {
    report.idempotent_replay = true;
    report.snapshot_id = done.snapshot_id;
    report.sequence_number = done.sequence_number;
    report.metadata_location = location;
    report.total_ms = MillisSince(start);
    return report;
  };
  if (options.idempotency_key) {
    if (const Snapshot* done = FindIdempotentSnapshot(*loaded.metadata, options.branch, *options.idempotency_key)) {
      return replay(*done, loaded.metadata_location);
    }
  }

  CommitFiles files(io, operation, background);
  {
    const int64_t t = MonotonicMicros();
    auto prepared = operation.Prepare(ctx, *loaded.metadata);
    report.write_ms += MillisSince(t);
    if (!prepared) {
      files.Abandon();
      return std::unexpected(prepared.error());
    }
  }

  // Under recent contention even a first attempt waits its turn (see commit_pacing.h); it then
  // starts from the table as it is after the wait.
  bool reload = false;
  if (const int64_t wait_us = pacer.FirstAttemptWaitUs(policy); wait_us > 0) {
    report.backoff_ms += static_cast<double>(wait_us) / 1000.0;
    std::this_thread::sleep_for(std::chrono::microseconds(wait_us));
    reload = true;
  }

  std::string last_conflict;
  for (int attempt = 1;; ++attempt, reload = true) {
    report.attempts = attempt;
    if (reload) {
      attempt_start = MonotonicMicros();
      auto reloaded = catalog.LoadSharedTable(id);
      if (!reloaded) {
        files.Abandon();
        return std::unexpected(reloaded.error());
      }
      loaded = std::move(*reloaded);
      if (options.idempotency_key) {
        // Another process (or a lost answer of ours) may have committed the same key meanwhile.
        if (const Snapshot* done = FindIdempotentSnapshot(*loaded.metadata, options.branch, *options.idempotency_key)) {
          files.Abandon();
          return replay(*done, loaded.metadata_location);
        }
      }
    }
    // This attempt's commit, built from the loaded base. The base is let go of before the swap
    // (see below), so everything built from it lives in this block.
    int64_t snapshot_id = 0;
    int64_t sequence_number = 0;
    std::vector<std::string> attempt_files;
    std::vector<std::string> unlisted_files;
    TableCommit commit;
    // The manifest list is written while the catalog writes the document (both flushes
    // overlap); the catalog awaits it before the swap. Declared before `commit`'s hook uses it.
    std::optional<BackgroundWrite> list_write;
    int64_t t = 0;
    {
      const TableMetadata& current = *loaded.metadata;
      const Snapshot* head = current.SnapshotForRef(options.branch);
      if (options.branch != kMainBranch) {
        auto ref = current.refs.find(options.branch);
        if (ref == current.refs.end()) {
          files.Abandon();
          return NotFound("table " + id.ToString() + " has no branch '" + options.branch + "' (create it first)");
        }
        if (ref->second.type == RefType::kTag) {
          files.Abandon();
          return InvalidArgument("'" + options.branch + "' is a tag of " + id.ToString() + "; writes go to branches");
        }
      }

      t = MonotonicMicros();
      auto valid = operation.Validate(ctx, current, head);
      report.validate_ms += MillisSince(t);
      if (!valid) {
        files.Abandon();
        return std::unexpected(valid.error());
      }

      t = MonotonicMicros();
      snapshot_id = NewSnapshotId(current);
      sequence_number = current.format_version >= 2 ? current.last_sequence_number + 1 : 0;
      auto output = operation.Apply(ctx, current, head, snapshot_id, sequence_number);
      if (!output) {
        files.Abandon();
        return std::unexpected(output.error());
      }
      const std::string list_path = ctx.NewManifestListPath(current, snapshot_id, attempt);
      std::optional<int64_t> parent_id;
      if (head) parent_id = head->snapshot_id;
      auto list_bytes = ManifestListBytes(current, output->manifests, snapshot_id, parent_id, sequence_number);
      attempt_files = output->attempt_files;
      unlisted_files = output->unlisted_files;
      if (!list_bytes) {
        DeleteQuietly(io, attempt_files);
        files.Abandon();
        return std::unexpected(list_bytes.error());
      }
      list_write.emplace(io, list_path, std::move(*list_bytes));
      attempt_files.push_back(list_path);

      Snapshot snapshot =
          NewSnapshot(current, head, snapshot_id, sequence_number, list_path,
                      output->summary.Build(operation.operation(), head ? &head->summary : nullptr));
      for (const auto& [k, v] : options.summary) snapshot.summary[k] = v;
      if (options.idempotency_key) snapshot.summary[IdempotencyKeyProperty(current)] = *options.idempotency_key;
      const SnapshotRef ref = MovedBranch(current, options.branch, snapshot_id);

      commit.id = id;
      commit.requirements.push_back(AssertTableUuid{current.table_uuid});
      commit.requirements.push_back(AssertRefSnapshotId{options.branch, parent_id});
      commit.updates.push_back(AddSnapshot{snapshot});
      commit.updates.push_back(SetSnapshotRef{options.branch, ref});
      // Both are always joined, so that nothing is deleted while it is still being written.
      commit.await_files = [&list_write, &background]() -> Status {
        Status manifests = background.WaitAll();
        Status list = list_write->Wait();
        return manifests ? list : manifests;
      };
      report.write_ms += MillisSince(t);
    }
    // With the base let go of, the catalog can move it into the new document instead of
    // copying the whole history (catalog/commit.cc, OwnedBase).
    loaded.metadata.reset();

    if (options.before_swap) options.before_swap(attempt);

    t = MonotonicMicros();
    auto committed = catalog.CommitSharedTable(commit);
    // Whatever the catalog did, the writes have ended before any file is kept or deleted.
    const Status written = commit.await_files();
    report.swap_ms += MillisSince(t);
    if (!written && committed) {
      // Catalogs await the files before they swap (TableCommit::await_files); one that did not
      // has published a snapshot whose files may be missing. Keep every file and say so.
      return IOError("commit to " + id.ToString() + " landed but a file it points to failed to be written: " +
                     written.error().message);
    }
    if (!written) {
      // The catalog swaps only after the files are written: this attempt certainly failed.
      DeleteQuietly(io, attempt_files);
      files.Abandon();
      return std::unexpected(written.error().WithContext("writing the manifests of " + id.ToString()));
    }

    auto landed = [&](const std::string& location) {
      pacer.Landed(MonotonicMicros() - attempt_start);
      files.Landed(unlisted_files);
      report.snapshot_id = snapshot_id;
      report.sequence_number = sequence_number;
      report.metadata_location = location;
      report.total_ms = MillisSince(start);
      return report;
    };
    if (committed) return landed(committed->metadata_location);

    const Error& error = committed.error();
    if (error.kind == ErrorKind::kCommitStateUnknown) {
      // Reconcile: the reload tells whether our swap landed.
      auto reloaded = catalog.LoadSharedTable(id);
      if (reloaded && reloaded->metadata->SnapshotById(snapshot_id) != nullptr) {
        report.reconciled_unknown = true;
        return landed(reloaded->metadata_location);
      }
      if (!reloaded) {
        // We cannot tell: keep every file and report the unknown outcome.
        return std::unexpected(error.WithContext("commit to " + id.ToString() + " may or may not have landed"));
      }
      // Certainly not landed (the reload shows no trace of it): the attempt failed.
      files.AttemptFailed(attempt_files);
      last_conflict = "lost answer: " + error.message;
    } else if (error.kind == ErrorKind::kCommitConflict || SequenceNumberTaken(catalog, id, sequence_number, error)) {
      ++report.conflicts;
      last_conflict = error.message;
      report.conflict_reasons.push_back(error.message);
      files.AttemptFailed(attempt_files);
    } else {
      // Anything else (I/O, unavailable) may have happened before or after the swap point of a
      // backend we do not know: keep this attempt's files and the prepared ones.
      files.KeepPrepared();
      files.Abandon();
      return std::unexpected(error);
    }

    const double elapsed = MillisSince(start);
    if (!policy.MayRetry(attempt, elapsed)) {
      files.Abandon();
      return std::unexpected(policy.GaveUp("commit to " + id.ToString(), attempt, elapsed, last_conflict));
    }
    const int64_t wait_us = pacer.LostAttemptWaitUs(policy, MonotonicMicros() - attempt_start);
    report.backoff_ms += static_cast<double>(wait_us) / 1000.0;
    std::this_thread::sleep_for(std::chrono::microseconds(wait_us));
  }
}

}  // namespace floe
