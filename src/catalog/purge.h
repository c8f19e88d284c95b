// Deleting every file a dropped table's metadata reaches (DropTable with purge).
#pragma once

#include <string>

#include "io/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

// Deletes the files reachable from `metadata` (whose document is at `metadata_location`): data
// and delete files listed by the manifests of every snapshot, the manifests, the manifest lists,
// statistics files, the documents of the metadata log and the document itself. Call it only
// after nothing points at the table any more. Files already gone are fine (a purge may be run
// again); a manifest list or manifest that cannot be read is skipped and named in the returned
// IOError after everything else was deleted, so a partial purge says what it left behind.
Status PurgeTableFiles(FileIO& io, const TableMetadata& metadata, const std::string& metadata_location);

}  // namespace floe
