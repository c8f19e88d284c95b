// What a TABLE argument names: `ns.table` in the catalog, or a table folder / metadata file
// read without a catalog (read-only).
#pragma once

#include <memory>
#include <string>

#include "cli/cli_context.h"
#include "cli/table_reading.h"  // kAllowMovedPathsHelp
#include "floe/file_io.h"

namespace floe::cli {

struct TableRef {
  std::string display;            // for messages
  std::shared_ptr<FileIO> io;
  std::string metadata_location;
  TableMetadata metadata;
  bool from_catalog = false;
  TableIdentifier id;             // when from_catalog
  std::string folder;             // when read without a catalog: the table folder, absolute
};

// What a command does with a table folder that was copied or moved: such a folder still records
// its old location, and so do all the paths inside it.
enum class MovedPaths {
  kMetadataOnly,  // the command reads only the metadata document: nothing to check
  kRefuse,        // it reads the table's files: refused, naming the first missing file and the flag
  kAllow,         // --allow-moved-paths: paths under the recorded location are read from the folder given
};

// A path that exists (folder or *.json file) is read without a catalog; anything else is
// parsed as ns.table and loaded from the catalog.
Result<TableRef> ResolveTable(CliContext& ctx, const std::string& argument,
                              MovedPaths moved = MovedPaths::kMetadataOnly);

// The table folder a path on the command line lies in: a table folder itself; for a metadata
// file the folder above its metadata/ folder; for any other file, the folder above the nearest
// metadata/ or data/ folder it lies under (empty when there is none). Absolute, normalized.
std::string TableFolderOf(const std::string& argument);

// Whether `metadata` records a location other than `folder` (a TableRef's folder): the table
// was copied or moved there. Spellings of one local path ("file:///a", "/a/") are equal.
bool RecordsAnotherLocation(const TableMetadata& metadata, const std::string& folder);

}  // namespace floe::cli
