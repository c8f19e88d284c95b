// What a TABLE argument names, on include/floe alone: `ns.table` in the catalog, or a table
// folder / metadata file read without a catalog (floe/table_folder.h, read-only).
#pragma once

#include <optional>
#include <string>

#include "cli/cli_context.h"
#include "floe/table_folder.h"

namespace floe::cli {

struct TableArgument {
  std::optional<Table> table;         // the catalog's table
  std::optional<TableFolder> folder;  // or a table read from its folder
};

// A path that exists (a folder, or a file) or an s3:// URI is read without a catalog; anything
// else is a table name of the catalog (not loaded yet: the call on it loads it). NotFound for a
// path-like argument (a '/', a .json name) that does not exist; the name's error otherwise.
Result<TableArgument> OpenTableArgument(CliContext& ctx, const std::string& argument);

}  // namespace floe::cli
