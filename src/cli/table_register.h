// `floe register NS.TABLE METADATA [--allow-moved-paths]`: a metadata file registered as a table.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "cli/cli_context.h"

namespace floe::cli {

// Registers the metadata file at `metadata_argument` as `id`; the location registered.
// A local or s3:// file is checked first: a table that was copied or moved (its recorded
// location is elsewhere and its manifest list is missing) is refused, naming the missing file
// and the flag. With `allow_moved_paths` such a table's metadata tree is first relocated
// beside it (maint/relocate_table.h) and the new metadata file registered; if registering then
// fails, what the relocation wrote is deleted again.
Result<std::string> RegisterTableFile(CliContext& ctx, Catalog& catalog, const TableIdentifier& id,
                                      const std::string& metadata_argument, bool allow_moved_paths);

}  // namespace floe::cli
