// Deleting every file a dropped table's metadata reaches (DropTable with purge).
//
// A purge deletes only what the table owns: files its metadata references that lie under the
// table's location (compared normalized, table_files/location_scope.h). It is planned before anything
// is deleted or dropped: a referenced file outside the location, or a manifest list or
// manifest that exists but cannot be read, refuses the whole purge, so the caller can leave
// the table in place. Files already gone are fine (a purge may be run again).
#pragma once

#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

struct PurgePlan {
  std::string table_location;
  std::vector<std::string> files;  // in deletion order: data and delete files first, documents last
};

// Reads the manifest lists and manifests of every snapshot (only those under the table's
// location) and lists what a purge deletes: data and delete files, manifests, manifest lists,
// statistics files, the documents of the metadata log and `metadata_location` itself.
// InvalidArgument naming the file and the field that references it when one lies outside.
Result<PurgePlan> PlanPurge(FileIO& io, const TableMetadata& metadata, const std::string& metadata_location);

// Deletes the plan's files; an IOError names those that could not be deleted (after trying all).
Status DeletePurgeFiles(FileIO& io, const PurgePlan& plan);

}  // namespace floe
