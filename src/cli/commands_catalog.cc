// Tables: create, register, properties (namespaces, list, drop and rename: commands_namespace.cc).
// Built on include/floe alone.
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/output.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

Result<std::map<std::string, std::string>> ParseKeyValues(const std::vector<std::string>& pairs,
                                                          const std::string& option) {
  std::map<std::string, std::string> out;
  for (const auto& pair : pairs) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return InvalidArgument(option + " expects KEY=VALUE, got '" + pair + "'");
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

// The option a part of the table definition came from, as the messages name it.
std::string OptionOf(DefinitionPart part) {
  switch (part) {
    case DefinitionPart::kSchema: return "--schema";
    case DefinitionPart::kIdentifier: return "--identifier";
    case DefinitionPart::kPartitionBy: return "--partition-by";
    case DefinitionPart::kFormatVersion: return "--format-version";
  }
  return "--schema";
}

struct CreateCommand {
  std::string table, schema, like, partition_by, location, identifier;
  std::vector<std::string> properties;
  int format_version = 2;

  int Run(CliContext& ctx) const {
    if (auto valid = Connection::CheckTableName(table); !valid) return ctx.Usage(valid.error().message);
    if (schema.empty() == like.empty()) return ctx.Usage("create needs exactly one of --schema or --like");
    TableDefinition definition;
    definition.schema = schema;
    definition.schema_like = like;
    definition.partition_by = partition_by;
    definition.identifier_columns = SplitColumnList(identifier);
    definition.format_version = format_version;
    if (!location.empty()) definition.location = location;
    // Checked in the order of the options' messages: schema, identifier, partition, properties,
    // format version; all before the catalog is opened.
    std::optional<DefinitionProblem> problem = CheckTableDefinition(definition);
    if (problem && problem->part == DefinitionPart::kSchema) return ctx.Usage("--schema: " + problem->error.message);
    if (!identifier.empty() && definition.identifier_columns.empty())
      return ctx.Usage("--identifier needs at least one column");
    if (problem && problem->part != DefinitionPart::kFormatVersion)
      return ctx.Usage(OptionOf(problem->part) + ": " + problem->error.message);
    auto props = ParseKeyValues(properties, "--property");
    if (!props) return ctx.Usage(props.error().message);
    definition.properties = std::move(*props);
    if (problem) return ctx.Usage("--format-version must be 1, 2 or 3");
    auto connection = ctx.connection();
    if (!connection) return ctx.Fail(connection.error());
    auto created = (*connection)->CreateTable(table, definition);
    if (!created) return ctx.Fail(created.error());
    auto at = created->Location();
    if (!at) return ctx.Fail(at.error());
    std::cout << "created table " << created->name() << " at " << *at << "\n";
    return kExitOk;
  }
};

// Whether `argument` is a file of this folder whose name does not say it is a path: no '/',
// not *.json, not a folder, not s3://.
bool NamesACatalogTable(const std::string& argument) {
  std::error_code ec;
  if (TableFolder::IsS3Uri(argument) || argument.find('/') != std::string::npos || argument.ends_with(".json"))
    return false;
  return std::filesystem::is_regular_file(argument, ec) && !std::filesystem::is_directory(argument, ec);
}

struct RegisterCommand {
  std::string table, metadata;
  bool allow_moved_paths = false;

  int Run(CliContext& ctx) const {
    auto name = Connection::CheckTableName(table);
    if (!name) return ctx.Usage(name.error().message);
    auto connection = ctx.connection();
    if (!connection) return ctx.Fail(connection.error());
    if (NamesACatalogTable(metadata)) {
      // The rule of every table argument (cli/table_reading.h): a bare word that is not a *.json
      // file or a folder names a catalog table first, even when a file of that name exists.
      auto named = (*connection)->GetTable(metadata);
      if (!named) return ctx.Fail(named.error());
      if (auto loaded = named->Properties(); !loaded) return ctx.Fail(loaded.error());
    }
    auto registered = (*connection)->RegisterTable(table, metadata, {.allow_moved_paths = allow_moved_paths});
    if (!registered) return ctx.Fail(registered.error());
    std::cout << "registered " << *name << " at " << *registered << "\n";
    return kExitOk;
  }
};

struct PropertiesCommand {
  std::string table, format = "table";
  std::vector<std::string> set, unset;

  int Run(CliContext& ctx) const {
    int exit_status = kExitOk;
    if (auto valid = Connection::CheckTableName(table); !valid) return ctx.Usage(valid.error().message);
    auto updates = ParseKeyValues(set, "--set");
    if (!updates) return ctx.Usage(updates.error().message);
    auto handle = ctx.OpenTable(table, &exit_status);
    if (!handle) return exit_status;
    auto properties = handle->Properties();
    if (!properties) return ctx.Fail(properties.error());
    if (!updates->empty() || !unset.empty()) {
      // format-version=N upgrades the table (Table::ChangeProperties).
      properties = handle->ChangeProperties(*updates, unset);
      if (!properties) return ctx.Fail(properties.error());
    }
    Listing listing{{"key", "value"}, {}};
    for (const auto& [k, v] : *properties) listing.rows.push_back({k, v});
    auto output = ParseOutputFormat(format);
    if (!output) return ctx.Usage(output.error().message);
    PrintListing(listing, *output, std::cout);
    return kExitOk;
  }
};

void RegisterCreateCommand(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* create = app.add_subcommand("create", "create a table");
  auto& c = ctx.Keep<CreateCommand>();
  create->add_option("TABLE", c.table, "NS.TABLE")->required();
  create->add_option("--schema", c.schema, "'order_id long, country string, amount_cents long, ts timestamp'");
  create->add_option("--like", c.like, "take the schema from a CSV, JSON-lines or Parquet file");
  create->add_option("--identifier", c.identifier,
                     "the row key (identifier fields): 'customer,day'; made required (upsert's default key)");
  create->add_option("--partition-by", c.partition_by, "'country, day(ts)'; also bucket(N, col), truncate(W, col)");
  create->add_option("--property", c.properties, "KEY=VALUE, repeatable");
  create->add_option("--location", c.location, "table location (default: under the warehouse)");
  create->add_option("--format-version", c.format_version, "1, 2 or 3")->default_val(2);
  OnRun(create, exit_status, [&ctx, &c] { return c.Run(ctx); });
}

void RegisterRegisterAndPropertiesCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* reg = app.add_subcommand("register", "register an existing metadata file as a table");
  auto& r = ctx.Keep<RegisterCommand>();
  reg->add_option("TABLE", r.table, "NS.TABLE")->required();
  reg->add_option("METADATA", r.metadata, "path of a metadata.json file")->required();
  reg->add_flag("--allow-moved-paths", r.allow_moved_paths,
                "register a copied or moved table: its manifest lists, manifests and position delete files are "
                "rewritten beside it with paths under the folder given, then that new metadata file is registered");
  OnRun(reg, exit_status, [&ctx, &r] { return r.Run(ctx); });

  auto* props = app.add_subcommand("properties", "show or change table properties");
  auto& p = ctx.Keep<PropertiesCommand>();
  props->add_option("TABLE", p.table, "NS.TABLE")->required();
  props->add_option("--set", p.set, "KEY=VALUE, repeatable");
  props->add_option("--unset", p.unset, "KEY, repeatable");
  props->add_option("--format", p.format, "table, csv, jsonl or json")->default_val("table");
  OnRun(props, exit_status, [&ctx, &p] { return p.Run(ctx); });
}

}  // namespace

void RegisterCatalogCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  RegisterNamespaceCommands(app, ctx, exit_status);   // commands_namespace.cc
  RegisterCreateCommand(app, ctx, exit_status);
  RegisterTableNameCommands(app, ctx, exit_status);   // list, drop, rename: commands_namespace.cc
  RegisterRegisterAndPropertiesCommands(app, ctx, exit_status);
}

}  // namespace floe::cli
