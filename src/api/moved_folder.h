// A table folder that may have been copied or moved: its metadata still records the old
// location, and so do the paths inside it (src/api only).
#pragma once

#include <string>

#include "floe/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

// The table folder a path lies in: a table folder itself; for a metadata file the folder above
// its metadata/ folder; for any other file, the folder above the nearest metadata/ or data/
// folder it lies under (empty when there is none). Absolute, normalized, no trailing '/'.
std::string TableFolderOf(const std::string& path);

// Whether `metadata` records a location other than `folder` (a TableFolderOf): the table was
// copied or moved there. Spellings of one local path ("file:///a", "/a/") are equal.
bool RecordsAnotherLocation(const TableMetadata& metadata, const std::string& folder);

// NotFound naming the folder, the recorded location, the missing manifest list and the flag
// --allow-moved-paths, when `metadata` records another location than `folder` and its current
// manifest list is not there; Ok otherwise (nothing to read, or the old location still serves).
Status CheckNotMoved(FileIO& io, const TableMetadata& metadata, const std::string& folder);

}  // namespace floe
