#include "txn/commit_engine.h"

#include <chrono>
#include <set>
#include <thread>
#include <utility>

#include "meta/metadata_builder.h"
#include "txn/commit_pacing.h"
#include "util/clock.h"

namespace floe {
namespace {

double MillisSince(int64_t start_micros) { return (MonotonicMicros() - start_micros) / 1000.0; }

void SleepMicros(int64_t us) { std::this_thread::sleep_for(std::chrono::microseconds(us)); }

// Whether every one is gone (a file already absent counts).
bool DeleteQuietly(FileIO& io, const std::vector<std::string>& paths) {
  bool all = true;
  for (const auto& p : paths) all = io.Delete(p).has_value() && all;
  return all;
}

// Whether `table` already shows every one of `updates`: applying them again changes nothing.
// After a lost answer this tells that a commit adding no snapshot (or an identical one) landed.
bool AlreadyApplied(const SharedTable& table, const std::vector<TableUpdate>& updates) {
  MetadataBuilder builder = MetadataBuilder::From(*table.metadata, table.metadata_location);
  if (!builder.ApplyAll(updates)) return false;
  auto built = builder.Build(table.metadata->last_updated_ms);
  return built && built->metadata_log.size() == table.metadata->metadata_log.size() &&
         built->last_updated_ms == table.metadata->last_updated_ms;
}

// The files a commit has written, and the one place that decides which of them may go.
class CommitFiles {
 public:
  CommitFiles(FileIO& io, const CommitPlan& plan, std::function<void()> discard_written, BackgroundWrites& background)
      : io_(io), plan_(plan), discard_written_(std::move(discard_written)), background_(background) {}

  // The write intent naming the commit's files (cleared here, and only here, for the engine).
  void SetNames(FileNamer* names) { names_ = names; }
  // An attempt that wrote `files` is lost: they are garbage.
  void AttemptLost(const std::vector<std::string>& files) { lost_.insert(lost_.end(), files.begin(), files.end()); }
  // The commit landed: lost attempts' files are garbage, and so are those it wrote but lists
  // nowhere. Every file the intent names is then referenced or gone: it is cleared.
  void Landed(const std::vector<std::string>& unlisted) {
    const bool deleted = DeleteLost();
    if (DeleteQuietly(io_, unlisted) && deleted) ClearIntent();
  }
  // Every attempt is lost (or none was needed): everything the commit wrote goes, then its
  // intent.
  void AllLost() {
    const bool deleted = DeleteLost() && DeleteQuietly(io_, plan_.prepared_files());
    if (discard_written_) std::exchange(discard_written_, nullptr)();
    if (deleted) ClearIntent();
  }
  // The last attempt's fate is unknown: only the lost attempts' own files go; the intent stays
  // for the reclamation, which keeps whatever a landed commit references.
  void OutcomeUnknown() { (void)DeleteLost(); }

 private:
  bool DeleteLost() {
    (void)background_.WaitAll();  // nothing is deleted while it may still be being written
    return DeleteQuietly(io_, lost_);
  }
  // A failed clear leaves a stale intent whose files are referenced or gone: harmless.
  void ClearIntent() {
    if (names_) (void)names_->Clear();
  }

  FileNamer* names_ = nullptr;
  FileIO& io_;
  const CommitPlan& plan_;
  std::function<void()> discard_written_;  // called at most once
  BackgroundWrites& background_;
  std::vector<std::string> lost_;
};

class CommitEngine {
 public:
  CommitEngine(Catalog& catalog, CommitPlan& plan, const CommitOptions& options)
      : catalog_(catalog),
        plan_(plan),
        options_(options),
        files_(*catalog.io(), plan, options.discard_written_files, background_),
        pacer_(CommitPacer::ForTable(catalog.name() + "/" + plan.id().ToString())) {
    ctx_.io = catalog.io().get();
    ctx_.background_writes = &background_;
    files_.SetNames(options.names);
  }

  Result<CommitOutcome> Run();

 private:
  Status Load();
  std::optional<CommitOutcome> Replayed();
  bool PaceFirstAttempt();
  void RunAttempt(Attempt& attempt);
  void Swap(Attempt& attempt);
  void Reconcile(Attempt& attempt, const Error& error);
  bool SequenceNumberTaken(const Attempt& attempt, const Error& error);
  void Lose(Attempt& attempt, Error error, bool may_retry);
  void Unknown(Attempt& attempt, Error error);
  CommitOutcome Landed(Attempt& attempt);
  Result<CommitOutcome> AllLost(const Error& error);
  CommitOutcome Done(const SharedTable& table);

