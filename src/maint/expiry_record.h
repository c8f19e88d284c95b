// The record an expiry leaves before its commit: which snapshots it removes and where their
// manifest lists are. Once the commit lands those snapshots are gone from the metadata, so
// without the record a process killed between its commit and its deletes would leave their
// files for orphan removal to find by listing. With it, the next expiry of the table finishes
// the deletes, and removes the record only when they are done.
//
// Records live at <metadata folder>/floe-expiry-<uuid>.json (other engines ignore them; orphan
// removal never deletes one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

struct ExpiryRecord {
  std::string location;  // where the record is stored
  int64_t created_ms = 0;
  std::vector<Snapshot> snapshots;  // id, manifest list and v1 manifests of each removed snapshot
  std::vector<std::string> statistics;
};

inline constexpr const char* kExpiryRecordPrefix = "floe-expiry-";

// The record of removing `snapshot_ids` from `table`, written (create-if-absent) under the
// table's metadata folder.
Result<ExpiryRecord> WriteExpiryRecord(FileIO& io, const TableMetadata& table, const std::vector<int64_t>& snapshot_ids,
                                       int64_t now_ms);

// Every record of `table`. A record that cannot be parsed is Corrupt naming it.
Result<std::vector<ExpiryRecord>> ListExpiryRecords(FileIO& io, const TableMetadata& table);

// Whether `path` names an expiry record (by file name).
bool IsExpiryRecord(std::string_view path);

}  // namespace floe
