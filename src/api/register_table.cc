// Connection::RegisterTable: a metadata file registered as a table, a moved table's metadata
// tree relocated first when the caller allows it (maint/relocate_table.h).
#include <filesystem>
#include <map>

#include "api/api_internal.h"
#include "api/moved_folder.h"
#include "io/local_file_io.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "maint/relocate_table.h"
#include "scan/static_table.h"

namespace floe {

Result<std::string> Connection::RegisterTable(const std::string& name, const std::string& metadata_file,
                                              const RegisterTableOptions& options) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableIdentifier::Parse(name));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  Catalog& catalog = *impl_->catalog;
  std::error_code ec;
  const bool readable_here = IsS3Uri(metadata_file) || std::filesystem::is_regular_file(metadata_file, ec);
  if (!readable_here) {
    // A location only the catalog can read (a REST server's own storage) is its to check.
    if (options.allow_moved_paths)
      return NotFound("--allow-moved-paths: no metadata file at '" + metadata_file + "'");
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.RegisterTable(id, metadata_file));
    return table.metadata_location;
  }
  auto io = std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::map<std::string, std::string>{});
  FLOE_ASSIGN_OR_RETURN(StaticTable read, OpenStaticTable(*io, metadata_file));
  const std::string folder = TableFolderOf(metadata_file);
  if (!options.allow_moved_paths) FLOE_RETURN_IF_ERROR(CheckNotMoved(*io, read.metadata, folder));
  if (!options.allow_moved_paths || !RecordsAnotherLocation(read.metadata, folder)) {
    FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.RegisterTable(id, metadata_file));
    return table.metadata_location;
  }
  // Refused before anything is written: the relocation would be left behind for nothing.
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.TableExists(id));
  if (exists) return AlreadyExists("table " + id.ToString() + " already exists");
  FLOE_ASSIGN_OR_RETURN(RelocatedTable relocated, RelocateTable(*io, read.metadata, read.metadata_location, folder));
  auto table = catalog.RegisterTable(id, relocated.metadata_location);
  if (!table) {
    DiscardRelocation(*io, relocated);
    return std::unexpected(table.error());
  }
  return table->metadata_location;
}

}  // namespace floe
