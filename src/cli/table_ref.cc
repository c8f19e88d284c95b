#include "cli/table_ref.h"

#include <filesystem>

#include "cli/legacy_catalog.h"
#include "io/local_file_io.h"
#include "io/local_path.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "scan/static_table.h"
#include "table_files/moved_paths_file_io.h"

namespace floe::cli {
namespace {

// MovedPaths::kRefuse: a table whose recorded location is not the folder it was read
// from and whose current manifest list is missing is refused, naming both and the flag.
Status CheckNotMoved(FileIO& io, const TableMetadata& metadata, const std::string& folder) {
  const Snapshot* current = metadata.CurrentSnapshot();
  if (!current || current->manifest_list.empty()) return {};
  if (!RecordsAnotherLocation(metadata, folder)) return {};
  FLOE_ASSIGN_OR_RETURN(bool exists, io.Exists(current->manifest_list));
  if (exists) return {};
  return NotFound("the table in " + folder + " records its location as " + metadata.location +
                  ", and its manifest list " + current->manifest_list +
                  " does not exist; if the table was copied or moved from there, add --allow-moved-paths "
                  "to read the paths under " + metadata.location + " from " + folder);
}

}  // namespace

bool RecordsAnotherLocation(const TableMetadata& metadata, const std::string& folder) {
  std::string recorded = MovedPathKey(metadata.location);
  while (recorded.size() > 1 && recorded.back() == '/') recorded.pop_back();
  return recorded != folder;
}

std::string TableFolderOf(const std::string& argument) {
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(argument, ec).lexically_normal();
  if (!std::filesystem::is_directory(path, ec)) {
    bool metadata_file = path.extension() == ".json";
    path = path.parent_path();
    if (metadata_file) {
      if (path.filename() == "metadata") path = path.parent_path();
    } else {
      std::filesystem::path up = path;
      while (!up.empty() && up.filename() != "metadata" && up.filename() != "data" && up != up.root_path())
        up = up.parent_path();
      path = (up.filename() == "metadata" || up.filename() == "data") ? up.parent_path() : std::filesystem::path();
    }
  }
  std::string folder = path.string();
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  return folder;
}

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
    } else if (moved == MovedPaths::kRefuse) {
      FLOE_RETURN_IF_ERROR(CheckNotMoved(*ref.io, ref.metadata, folder));
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
