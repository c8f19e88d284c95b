// Opening a table without a catalog, from its folder or from one of its metadata files, as
// DuckDB's iceberg_scan does. Read-only: nothing here writes, and without a catalog there is no
// pointer to swap, so such a table can be read but not committed to.
//
// Paths inside the metadata (manifest lists, manifests, data files) are used as written; a
// relative one resolves the way the FileIO resolves it (LocalFileIO: against the working
// directory; RebasedFileIO: against its base folder).
#pragma once

#include <string>

#include "floe/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

struct StaticTable {
  std::string metadata_location;
  TableMetadata metadata;
};

// The newest metadata file of the table in `table_folder` (which holds metadata/; a folder that
// itself holds *.metadata.json files also works):
//   1. metadata/version-hint.text, when it names a version (or a file) that exists;
//   2. else the highest version among v<N>.metadata.json, v<N>.gz.metadata.json and
//      <NNNNN>-<uuid>.metadata.json (a stale or broken hint is ignored, as other engines do).
// NotFound when the folder has no metadata file.
Result<std::string> FindCurrentMetadataFile(FileIO& io, const std::string& table_folder);

// `location` is a metadata file (its name ends in ".metadata.json", or ".json" generally) or a
// table folder.
Result<StaticTable> OpenStaticTable(FileIO& io, const std::string& location);

}  // namespace floe
