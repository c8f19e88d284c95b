// What snapshots reach: their manifest lists, their manifests, and the data and delete files
// those manifests hold, found by reading the manifests (never by guessing from names).
//
// Expiry and orphan removal both decide what may be deleted from these sets, so both read
// them the same way: one manifest is read once however many snapshots share it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/manifest_file.h"
#include "meta/table_metadata.h"

namespace floe {

struct ReachableFiles {
  std::set<std::string> manifest_lists;
  std::map<std::string, ManifestFile> manifests;  // by path
  std::set<std::string> statistics;               // statistics and partition statistics files
};

struct ReachOptions {
  // A manifest list or manifest that no longer exists is skipped instead of an error (a rerun
  // of an interrupted cleanup finds some already deleted).
  bool missing_ok = false;
};

// Adds the manifest lists and manifests of `snapshots` of `table` to `into`.
Status AddManifests(FileIO& io, const TableMetadata& table, const std::vector<const Snapshot*>& snapshots,
                    ReachableFiles& into, const ReachOptions& options = {});

// Adds the statistics files of `table` for the snapshots in `snapshot_ids` (all when empty).
void AddStatistics(const TableMetadata& table, const std::set<int64_t>& snapshot_ids, ReachableFiles& into);

// The data and delete files `manifests` hold. live_only: ADDED and EXISTING entries (what the
// snapshots listing these manifests read); otherwise DELETED entries too.
Result<std::set<std::string>> ContentFiles(FileIO& io, const TableMetadata& table,
                                           const std::map<std::string, ManifestFile>& manifests, bool live_only,
                                           const ReachOptions& options = {});

// Every snapshot of `table`, as pointers.
std::vector<const Snapshot*> AllSnapshots(const TableMetadata& table);

}  // namespace floe
