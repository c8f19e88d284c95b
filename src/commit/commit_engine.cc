#include "commit/commit_engine.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <thread>
#include <utility>

#include "catalog/commit.h"
#include "catalog/document_namer.h"
#include "catalog/intent_store.h"
#include "commit/commit_base.h"
#include "commit/commit_scheduler.h"
#include "commit/snapshot_lineage.h"
#include "meta/metadata_builder.h"
#include "util/clock.h"

namespace floe {
namespace {

void SleepMicros(int64_t us) { std::this_thread::sleep_for(std::chrono::microseconds(us)); }

// Whether every one is gone (a file already absent counts). One DeleteFiles: on an object
// store the lost attempts' files of a commit go in one request, not one round trip each.
bool DeleteQuietly(FileIO& io, const std::vector<std::string>& paths) {
  return paths.empty() || io.DeleteFiles(paths).has_value();
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

SharedTable Share(LoadedTable&& table) {
  return SharedTable{std::move(table.id), std::move(table.metadata_location),
                     std::make_shared<TableMetadata>(std::move(table.metadata))};
}

// The files one table's share of a commit has written, and the one place that decides which
// of them may go. (The caller's own written files are the engine's: see CommitEngine::AllLost.)
class CommitFiles {
 public:
  CommitFiles(FileIO& io, const CommitPlan& plan, BackgroundWrites& background)
      : io_(io), plan_(plan), background_(background) {}

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
  // Every attempt is lost (or none was needed): everything the plan wrote goes. Whether all of
  // it is gone; the intent is cleared by the engine once the caller's files are gone too.
  bool DeleteAll() { return DeleteLost() && DeleteQuietly(io_, plan_.prepared_files()); }
  // The last attempt's fate is unknown: only the lost attempts' own files go; the intent stays
  // for the reclamation, which keeps whatever a landed commit references.
  void OutcomeUnknown() { (void)DeleteLost(); }
  // A failed clear leaves a stale intent whose files are referenced or gone: harmless.
  void ClearIntent() {
    if (names_) (void)names_->Clear();
  }

 private:
  bool DeleteLost() {
    (void)background_.WaitAll();  // nothing is deleted while it may still be being written
    const bool deleted = DeleteQuietly(io_, lost_);
    lost_.clear();
    return deleted;
  }

  FileNamer* names_ = nullptr;
  FileIO& io_;
  const CommitPlan& plan_;
  BackgroundWrites& background_;
  std::vector<std::string> lost_;
};

// One table's share of a commit: its plan, the table as last loaded, and the current attempt.
struct Part {
  Part(Catalog& catalog, CommitScheduler& scheduler, CommitPlan& plan, BackgroundWrites& background)
      : plan(plan),
        files(*catalog.io(), plan, background),
        pacer(scheduler.PacingOf(catalog.name() + "/" + plan.id().ToString())) {}

  CommitPlan& plan;
  FileNamer* names = nullptr;  // this table's write intent: the caller's, else own_names
  std::unique_ptr<FileNamer> own_names;
  CommitFiles files;
  CommitScheduler::Pacing& pacer;
  std::string turns_key;  // the key of the table's turns in this process; empty: it takes none
  SharedTable table;   // as last loaded; let go of before each swap
  SharedTable landed;  // set when the attempt is swapped
  std::set<int64_t> our_snapshot_ids;
  Attempt attempt;
  const Snapshot* replayed = nullptr;  // the snapshot holding the plan's key, when found
};

class CommitEngine {
 public:
  CommitEngine(Catalog& catalog, const std::vector<CommitPlan*>& plans, const CommitOptions& options)
      : catalog_(catalog),
        capabilities_(catalog.capabilities()),
        scheduler_(options.scheduler          ? *options.scheduler
                   : catalog.commit_scheduler() ? *catalog.commit_scheduler()
                                                : UnscheduledCommits()),
        options_(options),
        discard_written_(options.discard_written_files) {
    for (CommitPlan* plan : plans) parts_.push_back(std::make_unique<Part>(catalog, scheduler_, *plan, background_));
    ctx_.io = catalog.io().get();
    ctx_.background_writes = &background_;
    // A write intent belongs to one table: each plan's own, or the options' for a single table.
    for (const auto& part : parts_) {
      part->names = part->plan.names() ? part->plan.names() : parts_.size() == 1 ? options.names : nullptr;
      part->files.SetNames(part->names);
    }
  }

  Result<std::vector<CommitOutcome>> Run();

 private:
  // The table of every part, as the options hand it (the first load of a one-table commit)
  // or loaded now.
  Status Load();
  // A table whose caller gave no write intent (a commit of files written earlier, such as
  // add-files or a cherry-pick, or a metadata-only change) gets one of its own, so that the
  // manifests, manifest lists and (SQL catalogs) metadata document the commit writes before
  // its swap are named before they exist (invariant 10). It records nothing until the commit
  // names a file, so a change that writes nothing before its swap (a metadata-only change in
  // the storage catalog, whose document is the swap) pays nothing; the clear of one that
  // landed is deferred by the catalog (catalog/intent_store.h), not a request of the commit.
  void NameUnnamedParts();
  std::optional<std::vector<CommitOutcome>> Replayed();
  bool PaceFirstAttempt();
  void FindTurns();
  // Waits for this commit's turn on each table (the scheduler's); whether a base loaded before
  // is stale because an attempt of this process landed since.
  bool TakeTurns(std::vector<std::pair<Part*, std::unique_ptr<CommitScheduler::Turn>>>& turns);
  // Tells a catalog whose document is its pointer where the table now is, when an attempt of
  // this process (through another catalog object) left it there.
  void StartReloadAt(const Part& part, const std::string& location);
  void RunAttempt(int number);
  void Swap();
  Result<std::vector<SharedTable>> SwapPointers();
  void Reconcile(const Error& error);
  bool SequenceNumberTaken(const Error& error);
  void SetState(AttemptState state);
  void Lose(Error error, bool may_retry);
  void Unknown(Error error);
  std::vector<CommitOutcome> Landed();
  Result<std::vector<CommitOutcome>> AllLost(const Error& error);
  std::vector<CommitOutcome> Done();
  // Everything the commit wrote is garbage: the plans' files, then the caller's, then the
  // intents that named them.
  void DiscardEverything();
  bool empty() const;
  bool OnlyAppends() const;  // every table's plan only appends
  // The catalog's server orders commits itself (CatalogCapabilities::server_orders_commits).
  bool ThroughServer() const { return capabilities_.server_orders_commits; }
  // Whether `part`'s attempt goes through the group commit: a plan of one append, whose
  // attempt is one add-snapshot and one set-snapshot-ref.
  bool Coalesces(const Part& part) const;
  // "commit to db.t" for one table, "commit to db.a, db.b" for several.
  std::string What() const;

  Catalog& catalog_;
  const CatalogCapabilities capabilities_;
  CommitScheduler& scheduler_;  // the options', else the catalog's, else none
  const CommitOptions& options_;
  std::function<void()> discard_written_;  // called at most once
  // New manifests are made durable while the commit goes on; every attempt awaits them before
  // its swap (with its manifest lists, through TableCommit::await_files).
  BackgroundWrites background_;
  std::vector<std::unique_ptr<Part>> parts_;
  OperationContext ctx_;
  RetryPolicy policy_;
  CommitReport report_;
  const int64_t start_us_ = MonotonicMicros();
  int64_t attempt_start_us_ = 0;  // an attempt runs from its load to the swap's answer
  // When the base of the attempt was loaded: its start, or earlier for a base the options
  // handed (a turn that landed since makes it stale).
  int64_t base_loaded_us_ = 0;
  // How the current attempt ended, when it did not land. One state for every part: the
  // catalog swaps all of a commit's tables or none.
  AttemptState state_ = AttemptState::kPrepared;
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

Result<std::vector<CommitOutcome>> CommitEngine::Run() {
  // A catalog that swaps one pointer at a time says so: refused before anything is written.
  if (parts_.size() > 1 && !capabilities_.multi_table_commits)
    return AllLost(Error{ErrorKind::kNotSupported, "catalog " + catalog_.name() + " cannot commit " +
                                                       std::to_string(parts_.size()) +
                                                       " tables atomically; commit them one by one or use a SQL catalog"});
  if (Status loaded = Load(); !loaded) return AllLost(loaded.error());
  NameUnnamedParts();
  if (empty()) return Done();
  // The strictest table's policy binds the whole commit (for one table: its own).
  for (const auto& part : parts_) {
    auto policy = RetryPolicy::Resolve(options_.retry, part->table.metadata->properties);
    if (!policy) return AllLost(policy.error());
    if (&part == &parts_.front() || policy->num_retries < policy_.num_retries) policy_ = *policy;
  }
  if (auto replayed = Replayed()) return *replayed;
  FindTurns();
  const int64_t t = MonotonicMicros();
  for (const auto& part : parts_) {
    ctx_.names = part->names;
    Status prepared = part->plan.Prepare(ctx_, *part->table.metadata);
    if (!prepared) {
      report_.write_ms += MillisSince(t);
      return AllLost(prepared.error());
    }
  }
  report_.write_ms += MillisSince(t);

  for (bool reload = PaceFirstAttempt();; reload = true) {
    // Held from the (re)load to the swap's answer, and on every way out of this attempt.
    std::vector<std::pair<Part*, std::unique_ptr<CommitScheduler::Turn>>> turns;
    if (TakeTurns(turns)) reload = true;
    if (reload) {
      if (Status loaded = Load(); !loaded) return AllLost(loaded.error());
      if (auto replayed = Replayed()) return *replayed;
    }
    RunAttempt(++report_.attempts);
    // Told before the turn passes on, so that the next thread's load does not take this
    // process's own commit for another process's (the pacing's rule on loads).
    if (state_ == AttemptState::kSwapped) {
      for (const auto& part : parts_)
        part->pacer.Landed(MonotonicMicros() - attempt_start_us_,
                           part->landed.metadata ? part->landed.metadata->last_sequence_number : 0);
    }
    for (auto& [part, turn] : turns)
      turn->End(state_ == AttemptState::kSwapped ? part->landed.metadata_location : std::string());
    if (state_ == AttemptState::kSwapped) return Landed();
    if (state_ == AttemptState::kUnknown) {
      for (const auto& part : parts_) part->files.OutcomeUnknown();
      return std::unexpected(*error_);
    }
    for (const auto& part : parts_) {
      (void)part->attempt.WaitForLists();  // a build that stopped half-way may still be writing
      part->files.AttemptLost(part->attempt.files);
    }
    if (!may_retry_) return AllLost(*error_);
    if (!(lost_race_ && OnlyAppends())) ++retries_spent_;
    const double elapsed = MillisSince(start_us_);
    if (!policy_.MayRetry(retries_spent_, elapsed))
      return AllLost(policy_.GaveUp(What(), report_.attempts, elapsed, last_conflict_));
    int64_t wait_us = 0;
    for (const auto& part : parts_)
      wait_us = std::max(wait_us, part->pacer.LostAttemptWaitUs(policy_, MonotonicMicros() - attempt_start_us_));
    report_.backoff_ms += static_cast<double>(wait_us) / 1000.0;
    SleepMicros(wait_us);
  }
}

// Shared, not copied: with a long history a copy costs more than the commit's own I/O.
Status CommitEngine::Load() {
  attempt_start_us_ = base_loaded_us_ = MonotonicMicros();
  if (parts_.size() == 1 && options_.base) {
    Part& part = *parts_.front();
    // An append this process may group with its other appends to the table starts from a load
    // of its own, taken when the commit starts: those appends land while its files are written,
    // and a base loaded before that would be behind them and lose its swap (a retry costs more
    // than the load). The handed base is still taken, so that nothing keeps it alive.
    const bool groups = options_.coalesce_appends && part.plan.OnlyAppends() && !ThroughServer();
    auto handed = options_.base->Take(part.plan.id(), &base_loaded_us_);
    if (handed && !groups) {
      part.table = std::move(*handed);
      if (part.table.metadata && !ThroughServer()) part.pacer.Loaded(part.table.metadata->last_sequence_number);
      return Ok();
    }
    base_loaded_us_ = attempt_start_us_;
  }
  for (const auto& part : parts_) {
    FLOE_ASSIGN_OR_RETURN(part->table, catalog_.LoadSharedTable(part->plan.id()));
    if (part->table.metadata && !ThroughServer()) part->pacer.Loaded(part->table.metadata->last_sequence_number);
  }
  return Ok();
}

void CommitEngine::NameUnnamedParts() {
  for (const auto& part : parts_) {
    if (part->names) continue;
    part->own_names = NewWriteNamer(catalog_, part->plan.id(), *part->table.metadata);
    part->names = part->own_names.get();
    part->files.SetNames(part->names);
  }
}

bool CommitEngine::OnlyAppends() const {
  return std::all_of(parts_.begin(), parts_.end(), [](const auto& part) { return part->plan.OnlyAppends(); });
}

// Not where a server orders commits: it groups and rebases its clients' requests itself, and a
// request holding several appends is not one it could rebase.
bool CommitEngine::Coalesces(const Part& part) const {
  return options_.coalesce_appends && !ThroughServer() &&
         part.plan.OnlyAppends() && part.attempt.snapshot_ids.size() == 1 && part.attempt.commit.updates.size() == 2;
}

bool CommitEngine::empty() const {
  return std::all_of(parts_.begin(), parts_.end(), [](const auto& part) { return part->plan.empty(); });
}

std::string CommitEngine::What() const {
  if (parts_.size() == 1) return parts_.front()->plan.what();
  std::string tables;
  for (const auto& part : parts_) tables += (tables.empty() ? "" : ", ") + part->plan.id().ToString();
  return "commit to " + tables;
}

// Every plan's idempotency key already in its branch's ancestry: the commit is done, by
// another process or by one of our own attempts whose answer was lost. A commit of several
// tables lands in all of them or none, so it is done only when every table shows its key.
std::optional<std::vector<CommitOutcome>> CommitEngine::Replayed() {
  bool ours = false;
  std::vector<const Snapshot*> done;
  for (const auto& part : parts_) {
    const auto branch = part->plan.key_branch();
    if (!branch) return std::nullopt;
    done.push_back(FindIdempotentSnapshot(*part->table.metadata, *branch, *part->plan.idempotency_key()));
    if (!done.back()) return std::nullopt;
    ours = ours || part->our_snapshot_ids.count(done.back()->snapshot_id) > 0;
  }
  for (size_t i = 0; i < parts_.size(); ++i) parts_[i]->replayed = done[i];
  if (ours) {
    // An attempt of ours landed after a reload said it had not: its files stay, and so does
    // everything else (which attempt wrote which is not worth the risk).
    report_.reconciled_unknown = true;
  } else {
    report_.idempotent_replay = true;
    DiscardEverything();
  }
  for (const auto& part : parts_) part->landed = part->table;
  return Done();
}

// Under recent contention even a first attempt waits its turn (the scheduler's pacing); it then
// starts from the table as it is after the wait.
bool CommitEngine::PaceFirstAttempt() {
  int64_t wait_us = 0;
  // Through a REST server a client's run captures nothing (the server retries, rebases and
  // groups its clients' commits), so neither probes nor loads that find others' commits apply.
  const bool probe_runs = !ThroughServer();
  for (const auto& part : parts_) wait_us = std::max(wait_us, part->pacer.FirstAttemptWaitUs(policy_, probe_runs));
  if (wait_us <= 0) return false;
  report_.backoff_ms += static_cast<double>(wait_us) / 1000.0;
  SleepMicros(wait_us);
  return true;
}

// Not where a server orders commits: it groups the requests of a process's threads itself,
// which needs them to overlap. A single append's party is the catalog object, whose group
// commit needs the appends of its threads to overlap (CommitScheduler::CommitAppend); any
// other commit's is this commit alone.
void CommitEngine::FindTurns() {
  if (!options_.take_turns || ThroughServer()) return;
  for (const auto& part : parts_) part->turns_key = scheduler_.TurnKeyOf(*part->table.metadata);
}

bool CommitEngine::TakeTurns(std::vector<std::pair<Part*, std::unique_ptr<CommitScheduler::Turn>>>& turns) {
  std::vector<Part*> order;
  for (const auto& part : parts_) {
    if (!part->turns_key.empty()) order.push_back(part.get());
  }
  // One order for every commit of several tables, so that two of them never wait for each other.
  std::sort(order.begin(), order.end(), [](const Part* a, const Part* b) { return a->turns_key < b->turns_key; });
  const bool appends_together = parts_.size() == 1 && options_.coalesce_appends && OnlyAppends();
  const void* party = appends_together ? static_cast<const void*>(&catalog_) : this;
  bool stale = false;
  for (Part* part : order) {
    std::unique_ptr<CommitScheduler::Turn> turn = scheduler_.TakeTurn(part->turns_key, party);
    if (!turn) continue;
    if (turn->LandedSince(base_loaded_us_)) {
      stale = true;
      StartReloadAt(*part, turn->landed_location());
    }
    report_.turn_wait_ms += static_cast<double>(turn->waited_us()) / 1000.0;
    turns.emplace_back(part, std::move(turn));
  }
  return stale;
}

// On the storage catalog a reload walks forward HEAD by HEAD from the version its catalog
// object last saw, one round trip per version that landed since; told that the document the
// last turn left exists (PointerStore::DocumentTaken), it GETs that one at once. Only for a
// document in this table's own metadata folder (turns are keyed by uuid, which two tables
// may share).
void CommitEngine::StartReloadAt(const Part& part, const std::string& location) {
  PointerStore* store = capabilities_.pointer_store;
  if (!store || !store->DocumentIsPointer() || location.empty()) return;
  const std::string& ours = part.table.metadata_location;
  const size_t folder = ours.rfind('/');
  if (folder == std::string::npos || location.size() <= folder || location.compare(0, folder + 1, ours, 0, folder + 1) != 0 ||
      location.find('/', folder + 1) != std::string::npos)
    return;
  store->DocumentTaken(part.plan.id(), location);
}

void CommitEngine::RunAttempt(int number) {
  state_ = AttemptState::kPrepared;
  for (const auto& part : parts_) {
    part->attempt = Attempt{};
    part->attempt.number = number;
  }
  for (const auto& part : parts_) {
    ctx_.names = part->names;
    Status built = part->plan.Build(ctx_, *part->table.metadata, part->attempt, report_);
    if (!built) return Lose(built.error(), /*may_retry=*/false);
    part->our_snapshot_ids.insert(part->attempt.snapshot_ids.begin(), part->attempt.snapshot_ids.end());
  }
  // With the base let go of, the catalog can move it into the new document instead of
  // copying the whole history (catalog/commit.cc, OwnedBase).
  for (const auto& part : parts_) part->table.metadata.reset();
  if (options_.before_swap) options_.before_swap(number);
  Swap();
}

// One table: its own swap, or for a single append the group commit of the appends this
// process makes to the table at the same time. Several: the catalog's atomic swap of all
// their pointers.
Result<std::vector<SharedTable>> CommitEngine::SwapPointers() {
  if (parts_.size() == 1) {
    Part& part = *parts_.front();
    const int number = part.attempt.number;
    Result<SharedTable> table =
        Coalesces(part) ? scheduler_.CommitAppend(catalog_, part.attempt.commit,
                                                  [this, number](const TableMetadata& t, int64_t snapshot_id) {
                                                    return ctx_.NewManifestListPath(t, snapshot_id, number);
                                                  })
                        : catalog_.CommitSharedTable(part.attempt.commit);
    if (!table) return std::unexpected(std::move(table.error()));
    return std::vector<SharedTable>{std::move(*table)};
  }
  std::vector<TableCommit> commits;
  for (const auto& part : parts_) commits.push_back(part->attempt.commit);
  FLOE_ASSIGN_OR_RETURN(std::vector<LoadedTable> tables, catalog_.CommitTransaction(commits));
  std::vector<SharedTable> shared;
  for (auto& table : tables) shared.push_back(Share(std::move(table)));
  return shared;
}

void CommitEngine::Swap() {
  const int64_t t = MonotonicMicros();
  // Both are always joined, so that nothing is deleted while it is still being written.
  for (const auto& part : parts_) {
    Attempt& attempt = part->attempt;
    attempt.commit.await_files = [this, &attempt]() -> Status {
      Status manifests = background_.WaitAll();
      Status lists = attempt.WaitForLists();
      return manifests ? lists : manifests;
    };
  }
  auto committed = [this] {
    DocumentNamers::Lent lent;  // the catalog's own documents join the tables' intents
    for (const auto& part : parts_) lent.emplace_back(part->plan.id(), part->names);
    const DocumentNamers lending(std::move(lent));
    return SwapPointers();
  }();
  // Whatever the catalog did, the writes have ended before any file is kept or deleted.
  Status written = Ok();
  for (const auto& part : parts_) {
    Status own = part->attempt.commit.await_files();
    if (written && !own) written = std::move(own);
  }
  report_.swap_ms += MillisSince(t);
  if (!written && committed) {
    // Catalogs await the files before they swap (TableCommit::await_files); one that did not
    // has published a snapshot whose files may be missing. Keep every file and say so.
    return Unknown(Error{ErrorKind::kIOError,
                         What() + " landed but a file it points to failed to be written: " + written.error().message});
  }
  // The catalog swaps only after the files are written: this attempt certainly failed.
  if (!written) return Lose(written.error().WithContext("writing the manifests of " + What()), false);
  if (committed) {
    if (committed->size() != parts_.size())
      return Unknown(Error{ErrorKind::kIOError, What() + ": the catalog answered for " +
                                                   std::to_string(committed->size()) + " tables"});
    for (size_t i = 0; i < parts_.size(); ++i) parts_[i]->landed = std::move((*committed)[i]);
    return SetState(AttemptState::kSwapped);
  }
  const Error& error = committed.error();
  if (error.kind == ErrorKind::kCommitStateUnknown) return Reconcile(error);
  // A catalog that cannot do what was asked (several tables in a storage catalog) swapped nothing.
  if (error.kind == ErrorKind::kNotSupported) return Lose(error, /*may_retry=*/false);
  if (error.kind == ErrorKind::kCommitConflict || SequenceNumberTaken(error)) {
    ++report_.conflicts;
    report_.conflict_reasons.push_back(error.message);
    last_conflict_ = error.message;
    Lose(error, /*may_retry=*/true);
    lost_race_ = true;
    return;
  }
  // Anything else (I/O, unavailable) may have happened before or after the swap point of a
  // backend we do not know.
  Unknown(error);
}

// A lost answer: the reload tells whether the swap happened (in every table, or in none).
void CommitEngine::Reconcile(const Error& error) {
  size_t landed = 0;
  std::vector<SharedTable> reloaded_tables;
  for (const auto& part : parts_) {
    auto reloaded = catalog_.LoadSharedTable(part->plan.id());
    if (!reloaded) return Unknown(error.WithContext(What() + " may or may not have landed"));
    const Attempt& attempt = part->attempt;
    const bool shows = attempt.snapshot_id() != 0 ? reloaded->metadata->SnapshotById(attempt.snapshot_id()) != nullptr
                                                  : AlreadyApplied(*reloaded, attempt.commit.updates);
    landed += shows ? 1 : 0;
    reloaded_tables.push_back(std::move(*reloaded));
  }
  if (landed == parts_.size()) {
    report_.reconciled_unknown = true;
    for (size_t i = 0; i < parts_.size(); ++i) parts_[i]->landed = std::move(reloaded_tables[i]);
    return SetState(AttemptState::kSwapped);
  }
  if (landed > 0) return Unknown(error.WithContext(What() + " shows in some of its tables only"));
  // The reload shows no trace of it: the attempt certainly failed, and may be tried again.
  last_conflict_ = "lost answer: " + error.message;
  Lose(error, /*may_retry=*/true);
}

// A commit to another branch can take the sequence number this attempt chose without moving
// its branch: the catalog then refuses the snapshot while applying updates (InvalidArgument,
// nothing swapped). That is a lost race, not a bad request. In format 3 the same commit also
// took the row ids this attempt claimed ("first-row-id is behind table next-row-id"): every
// snapshot that advances next-row-id also takes a sequence number, so this test covers both.
bool CommitEngine::SequenceNumberTaken(const Error& error) {
  if (error.kind != ErrorKind::kInvalidArgument) return false;
  for (const auto& part : parts_) {
    if (part->attempt.first_sequence_number == 0) continue;
    auto reloaded = catalog_.LoadSharedTable(part->plan.id());
    if (reloaded && reloaded->metadata->last_sequence_number >= part->attempt.first_sequence_number) return true;
  }
  return false;
}

void CommitEngine::SetState(AttemptState state) {
  state_ = state;
  for (const auto& part : parts_) part->attempt.state = state;
}

void CommitEngine::Lose(Error error, bool may_retry) {
  SetState(AttemptState::kLost);
  lost_race_ = false;
  error_ = std::move(error);
  may_retry_ = may_retry;
}

void CommitEngine::Unknown(Error error) {
  SetState(AttemptState::kUnknown);
  error_ = std::move(error);
}

std::vector<CommitOutcome> CommitEngine::Landed() {
  for (const auto& part : parts_) {
    // A snapshot the group commit rebased landed with a manifest list of its own: the one
    // this attempt wrote is listed nowhere.
    for (const auto& update : part->attempt.commit.updates) {
      const auto* add = std::get_if<AddSnapshot>(&update);
      const Snapshot* landed =
          add && part->landed.metadata ? part->landed.metadata->SnapshotById(add->snapshot.snapshot_id) : nullptr;
      if (landed && landed->manifest_list != add->snapshot.manifest_list)
        part->attempt.unlisted.push_back(add->snapshot.manifest_list);
    }
    part->files.Landed(part->attempt.unlisted);
  }
  return Done();
}

Result<std::vector<CommitOutcome>> CommitEngine::AllLost(const Error& error) {
  DiscardEverything();
  return std::unexpected(error);
}

void CommitEngine::DiscardEverything() {
  bool deleted = true;
  for (const auto& part : parts_) deleted = part->files.DeleteAll() && deleted;
  if (discard_written_) std::exchange(discard_written_, nullptr)();
  if (!deleted) return;
  for (const auto& part : parts_) part->files.ClearIntent();
}

// Each table's outcome: the shared counts and timings, its own snapshot and document. Before
// any attempt (an empty plan) a table is as loaded.
std::vector<CommitOutcome> CommitEngine::Done() {
  report_.total_ms = MillisSince(start_us_);
  std::vector<CommitOutcome> outcomes;
  for (const auto& part : parts_) {
    CommitOutcome outcome{report_, part->landed.metadata ? part->landed : part->table};
    if (part->replayed) {
      outcome.report.snapshot_id = part->replayed->snapshot_id;
      outcome.report.sequence_number = part->replayed->sequence_number;
    } else if (state_ == AttemptState::kSwapped) {
      outcome.report.snapshot_id = part->attempt.snapshot_id();
      outcome.report.sequence_number = part->attempt.last_sequence_number;
      // A rebase (group commit) gave it the sequence number the table had next.
      const Snapshot* landed = outcome.table.metadata ? outcome.table.metadata->SnapshotById(outcome.report.snapshot_id)
                                                      : nullptr;
      if (landed) outcome.report.sequence_number = landed->sequence_number;
    }
    outcome.report.metadata_location = outcome.table.metadata_location;
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace

Result<CommitOutcome> RunCommit(Catalog& catalog, CommitPlan& plan, const CommitOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::vector<CommitOutcome> outcomes, RunMultiTableCommit(catalog, {&plan}, options));
  return std::move(outcomes.front());
}

Result<std::vector<CommitOutcome>> RunMultiTableCommit(Catalog& catalog, const std::vector<CommitPlan*>& plans,
                                                       const CommitOptions& options) {
  if (plans.empty()) return std::vector<CommitOutcome>{};
  std::set<TableIdentifier> seen;
  for (const CommitPlan* plan : plans) {
    if (!seen.insert(plan->id()).second)
      return InvalidArgument("commit names table " + plan->id().ToString() + " twice; put its changes in one plan");
  }
  return CommitEngine(catalog, plans, options).Run();
}

}  // namespace floe
