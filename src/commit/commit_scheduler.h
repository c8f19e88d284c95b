// The commit engine's one way to meet the other commits of its process: when an attempt may
// start, whose turn it is on a table, and whether a single append goes in a group's swap.
//
// The engine (commit_engine.h) is handed a scheduler (CommitOptions::scheduler, else the one
// the catalog's opener supplied: Catalog::commit_scheduler()) and asks only this interface: it
// never reaches a registry. The contention room implements it (contention/contention_scheduler.h:
// pacing, turns between threads, group commit and append rebase over state one object owns). A catalog whose server
// orders commits (CatalogCapabilities::server_orders_commits) gets no turns or groups from the
// engine, and its loads teach the pacing nothing.
//
// Without a scheduler (none in the options, none supplied with the catalog) commits are
// unscheduled: no wait before a first attempt, a retry waits a random time up to
// commit.retry.min-wait-ms, no turns, every append swaps alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "commit/retry_policy.h"
#include "meta/table_metadata.h"

namespace floe {

// Names the manifest list of snapshot `snapshot_id` rebased onto `table` (a writer's FileNamer,
// so that its write intent knows the file before it exists: invariant 10).
using ManifestListNamer = std::function<Result<std::string>(const TableMetadata& table, int64_t snapshot_id)>;

class CommitScheduler {
 public:
  virtual ~CommitScheduler() = default;

  // When the attempts on one table start (contention/commit_pacing.h says how).
  class Pacing {
   public:
    virtual ~Pacing() = default;
    // Microseconds to wait before a commit's first attempt. `probe_runs` false: the catalog
    // orders its clients' commits itself, so a run of this process captures nothing.
    virtual int64_t FirstAttemptWaitUs(const RetryPolicy& policy, bool probe_runs) = 0;
    // An attempt that took `attempt_us` lost the race: microseconds to wait before the next.
    virtual int64_t LostAttemptWaitUs(const RetryPolicy& policy, int64_t attempt_us) = 0;
    // An attempt that took `attempt_us` landed, leaving the table at `sequence_number`.
    virtual void Landed(int64_t attempt_us, int64_t sequence_number) = 0;
    // An attempt loaded the table at `sequence_number`.
    virtual void Loaded(int64_t sequence_number) = 0;
  };

  // One attempt's turn on a table; ends (at the latest) when destroyed.
  class Turn {
   public:
    virtual ~Turn() = default;
    // Ends the turn; `landed_location`: the attempt landed and left the table at that
    // document (empty: it did not land). Later calls do nothing.
    virtual void End(const std::string& landed_location) = 0;
    // Whether an attempt of this process landed on the table after `us` (a base loaded then
    // is stale), and the document it left the table at.
    virtual bool LandedSince(int64_t us) const = 0;
    virtual const std::string& landed_location() const = 0;
    virtual int64_t waited_us() const = 0;
  };

  // The pacing of the table `table_key` ("<catalog>/<namespace>.<table>"); lives as long as
  // the scheduler.
  virtual Pacing& PacingOf(const std::string& table_key) = 0;
  // The key of `table`'s turns (tables that are the same table share them); empty: this
  // scheduler gives no turns.
  virtual std::string TurnKeyOf(const TableMetadata& table) = 0;
  // Waits for `party`'s turn on the table keyed `turn_key` (the attempts of one party may
  // overlap, those of different parties take turns).
  virtual std::unique_ptr<Turn> TakeTurn(const std::string& turn_key, const void* party) = 0;
  // The swap of a single append (add-snapshot + set-snapshot-ref), in a group with the other
  // appends this process makes to the table through `catalog` when the scheduler groups them;
  // a rebased append's new manifest list is named by `namer`. Alone: catalog's own swap.
  virtual Result<SharedTable> CommitAppend(Catalog& catalog, const TableCommit& commit,
                                           const ManifestListNamer& namer) = 0;
};

// The scheduler of commits given none: no pacing state, no turns, no groups (above). Stateless
// apart from each thread's random source, so one serves the whole process.
CommitScheduler& UnscheduledCommits();

}  // namespace floe
