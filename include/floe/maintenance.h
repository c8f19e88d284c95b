// Maintenance: what keeps a table's history and files in bounds (Table::ExpireSnapshots,
// RemoveOrphanFiles, RewriteDataFiles, RewriteManifests and Maintain). Each is safe beside live
// writers: expiry deletes only what no remaining snapshot of any branch or tag reaches, and only
// after its own commit landed; orphan removal never deletes a file younger than its safety
// window or reachable from a metadata document still in the metadata log.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floe/filter.h"
#include "floe/table.h"

namespace floe {

// Files done so far of all (deleted, or file groups committed).
using ProgressCallback = std::function<void(int64_t done, int64_t total)>;

struct ExpireSnapshotsOptions {
  // Expire snapshots older than this (ms since epoch); default: now minus the table's
  // history.expire.max-snapshot-age-ms (5 days).
  std::optional<int64_t> older_than_ms;
  // Keep at least this many ancestors of each branch head; default: the table's
  // history.expire.min-snapshots-to-keep (1).
  std::optional<int64_t> retain_last;
  bool dry_run = false;  // list what would be expired and deleted; change nothing
  ProgressCallback on_progress;
  // Called once the expiry's commit landed, before any file is deleted.
  std::function<void()> after_commit;
};

struct ExpireSnapshotsResult {
  std::vector<int64_t> expired_snapshot_ids;
  std::vector<std::string> removed_refs;  // branches and tags past their max-ref-age-ms
  bool committed = false;
  // Deleted (dry run: would be), by kind.
  std::vector<std::string> content_files;  // data and delete files
  std::vector<std::string> manifests;
  std::vector<std::string> manifest_lists;
  std::vector<std::string> statistics;
  int64_t files() const {
    return static_cast<int64_t>(content_files.size() + manifests.size() + manifest_lists.size() + statistics.size());
  }
  int64_t interrupted_expiries_finished = 0;  // earlier runs killed between commit and deletes
  std::vector<std::string> delete_failures;   // could not be deleted (orphan removal will)
};

// InvalidArgument naming the option when `options` cannot be used (a time in the future, a
// retain_last below 1); checks nothing of the table.
Status CheckExpireSnapshotsOptions(const ExpireSnapshotsOptions& options);

struct RemoveOrphanFilesOptions {
  // Only files older than this (ms since epoch); default: now minus the table's
  // floe.maintenance.orphan-older-than-ms (3 days). A time in the future is InvalidArgument.
  std::optional<int64_t> older_than_ms;
  std::optional<std::string> location;  // a prefix inside the table's location (default: all of it)
  bool dry_run = false;
  // Reclaim only what the stale write intents of crashed writers name, listing no storage.
  bool from_intents = false;
  ProgressCallback on_progress;
};

struct RemoveOrphanFilesResult {
  std::vector<std::string> orphans;  // deleted (dry run: would be)
  int64_t files_listed = 0;
  int64_t young_files_kept = 0;  // unreached, but inside the safety window
  int64_t metadata_documents_read = 0;
  std::vector<std::string> delete_failures;
  // With from_intents: intent batches read, stale intents cleared, intents younger than the
  // window kept, recorded files that a metadata document reaches (kept).
  int64_t intents_read = 0;
  int64_t intents_cleared = 0;
  int64_t young_intents_kept = 0;
  int64_t referenced_kept = 0;
};

struct RewriteDataFilesOptions {
  Filter filter;                     // only files that may hold matching rows (default: all)
  int64_t target_file_size_bytes = 0;  // 0: the table's write.target-file-size-bytes
  int min_input_files = 2;           // rewrite a partition once it has this many small files
  bool rewrite_all = false;          // every file, whatever its size
  // Commit file groups separately: a conflict costs one commit's groups, not the whole run.
  bool partial_progress = false;
  int max_commits = 10;  // with partial_progress
  ProgressCallback on_progress;
};

struct RewriteDataFilesResult {
  struct Group {
    std::string partition;  // "country=DE"; "" when unpartitioned
    std::vector<std::string> inputs;
    bool committed = false;
    std::string error;  // why not, when it did not
  };
  std::vector<Group> groups;  // empty: nothing needed rewriting
  bool committed = false;
  int commits = 0;
  int64_t data_files_rewritten = 0, data_files_added = 0, delete_files_removed = 0, rows_rewritten = 0;
};

struct ManifestRewriteResult {
  bool committed = false;  // false: nothing to regroup
  int64_t manifests_replaced = 0, manifests_written = 0, entries = 0;
  CommitInfo commit;
};

struct MaintainOptions {
  bool dry_run = false;  // expiry and orphan removal only list; nothing is rewritten
  // The step running ("expire", "orphans", "compact", "manifests") and its progress.
  std::function<void(const std::string& step, int64_t done, int64_t total)> on_progress;
};

struct MaintainResult {
  std::string summary;                   // one line per the steps, for people
  std::vector<std::string> step_errors;  // "compact: ..." for a step that failed (later steps still ran)
};

}  // namespace floe
