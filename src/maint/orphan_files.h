// Removing orphan files: files under a table's location that no metadata document in its
// metadata log (nor the current one) reaches, and that are older than a safety window.
//
// Orphans are what failed or killed writers left: data files of a job that never committed,
// manifests of a lost attempt. A young file may belong to an attempt still in flight, so only
// files older than the window (default 3 days, as Iceberg's action; the table property
// floe.maintenance.orphan-older-than-ms changes it) are candidates. The listing is taken
// before the metadata is loaded, so every file a commit that landed before the load wrote is
// reached. Paths compare in their canonical spelling (path_identity.h). Expiry records and the
// storage catalog's version-hint.text are never orphans.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace floe {

struct OrphanOptions {
  std::optional<int64_t> older_than_ms;  // default: now - the window
  std::optional<std::string> location;   // a prefix inside the table's location (default: all of it)
  bool dry_run = false;
  std::optional<int64_t> now_ms;  // default: the clock
  // Called after each delete: done so far of total (tests stop a process mid-way).
  std::function<void(int64_t done, int64_t total)> on_progress;
};

struct OrphanResult {
  std::vector<std::string> orphans;  // deleted (dry run: would be)
  int64_t files_listed = 0;
  int64_t young_files_kept = 0;       // unreached but inside the window
  int64_t metadata_documents_read = 0;
  std::vector<std::string> delete_failures;
  // By intents (intent_reclamation.h) only: batches read, stale attempts whose intent was
  // cleared, attempts inside the window left alone, recorded files a metadata document reaches.
  int64_t intents_read = 0;
  int64_t intents_cleared = 0;
  int64_t young_intents_kept = 0;
  int64_t referenced_kept = 0;
};

Result<OrphanResult> RemoveOrphanFiles(Catalog& catalog, const TableIdentifier& id, const OrphanOptions& options = {});

// The time before which an unreached file (or a write intent) is an orphan: --older-than (refused
// when in the future), else now minus floe.maintenance.orphan-older-than-ms (3 days).
Result<int64_t> OrphanCutoffMs(const TableMetadata& table, const OrphanOptions& options, int64_t now_ms);

// The canonical paths of every file the table's metadata documents reach: the documents of
// `table`'s metadata log and the current one (at `metadata_location`), and for each document
// its snapshots' manifest lists, manifests, data and delete files (entries of any status) and
// statistics files. A log document that no longer exists is skipped.
Result<std::set<std::string>> FilesReachedByMetadataLog(FileIO& io, const TableMetadata& table,
                                                        const std::string& metadata_location,
                                                        int64_t* documents_read = nullptr);

}  // namespace floe
