// The contention room's CommitScheduler (commit/commit_scheduler.h): the pacing of attempts
// (commit_pacing.h), turns between the threads that commit to one table (table_turns.h) and the
// group commit of the appends they make through one Catalog object (group_commit.h, rebasing
// with append_rebase.h), over state this object owns: one pacer and one turn queue per table,
// and the group-commit queues (which the server's commit service shares for its clients'
// requests).
//
// The process's scheduler (Process()) is the one object that holds a program's contention
// state; it lives as long as the process. Whoever opens a catalog (the API's connection, the
// CLI, `floe serve`) supplies it (CatalogOptions::commit_scheduler), so every commit made
// through those catalogs meets the others through it; nothing installs it behind anyone's
// back, and a catalog opened without it commits unscheduled. A test may make one of its own and
// hand it to its commits (CommitOptions::scheduler) to run them apart from the rest.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "commit/commit_scheduler.h"
#include "contention/commit_pacing.h"
#include "contention/group_commit.h"
#include "contention/table_turns.h"

namespace floe {

class ContentionScheduler : public CommitScheduler {
 public:
  // The process's: created on first use and never destroyed (a commit may still run while
  // the process exits).
  static ContentionScheduler& Process();

  ContentionScheduler() = default;
  ContentionScheduler(const ContentionScheduler&) = delete;
  ContentionScheduler& operator=(const ContentionScheduler&) = delete;

  // Created on first use; kept as long as the scheduler (a handful of tables per process).
  CommitPacer& PacingOf(const std::string& table_key) override;
  // TableTurns::KeyOf: a table's uuid (its location when it has none).
  std::string TurnKeyOf(const TableMetadata& table) override;
  std::unique_ptr<Turn> TakeTurn(const std::string& turn_key, const void* party) override;
  // A single append committed at the same time as others to the same table through the same
  // `catalog` object by threads of this process goes in one swap with them. Alone it is the
  // catalog's own swap of `commit`; in a group it is one attempt of CommitGroup, so a lost
  // swap comes back as a CommitConflict for the engine's own retry. The answer is the table as
  // the swap left it; when the group rebased the append, the snapshot there (same id) has a new
  // manifest list, named by `namer`, and sequence number.
  Result<SharedTable> CommitAppend(Catalog& catalog, const TableCommit& commit,
                                   const ManifestListNamer& namer) override;

  // The group-commit queue of `key` (naming catalog and table), created on first use and kept
  // while anyone holds it.
  std::shared_ptr<CommitQueue> QueueOf(const std::string& key);

 private:
  TableTurns& TurnsOf(const std::string& turn_key);

  std::mutex mu_;
  std::map<std::string, std::unique_ptr<CommitPacer>> pacers_;
  std::map<std::string, std::unique_ptr<TableTurns>> turns_;
  std::map<std::string, std::weak_ptr<CommitQueue>> queues_;
};

// `options` supplying the process's scheduler: what a program (or a test standing for one)
// passes when it opens its catalogs, so that their commits meet.
CatalogOptions ProcessCatalogOptions(CatalogOptions options = {});

}  // namespace floe
