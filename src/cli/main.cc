// floe: the command line for Iceberg tables.
#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/cli_context.h"
#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/help_examples.h"
#include "floe/file_inspect.h"  // PrintableText
#include "floe/version.h"

int main(int argc, char** argv) {
  using namespace floe::cli;
  CliContext ctx;
  int exit_status = kExitOk;
  CLI::App app{"floe: Apache Iceberg tables from the command line"};
  app.name("floe");
  app.require_subcommand(1);
  app.fallthrough();
  app.set_version_flag("--version", std::string("floe ") + FLOE_VERSION, "print the version and exit");
  app.add_option("--catalog", ctx.catalog_uri,
                 "catalog URI (sqlite:///path.db, postgresql://user@host:port/db, file:///warehouse, "
                 "http://host:port); default $FLOE_CATALOG or ./warehouse/catalog.db");
  app.add_option("--catalog-name", ctx.catalog_name, "catalog name inside a SQL catalog database")
      ->default_val("default");

  RegisterCatalogCommands(app, ctx, &exit_status);
  RegisterInspectCommands(app, ctx, &exit_status);
  RegisterServeCommands(app, ctx, &exit_status);
  RegisterWriteCommands(app, ctx, &exit_status);
  RegisterScanCommands(app, ctx, &exit_status);
  RegisterSchemaCommands(app, ctx, &exit_status);
  RegisterRefCommands(app, ctx, &exit_status);
  RegisterEvolutionCommands(app, app.get_subcommand("schema"), ctx, &exit_status);
  RegisterMaintenanceCommands(app, ctx, &exit_status);
  RegisterDemoCommand(app, ctx, &exit_status);
  RegisterStatsCommand(app, ctx, &exit_status);
  RegisterViewCommands(app, ctx, &exit_status);
  RegisterCompletionCommand(app, &exit_status);
  AddHelpExamples(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "floe: " << e.what() << "\n";
    std::cerr << "Run 'floe --help' (or 'floe COMMAND --help') for usage.\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    // A dependency threw where floe expected none (a bug to report): say what, exit 1.
    std::cerr << "floe: unexpected error: " << floe::PrintableText(e.what()) << "\n";
    return kExitError;
  } catch (...) {
    std::cerr << "floe: unexpected error (not a std::exception)\n";
    return kExitError;
  }
  return exit_status;
}
