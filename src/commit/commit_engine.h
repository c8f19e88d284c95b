// The commit engine: the one optimistic loop every commit of floe runs through (snapshot
// operations, transactions, metadata-only changes, and commits to several tables at once).
//
//   load ─► idempotency check ─► prepare (once) ─► [attempt: build ─► swap] ─► landed
//   an attempt ends in one of the states of AttemptState (commit_plan.h):
//     swapped  the pointer names its document (or the reload after a lost answer shows it)
//     lost     certainly not landed: a lost race (CommitConflict, a taken sequence number,
//              a lost answer the reload shows did not land) is retried after the pacer's wait
//              (commit_scheduler.h) until commit.retry.* is used up (an append's lost races
//              spend only total-timeout-ms, not num-retries); a refusal (ValidationFailed,
//              a metadata step's failed requirement, a bad branch) is final
//     unknown  it may have landed (the reload failed, or the catalog gave an error the engine
//              cannot place before or after its swap point): the error is returned and none of
//              the commit's files is deleted
// Invariant 5 has one owner here: an attempt's files are deleted only once it is lost, the
// prepared files and the caller's written files only when every attempt is lost or the
// idempotency key had already landed, and nothing while any attempt's fate is unknown.
#pragma once

#include "catalog/catalog.h"
#include "commit/commit_options.h"
#include "commit/commit_plan.h"

namespace floe {

struct CommitOutcome {
  CommitReport report;
  SharedTable table;  // the table as the landed commit (or the replayed key) left it
};

// Runs `plan` to its end. options.retry, before_swap and discard_written_files apply (the plan holds
// the branch, key and summary entries).
Result<CommitOutcome> RunCommit(Catalog& catalog, CommitPlan& plan, const CommitOptions& options);

// Runs `plans`, each on a table of its own, as one commit: every table's change lands or none
// does (the catalog's CommitTransaction swaps all the pointers at once). The loop is the one
// above: one attempt builds every plan on its table as loaded; a lost race retries them all
// (under the strictest table's retry policy), a refusal in any plan is final for all, a lost
// answer is reconciled by reloading every table. With idempotency keys, the commit counts as
// done only when every table shows its key. Outcomes are in the order of `plans`, sharing the
// counts and timings. InvalidArgument: a table named twice; NotSupported, before anything is
// written: several plans on a catalog without multi-table commits (the storage catalog;
// CatalogCapabilities::multi_table_commits).
Result<std::vector<CommitOutcome>> RunMultiTableCommit(Catalog& catalog, const std::vector<CommitPlan*>& plans,
                                                       const CommitOptions& options);

}  // namespace floe
