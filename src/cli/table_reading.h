// What a read command's TABLE argument names, opened through include/floe: `ns.table` in the
// catalog, or a table folder / metadata file (local or s3://) read without a catalog.
#pragma once

#include <string>

#include "cli/cli_context.h"
#include "floe/table_folder.h"
#include "floe/table_reader.h"

namespace floe::cli {

// A path that exists (a folder or a *.json file) or an s3:// URI is read as a table folder,
// `moved` saying what to do if it was copied or moved; anything else is a table name, loaded
// from the catalog. NotFound naming the argument when it looks like a path and is none.
Result<TableReader> OpenTableReader(CliContext& ctx, const std::string& argument, floe::MovedPaths moved);

// The help text of --allow-moved-paths, the same on every command that has it.
inline constexpr const char* kAllowMovedPathsHelp =
    "read a copied or moved table: paths under the location its metadata records are read from "
    "the folder given";

}  // namespace floe::cli
