#include "cli/table_reading.h"

#include <filesystem>

#include "floe/catalog.h"

namespace floe::cli {

Result<TableReader> OpenTableReader(CliContext& ctx, const std::string& argument, floe::MovedPaths moved) {
  std::error_code ec;
  bool is_path = argument.find('/') != std::string::npos || argument.ends_with(".json") ||
                 std::filesystem::is_directory(argument, ec);
  // An s3:// folder or metadata file is read with the AWS settings of this process.
  if (TableFolder::IsS3Uri(argument) || (is_path && std::filesystem::exists(argument, ec))) {
    FLOE_ASSIGN_OR_RETURN(TableFolder folder, TableFolder::Open(argument, moved));
    return TableReader::Of(folder);
  }
  auto name = Connection::CheckTableName(argument);
  if (!name) {
    if (is_path) return NotFound("no table folder or metadata file at '" + argument + "'");
    return std::unexpected(name.error());
  }
  FLOE_ASSIGN_OR_RETURN(Connection * connection, ctx.connection());
  FLOE_ASSIGN_OR_RETURN(Table table, connection->GetTable(*name));
  return TableReader::Load(table);
}

}  // namespace floe::cli
