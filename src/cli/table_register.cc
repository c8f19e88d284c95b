#include "cli/table_register.h"

#include <filesystem>

#include "cli/table_ref.h"
#include "io/s3_client.h"
#include "maint/relocate_table.h"

namespace floe::cli {

Result<std::string> RegisterTableFile(CliContext& ctx, Catalog& catalog, const TableIdentifier& id,
                                      const std::string& metadata_argument, bool allow_moved_paths) {
  std::error_code ec;
  bool readable_here = IsS3Uri(metadata_argument) || std::filesystem::is_regular_file(metadata_argument, ec);
  if (!readable_here) {
    if (allow_moved_paths)
      return NotFound("--allow-moved-paths: no metadata file at '" + metadata_argument + "'");
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.RegisterTable(id, metadata_argument));
    return table.metadata_location;
  }
  FLOE_ASSIGN_OR_RETURN(TableRef ref, ResolveTable(ctx, metadata_argument,
                                                   allow_moved_paths ? MovedPaths::kMetadataOnly : MovedPaths::kRefuse));
  if (!allow_moved_paths || !RecordsAnotherLocation(ref.metadata, ref.folder)) {
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.RegisterTable(id, metadata_argument));
    return table.metadata_location;
  }
  // Refused before anything is written: the relocation would be left behind for nothing.
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.TableExists(id));
  if (exists) return AlreadyExists("table " + id.ToString() + " already exists");
  FLOE_ASSIGN_OR_RETURN(RelocatedTable relocated,
                        RelocateTable(*ref.io, ref.metadata, ref.metadata_location, ref.folder));
  auto table = catalog.RegisterTable(id, relocated.metadata_location);
  if (!table) {
    DiscardRelocation(*ref.io, relocated);
    return std::unexpected(table.error());
  }
  return table->metadata_location;
}

}  // namespace floe::cli
