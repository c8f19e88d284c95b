#include "cli/table_ref.h"

#include <filesystem>

#include "cli/legacy_catalog.h"
#include "floe/table_folder.h"
#include "io/local_file_io.h"
#include "io/local_path.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "scan/static_table.h"
#include "table_files/moved_paths_file_io.h"

namespace floe::cli {

bool RecordsAnotherLocation(const TableMetadata& metadata, const std::string& folder) {
  std::string recorded = MovedPathKey(metadata.location);
  while (recorded.size() > 1 && recorded.back() == '/') recorded.pop_back();
  return recorded != folder;
}

std::string TableFolderOf(const std::string& argument) { return TableFolder::FolderOf(argument); }

Result<TableRef> ResolveTable(CliContext& ctx, const std::string& argument, MovedPaths moved) {
  TableRef ref;
  ref.display = argument;
  std::error_code ec;
  bool is_path = argument.find('/') != std::string::npos || argument.ends_with(".json") ||
                 std::filesystem::is_directory(argument, ec);
  // An s3:// folder or metadata file is read with the AWS settings of this process.
  if (IsS3Uri(argument) || (is_path && std::filesystem::exists(argument, ec))) {
    ref.io = std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::map<std::string, std::string>{});
    FLOE_ASSIGN_OR_RETURN(StaticTable table, OpenStaticTable(*ref.io, argument));
    ref.metadata_location = table.metadata_location;
    ref.metadata = std::move(table.metadata);
    const std::string folder = TableFolderOf(argument);
    ref.folder = folder;
    if (moved == MovedPaths::kAllow) {
      ref.io = std::make_shared<MovedPathsFileIO>(ref.io, ref.metadata.location, folder);
    } else if (moved == MovedPaths::kRefuse) {  // the public folder's check, on the same files
      FLOE_RETURN_IF_ERROR(TableFolder::Open(argument, floe::MovedPaths::kRefuse));
    }
    return ref;
  }
  auto id = TableIdentifier::Parse(argument);
  if (!id) {
    if (is_path) return NotFound("no table folder or metadata file at '" + argument + "'");
    return std::unexpected(id.error());
  }
  FLOE_ASSIGN_OR_RETURN(Catalog * catalog, LegacyCatalog(ctx));
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog->LoadTable(*id));
  ref.io = catalog->io();
  ref.metadata_location = loaded.metadata_location;
  ref.metadata = std::move(loaded.metadata);
  ref.from_catalog = true;
  ref.id = *id;
  return ref;
}

}  // namespace floe::cli
