// How one commit runs: the branch, idempotency key, retry policy and summary entries of a commit,
// what it may delete when it fails, the write intent its files join, and how it meets other
// commits of this process (the scheduler, group commit, turns).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "table_files/file_namer.h"
#include "meta/snapshot.h"
#include "commit/retry_policy.h"

namespace floe {

class CommitScheduler;  // commit/commit_scheduler.h
class CommitBase;       // commit/commit_base.h

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
  // The namer the caller's data and delete files were named by (io/file_namer.h), so that the
  // commit's manifests join the same write intent; the engine clears that intent once the
  // commit landed and its lost attempts' files are deleted, or once every attempt is lost and
  // discard_written_files ran, never when the outcome is unknown. Unset, the engine names the
  // commit's manifests, lists and (SQL catalogs) metadata document in a write intent of its own
  // (a commit of files written earlier, such as add-files or a cherry-pick, or a metadata-only
  // change), which records nothing until the commit names a file.
  FileNamer* names = nullptr;
  // A single append joins the other appends that threads of this process commit to the same
  // table through the same Catalog object at the same time: one metadata document and one
  // swap for all of them (the scheduler's group commit); not on a catalog whose server orders
  // commits (CatalogCapabilities::server_orders_commits), which groups them itself. Off: it
  // swaps alone (for measuring).
  bool coalesce_appends = true;
  // Threads of this process committing to the same table through different Catalog objects
  // take turns, so that their attempts do not lose races to each other (the scheduler's turns);
  // not where the server orders commits. Off: they race as separate processes do (for measuring).
  bool take_turns = true;
  // Orders this commit's attempts against the other commits of this process (pacing, turns,
  // group commit: commit/commit_scheduler.h). Unset: the catalog's (Catalog::commit_scheduler(),
  // supplied by whoever opened it), else unscheduled.
  CommitScheduler* scheduler = nullptr;
  // The table as the caller loaded it before writing the commit's files (commit/commit_base.h):
  // the first attempt of a one-table commit starts from it instead of loading the table again,
  // when it is young and no commit took it before. Copies of these options share it: the
  // first commit takes it, any later one loads. Unset: the first attempt loads.
  std::shared_ptr<CommitBase> base;
};

}  // namespace floe
