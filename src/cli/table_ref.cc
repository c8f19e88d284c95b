#include "cli/table_ref.h"

#include <filesystem>

#include "io/local_file_io.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "scan/static_table.h"

namespace floe::cli {

Result<TableRef> ResolveTable(CliContext& ctx, const std::string& argument) {
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
    return ref;
  }
  auto id = TableIdentifier::Parse(argument);
  if (!id) {
    if (is_path) return NotFound("no table folder or metadata file at '" + argument + "'");
    return std::unexpected(id.error());
  }
  FLOE_ASSIGN_OR_RETURN(Catalog * catalog, ctx.catalog());
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog->LoadTable(*id));
  ref.io = catalog->io();
  ref.metadata_location = loaded.metadata_location;
  ref.metadata = std::move(loaded.metadata);
  ref.from_catalog = true;
  ref.id = *id;
  return ref;
}

}  // namespace floe::cli
