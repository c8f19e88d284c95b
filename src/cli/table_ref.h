// What a TABLE argument names: `ns.table` in the catalog, or a table folder / metadata file
// read without a catalog (read-only).
#pragma once

#include <memory>
#include <string>

#include "cli/cli_context.h"
#include "io/file_io.h"

namespace floe::cli {

struct TableRef {
  std::string display;            // for messages
  std::shared_ptr<FileIO> io;
  std::string metadata_location;
  TableMetadata metadata;
  bool from_catalog = false;
  TableIdentifier id;             // when from_catalog
};

// A path that exists (folder or *.json file) is read without a catalog; anything else is
// parsed as ns.table and loaded from the catalog.
Result<TableRef> ResolveTable(CliContext& ctx, const std::string& argument);

}  // namespace floe::cli
