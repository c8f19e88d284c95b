// Expiring snapshots: a commit that removes the snapshots and refs the retention rules let go
// (expire_plan.h), then the deletion of exactly the files no remaining snapshot reaches.
//
// The commit carries requirements (the table's uuid and the snapshot every ref pointed at when
// the plan was made), so a writer that moved a ref meanwhile is never undone: the swap is
// refused, the plan is made again on the new state and committed again, within the table's
// commit.retry.* limits. A writer that changed nothing the plan read (a commit that did not
// move a ref) lets the same change be sent again as it is.
//
// Files are deleted only after the commit landed, and only those that the removed snapshots
// reached and that no snapshot of the landed metadata (including those other writers added
// meanwhile) reaches: data and delete files first, then manifests, then manifest lists, so an
// interrupted run never loses the way to what it still has to delete. Before its commit the
// expiry writes an expiry record (expiry_record.h); every run finishes the records earlier
// runs left and removes a record when its deletes are done.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "maint/expire_plan.h"
#include "commit/retry_policy.h"

namespace floe {

struct ExpireOptions {
  RetentionOptions retention;
  bool dry_run = false;                // plan and list what would be deleted; change nothing
  std::optional<RetryPolicy> retry;    // default: the table's commit.retry.*
  std::optional<int64_t> now_ms;       // default: the clock
  // Called after the commit landed, before any delete (tests stop a process there).
  std::function<void()> after_commit;
  // Called as files are deleted: done so far of total.
  std::function<void(int64_t done, int64_t total)> on_progress;
};

// Files no remaining snapshot reaches (deleted, or to delete on a dry run).
struct UnreachableFiles {
  std::vector<std::string> content_files;  // data and delete files
  std::vector<std::string> manifests;
  std::vector<std::string> manifest_lists;
  std::vector<std::string> statistics;
  int64_t size() const {
    return static_cast<int64_t>(content_files.size() + manifests.size() + manifest_lists.size() + statistics.size());
  }
  void Append(UnreachableFiles&& other);
};

struct ExpireResult {
  std::vector<int64_t> expired_snapshot_ids;
  std::vector<std::string> removed_refs;
  bool committed = false;
  UnreachableFiles files;      // deleted (dry run: would be)
  int64_t records_finished = 0;  // expiry records of earlier interrupted runs completed
  std::vector<std::string> delete_failures;  // files that could not be deleted (orphan removal will)
};

Result<ExpireResult> ExpireSnapshots(Catalog& catalog, const TableIdentifier& id, const ExpireOptions& options = {});

// The files the `gone` snapshots reached that no snapshot of `current` reaches (reading the
// manifests of both). A manifest list or manifest of `gone` already deleted is skipped.
Result<UnreachableFiles> FindUnreachableFiles(FileIO& io, const TableMetadata& current,
                                              const std::vector<const Snapshot*>& gone,
                                              const std::vector<std::string>& gone_statistics);

}  // namespace floe
