// Committing one snapshot operation to one branch, and the pieces every snapshot commit shares
// (new snapshot ids, snapshots, moved branches, idempotency keys).
//
// CommitOperation runs the operation through the commit engine (commit_engine.h): conflicts
// are retried after a paced wait, refusals are final, a lost answer is reconciled by reloading,
// and an attempt's files are never deleted while its fate is unknown.
// Idempotency: a commit may carry a key, stored in its snapshot summary. If the target branch's
// ancestry already holds a snapshot with that key, the commit returns it and writes nothing.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "catalog/catalog.h"
#include "txn/commit_report.h"
#include "txn/retry_policy.h"
#include "txn/snapshot_operation.h"

namespace floe {

struct CommitOptions {
  std::string branch = kMainBranch;
  std::optional<std::string> idempotency_key;
  std::optional<RetryPolicy> retry;  // default: from the table's properties
  // Extra summary entries (e.g. an application id).
  std::map<std::string, std::string> summary;
  // Test hook, called after the attempt's files are written and before the swap.
  std::function<void(int attempt)> before_swap;
  // Deletes the files the caller wrote for this commit alone (new data and delete files). The
  // engine calls it once, when the commit certainly failed or its idempotency key had already
  // landed; never when it landed or its outcome is unknown. Unset for files the table may
  // already reference (add-files, cherry-pick).
  std::function<void()> discard_written_files;
  // The namer the caller's data and delete files were named by (table_files/file_namer.h), so that the
  // commit's manifests join the same write intent; the engine clears that intent once the
  // commit landed and its lost attempts' files are deleted, or once every attempt is lost and
  // discard_written_files ran, never when the outcome is unknown. Unset, the engine names the
  // commit's manifests, lists and (SQL catalogs) metadata document in a write intent of its own
  // (a commit of files written earlier, such as add-files or a cherry-pick, or a metadata-only
  // change), which records nothing until the commit names a file.
  FileNamer* names = nullptr;
  // A single append joins the other appends that threads of this process commit to the same
  // table through the same Catalog object at the same time: one metadata document and one
  // swap for all of them (txn/group_commit.h); not on a REST catalog, whose server groups
  // them itself. Off: it swaps alone (for measuring).
  bool coalesce_appends = true;
  // Threads of this process committing to the same table through different Catalog objects
  // take turns, so that their attempts do not lose races to each other (txn/table_turns.h);
  // not on a REST catalog. Off: they race as separate processes do (for measuring).
  bool take_turns = true;
};

// Commits `operation` to table `id`. On success the report says what happened; on failure the
// error's kind says why (CommitConflict after retries ran out, ValidationFailed, ...).
Result<CommitReport> CommitOperation(Catalog& catalog, const TableIdentifier& id, SnapshotOperation& operation,
                                     const CommitOptions& options = {});

// A fresh snapshot id for `table`: random, positive, not taken by any of its snapshots.
int64_t NewSnapshotId(const TableMetadata& table);

// The snapshot an attempt adds on top of `head` (nullptr: an empty branch) of `base`, timed now
// but never before the base's last update.
Snapshot NewSnapshot(const TableMetadata& base, const Snapshot* head, int64_t snapshot_id, int64_t sequence_number,
                     const std::string& manifest_list, std::map<std::string, std::string> summary);
// `branch` of `base` (its retention settings kept) moved to `snapshot_id`.
SnapshotRef MovedBranch(const TableMetadata& base, const std::string& branch, int64_t snapshot_id);

// The snapshot at the head of `branch` of table `id`: null when the branch has none yet (an
// empty table's main); NotFound naming the table when a branch other than main does not exist.
Result<const Snapshot*> BranchHead(const TableMetadata& table, const TableIdentifier& id, const std::string& branch);

// The summary key that holds idempotency keys for a table (configurable by property).
std::string IdempotencyKeyProperty(const TableMetadata& table);
// The snapshot in `branch`'s ancestry whose summary carries `key`, if any.
const Snapshot* FindIdempotentSnapshot(const TableMetadata& table, const std::string& branch, const std::string& key);

}  // namespace floe
