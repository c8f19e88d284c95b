#include "cli/table_argument.h"

#include <filesystem>

namespace floe::cli {

Result<TableArgument> OpenTableArgument(CliContext& ctx, const std::string& argument) {
  TableArgument out;
  std::error_code ec;
  const bool is_path = argument.find('/') != std::string::npos || argument.ends_with(".json") ||
                       std::filesystem::is_directory(argument, ec);
  if (TableFolder::IsS3Uri(argument) || (is_path && std::filesystem::exists(argument, ec))) {
    FLOE_ASSIGN_OR_RETURN(TableFolder folder, TableFolder::Open(argument));
    out.folder.emplace(std::move(folder));
    return out;
  }
  if (auto name = Connection::CheckTableName(argument); !name) {
    if (is_path) return NotFound("no table folder or metadata file at '" + argument + "'");
    return std::unexpected(name.error());
  }
  FLOE_ASSIGN_OR_RETURN(Connection * connection, ctx.connection());
  FLOE_ASSIGN_OR_RETURN(Table table, connection->GetTable(argument));
  out.table.emplace(std::move(table));
  return out;
}

}  // namespace floe::cli
