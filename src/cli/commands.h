// Each group of floe commands registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/cli_context.h"

namespace floe::cli {

// A command's action; its return value is the process exit status.
using Action = std::function<int()>;

// "customer, day" as {"customer", "day"}: a --key or --identifier list (blanks trimmed, empty
// parts dropped).
std::vector<std::string> SplitColumnList(const std::string& text);

// Sets the action that runs when `command` is the one chosen.
void OnRun(CLI::App* command, int* exit_status, Action action);

// namespace create|list|drop; list, drop, rename (built on include/floe alone).
void RegisterNamespaceCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterTableNameCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterCatalogCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterInspectCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterServeCommands(CLI::App& app, CliContext& ctx, int* exit_status);
// delete, update (built on include/floe alone); RegisterWriteCommands registers them in its order.
void RegisterChangeCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterWriteCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterScanCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterSchemaCommands(CLI::App& app, CliContext& ctx, int* exit_status);
// rollback, branch, tag, cherry-pick (built on include/floe alone).
void RegisterRefCommands(CLI::App& app, CliContext& ctx, int* exit_status);
// Needs the `schema` command to hang add-column / rename-column / drop-column under it.
// schema add-column ..., partition-spec (built on include/floe alone); it registers upsert after them.
void RegisterEvolutionCommands(CLI::App& app, CLI::App* schema_command, CliContext& ctx, int* exit_status);
void RegisterUpsertCommand(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterMaintenanceCommands(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterDemoCommand(CLI::App& app, CliContext& ctx, int* exit_status);
void RegisterStatsCommand(CLI::App& app, CliContext& ctx, int* exit_status);
// view create|list|show|replace|rename|drop|history (built on include/floe alone).
void RegisterViewCommands(CLI::App& app, CliContext& ctx, int* exit_status);

}  // namespace floe::cli