  Catalog& catalog_;
  CommitPlan& plan_;
  const CommitOptions& options_;
  // New manifests are made durable while the commit goes on; every attempt awaits them before
  // its swap (with its manifest lists, through TableCommit::await_files).
  BackgroundWrites background_;
  CommitFiles files_;
  CommitPacer& pacer_;
  OperationContext ctx_;
  RetryPolicy policy_;
  CommitReport report_;
  const int64_t start_us_ = MonotonicMicros();
  int64_t attempt_start_us_ = 0;  // an attempt runs from its load to the swap's answer
  SharedTable table_;             // as last loaded; let go of before each swap
  SharedTable landed_;            // set when an attempt is swapped
  std::set<int64_t> our_snapshot_ids_;
  // How the last attempt ended, when it did not land.
  std::optional<Error> error_;
  bool may_retry_ = false;
  bool lost_race_ = false;  // the last attempt lost the swap to another writer's landed commit
  // Lost attempts charged to commit.retry.num-retries. An append's lost race is not: it is the
  // client-side form of the server's append rebase (only its manifest list and metadata are
  // rebuilt on the new head), bounded by commit.retry.total-timeout-ms alone, as Iceberg's
  // time budget bounds every retry. Under a table saturated by writers in processes that share
  // nothing, a count would make the unlucky give up however the waits are spread.
  int retries_spent_ = 0;
  std::string last_conflict_;
};

Result<CommitOutcome> CommitEngine::Run() {
  if (Status loaded = Load(); !loaded) return AllLost(loaded.error());
  ctx_.names = options_.names;
  if (plan_.empty()) return Done(table_);
  auto policy = RetryPolicy::Resolve(options_.retry, table_.metadata->properties);
  if (!policy) return AllLost(policy.error());
  policy_ = *policy;
  if (auto replayed = Replayed()) return *replayed;
  const int64_t t = MonotonicMicros();
  Status prepared = plan_.Prepare(ctx_, *table_.metadata);
  report_.write_ms += MillisSince(t);
  if (!prepared) return AllLost(prepared.error());

  for (bool reload = PaceFirstAttempt();; reload = true) {
    if (reload) {
      if (Status loaded = Load(); !loaded) return AllLost(loaded.error());
      if (auto replayed = Replayed()) return *replayed;
    }
    Attempt attempt;
    attempt.number = ++report_.attempts;
    RunAttempt(attempt);
    if (attempt.state == AttemptState::kSwapped) return Landed(attempt);
    if (attempt.state == AttemptState::kUnknown) {
      files_.OutcomeUnknown();
      return std::unexpected(*error_);
    }
    (void)attempt.WaitForLists();  // a build that stopped half-way may still be writing
    files_.AttemptLost(attempt.files);
    if (!may_retry_) return AllLost(*error_);
    if (!(lost_race_ && plan_.OnlyAppends())) ++retries_spent_;
    const double elapsed = MillisSince(start_us_);
    if (!policy_.MayRetry(retries_spent_, elapsed))
      return AllLost(policy_.GaveUp(plan_.what(), attempt.number, elapsed, last_conflict_));
    const int64_t wait_us = pacer_.LostAttemptWaitUs(policy_, MonotonicMicros() - attempt_start_us_);
    report_.backoff_ms += static_cast<double>(wait_us) / 1000.0;
    SleepMicros(wait_us);
  }
}

// Shared, not copied: with a long history a copy costs more than the commit's own I/O.
Status CommitEngine::Load() {
  attempt_start_us_ = MonotonicMicros();
  FLOE_ASSIGN_OR_RETURN(table_, catalog_.LoadSharedTable(plan_.id()));
  return Ok();
}

// The plan's idempotency key already in its branch's ancestry: the commit is done, by another
// process or by one of our own attempts whose answer was lost.
std::optional<CommitOutcome> CommitEngine::Replayed() {
  const auto branch = plan_.key_branch();
  if (!branch) return std::nullopt;
  const Snapshot* done = FindIdempotentSnapshot(*table_.metadata, *branch, *plan_.idempotency_key());
  if (!done) return std::nullopt;
  report_.snapshot_id = done->snapshot_id;
  report_.sequence_number = done->sequence_number;
  if (our_snapshot_ids_.count(done->snapshot_id)) {
    // An attempt of ours landed after a reload said it had not: its files stay, and so does
    // everything else (which attempt wrote which is not worth the risk).
    report_.reconciled_unknown = true;
  } else {
    report_.idempotent_replay = true;
    files_.AllLost();
  }
  return Done(table_);
}

// Under recent contention even a first attempt waits its turn (commit_pacing.h); it then
// starts from the table as it is after the wait.
bool CommitEngine::PaceFirstAttempt() {
  const int64_t wait_us = pacer_.FirstAttemptWaitUs(policy_);
  if (wait_us <= 0) return false;
  report_.backoff_ms += static_cast<double>(wait_us) / 1000.0;
  SleepMicros(wait_us);
  return true;
}

void CommitEngine::RunAttempt(Attempt& attempt) {
  Status built = plan_.Build(ctx_, *table_.metadata, attempt, report_);
  if (!built) return Lose(attempt, built.error(), /*may_retry=*/false);
  our_snapshot_ids_.insert(attempt.snapshot_ids.begin(), attempt.snapshot_ids.end());
  // With the base let go of, the catalog can move it into the new document instead of
  // copying the whole history (catalog/commit.cc, OwnedBase).
  table_.metadata.reset();
  if (options_.before_swap) options_.before_swap(attempt.number);
  Swap(attempt);
}

void CommitEngine::Swap(Attempt& attempt) {
  const int64_t t = MonotonicMicros();
  // Both are always joined, so that nothing is deleted while it is still being written.
  attempt.commit.await_files = [this, &attempt]() -> Status {
    Status manifests = background_.WaitAll();
    Status lists = attempt.WaitForLists();
    return manifests ? lists : manifests;
  };
  auto committed = catalog_.CommitSharedTable(attempt.commit);
  // Whatever the catalog did, the writes have ended before any file is kept or deleted.
  const Status written = attempt.commit.await_files();
  report_.swap_ms += MillisSince(t);
  const std::string& what = plan_.what();
  if (!written && committed) {
    // Catalogs await the files before they swap (TableCommit::await_files); one that did not
    // has published a snapshot whose files may be missing. Keep every file and say so.
    return Unknown(attempt, Error{ErrorKind::kIOError, what + " landed but a file it points to failed to be written: " +
                                                           written.error().message});
  }
  // The catalog swaps only after the files are written: this attempt certainly failed.
  if (!written) return Lose(attempt, written.error().WithContext("writing the manifests of " + plan_.id().ToString()), false);
  if (committed) {
    attempt.state = AttemptState::kSwapped;
    landed_ = std::move(*committed);
    return;
  }
  const Error& error = committed.error();
  if (error.kind == ErrorKind::kCommitStateUnknown) return Reconcile(attempt, error);
  if (error.kind == ErrorKind::kCommitConflict || SequenceNumberTaken(attempt, error)) {
    ++report_.conflicts;
    report_.conflict_reasons.push_back(error.message);
    last_conflict_ = error.message;
    Lose(attempt, error, /*may_retry=*/true);
    lost_race_ = true;
    return;
  }
  // Anything else (I/O, unavailable) may have happened before or after the swap point of a
  // backend we do not know.
  Unknown(attempt, error);
}

// A lost answer: the reload tells whether the swap happened.
void CommitEngine::Reconcile(Attempt& attempt, const Error& error) {
  auto reloaded = catalog_.LoadSharedTable(plan_.id());
  if (!reloaded) return Unknown(attempt, error.WithContext(plan_.what() + " may or may not have landed"));
  const bool landed = attempt.snapshot_id() != 0 ? reloaded->metadata->SnapshotById(attempt.snapshot_id()) != nullptr
                                                 : AlreadyApplied(*reloaded, attempt.commit.updates);
  if (landed) {
    report_.reconciled_unknown = true;
    attempt.state = AttemptState::kSwapped;
    landed_ = std::move(*reloaded);
    return;
  }
  // The reload shows no trace of it: the attempt certainly failed, and may be tried again.
  last_conflict_ = "lost answer: " + error.message;
  Lose(attempt, error, /*may_retry=*/true);
}

// A commit to another branch can take the sequence number this attempt chose without moving
// its branch: the catalog then refuses the snapshot while applying updates (InvalidArgument,
// nothing swapped). That is a lost race, not a bad request.
bool CommitEngine::SequenceNumberTaken(const Attempt& attempt, const Error& error) {
  if (error.kind != ErrorKind::kInvalidArgument || attempt.first_sequence_number == 0) return false;
  auto reloaded = catalog_.LoadSharedTable(plan_.id());
  return reloaded && reloaded->metadata->last_sequence_number >= attempt.first_sequence_number;
}

void CommitEngine::Lose(Attempt& attempt, Error error, bool may_retry) {
  attempt.state = AttemptState::kLost;
  lost_race_ = false;
  error_ = std::move(error);
  may_retry_ = may_retry;
}

void CommitEngine::Unknown(Attempt& attempt, Error error) {
  attempt.state = AttemptState::kUnknown;
  error_ = std::move(error);
}

CommitOutcome CommitEngine::Landed(Attempt& attempt) {
  pacer_.Landed(MonotonicMicros() - attempt_start_us_);
  files_.Landed(attempt.unlisted);
  report_.snapshot_id = attempt.snapshot_id();
  report_.sequence_number = attempt.last_sequence_number;
  return Done(landed_);
}

Result<CommitOutcome> CommitEngine::AllLost(const Error& error) {
  files_.AllLost();
  return std::unexpected(error);
}

CommitOutcome CommitEngine::Done(const SharedTable& table) {
  report_.metadata_location = table.metadata_location;
  report_.total_ms = MillisSince(start_us_);
  return CommitOutcome{report_, table};
}

}  // namespace

Result<CommitOutcome> RunCommit(Catalog& catalog, CommitPlan& plan, const CommitOptions& options) {
  return CommitEngine(catalog, plan, options).Run();
}

}  // namespace floe
