// Reading a table's metadata documents: the one place a document's bytes become a
// TableMetadata, for loads, commits, scans of a metadata file and maintenance alike.
//
// A document is plain or gzip-compressed JSON (Iceberg's writers may compress it; the bytes
// decide, not the name). Writing one is part of a catalog's commit (catalog/commit.h): the new
// document is created under a fresh name (table_files/metadata_location.h), and the swap that
// follows makes it the table's state.
#pragma once

#include <memory>
#include <string>

#include "floe/file_io.h"
#include "meta/table_metadata.h"
#include "table_files/metadata_cache.h"

namespace floe {

// The text of the document at `location`, gunzipped when it is gzip-compressed.
Result<std::string> ReadMetadataText(FileIO& io, const std::string& location);

// Reads and parses one metadata document.
Result<TableMetadata> ReadMetadataFile(FileIO& io, const std::string& location);

// Reads and parses the document at `location`, through `cache` when it is not null: a cached
// document costs a lookup, a parsed one is remembered.
Result<std::shared_ptr<const TableMetadata>> ReadMetadataShared(FileIO& io, MetadataCache* cache,
                                                                 const std::string& location);

}  // namespace floe
