// Tables: create, register, properties (namespaces, list, drop and rename: commands_namespace.cc).
#include <algorithm>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/legacy_catalog.h"
#include "cli/output.h"
#include "cli/table_register.h"
#include "commit/spec_update.h"
#include "meta/metadata_json.h"
#include "parquet/parquet_reader.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "write/text_rows.h"

namespace floe::cli {
namespace {

Result<Properties> ParseKeyValues(const std::vector<std::string>& pairs, const std::string& option) {
  Properties out;
  for (const auto& pair : pairs) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      return InvalidArgument(option + " expects KEY=VALUE, got '" + pair + "'");
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

// The schema of a sample file: Parquet's own schema, or one inferred from CSV / JSON lines.
Result<Schema> SchemaLike(const std::string& path) {
  if (path.ends_with(".parquet")) {
    FLOE_ASSIGN_OR_RETURN(auto file, parquet::ParquetFile::OpenPath(path));
    return Schema(0, file->schema().fields());
  }
  FLOE_ASSIGN_OR_RETURN(TextFormat format, TextFormatFor(path, ""));
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("--like: cannot open '" + path + "'");
  return InferSchema(in, format, path);
}

struct ListingOptions {
  std::string format = "table";
};

void AddFormatOption(CLI::App* cmd, ListingOptions* options) {
  cmd->add_option("--format", options->format, "table, csv, jsonl or json")->default_val("table");
}

int Print(CliContext& ctx, const Listing& listing, const ListingOptions& options) {
  auto format = ParseOutputFormat(options.format);
  if (!format) return ctx.Usage(format.error().message);
  PrintListing(listing, *format, std::cout);
  return kExitOk;
}

void RegisterTableCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* create = app.add_subcommand("create", "create a table");
  auto& table_name = ctx.Keep<std::string>();
  auto& schema_text = ctx.Keep<std::string>();
  auto& partition_text = ctx.Keep<std::string>();
  auto& like_file = ctx.Keep<std::string>();
  auto& location = ctx.Keep<std::string>();
  auto& identifier_text = ctx.Keep<std::string>();
  auto& properties = ctx.Keep<std::vector<std::string>>();
  auto& format_version = ctx.Keep<int>();
  format_version = 2;
  create->add_option("TABLE", table_name, "NS.TABLE")->required();
  create->add_option("--schema", schema_text, "'order_id long, country string, amount_cents long, ts timestamp'");
  create->add_option("--like", like_file, "take the schema from a CSV, JSON-lines or Parquet file");
  create->add_option("--identifier", identifier_text,
                     "the row key (identifier fields): 'customer,day'; made required (upsert's default key)");
  create->add_option("--partition-by", partition_text, "'country, day(ts)'; also bucket(N, col), truncate(W, col)");
  create->add_option("--property", properties, "KEY=VALUE, repeatable");
  create->add_option("--location", location, "table location (default: under the warehouse)");
  create->add_option("--format-version", format_version, "1, 2 or 3")->default_val(2);
  OnRun(create, exit_status, [&] {
    auto id = TableIdentifier::Parse(table_name);
    if (!id) return ctx.Usage(id.error().message);
    if (schema_text.empty() == like_file.empty()) return ctx.Usage("create needs exactly one of --schema or --like");
    Result<Schema> schema = InvalidArgument("no schema");
    if (!schema_text.empty()) {
      schema = ParseSchemaText(schema_text);
    } else {
      schema = SchemaLike(like_file);
    }
    if (!schema) return ctx.Usage("--schema: " + schema.error().message);
    if (!identifier_text.empty()) {
      // A new table has no rows yet, so the key columns can be made required, as Iceberg asks.
      std::vector<NestedField> fields = schema->fields();
      std::vector<int> ids;
      for (const std::string& name : SplitColumnList(identifier_text)) {
        auto field = std::find_if(fields.begin(), fields.end(), [&](const NestedField& f) { return f.name == name; });
        if (field == fields.end()) return ctx.Usage("--identifier: '" + name + "' is not a top-level column of the schema");
        if (std::count(ids.begin(), ids.end(), field->id)) return ctx.Usage("--identifier: '" + name + "' is named twice");
        field->required = true;
        ids.push_back(field->id);
      }
      if (ids.empty()) return ctx.Usage("--identifier needs at least one column");
      schema = Schema(schema->schema_id(), std::move(fields), std::move(ids));
      if (auto valid = schema->Validate(); !valid) return ctx.Usage("--identifier: " + valid.error().message);
    }
    auto fields = ParsePartitionFields(partition_text, *schema, PartitionSpec::kFirstFieldId);
    if (!fields) return ctx.Usage("--partition-by: " + fields.error().message);
    auto props = ParseKeyValues(properties, "--property");
    if (!props) return ctx.Usage(props.error().message);
    if (format_version < 1 || format_version > 3) return ctx.Usage("--format-version must be 1, 2 or 3");
    auto catalog = LegacyCatalog(ctx);
    if (!catalog) return ctx.Fail(catalog.error());
    CreateTableRequest request;
    request.schema = *schema;
    request.spec = PartitionSpec(0, *fields);
    request.properties = *props;
    request.format_version = format_version;
    if (!location.empty()) request.location = location;
    auto table = (*catalog)->CreateTable(*id, request);
    if (!table) return ctx.Fail(table.error());
    std::cout << "created table " << id->ToString() << " at " << table->metadata.location << "\n";
    return kExitOk;
  });

}

void RegisterRegisterAndPropertiesCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* reg = app.add_subcommand("register", "register an existing metadata file as a table");
  auto& reg_name = ctx.Keep<std::string>();
  auto& reg_metadata = ctx.Keep<std::string>();
  auto& reg_allow_moved = ctx.Keep<bool>();
  reg_allow_moved = false;
  reg->add_option("TABLE", reg_name, "NS.TABLE")->required();
  reg->add_option("METADATA", reg_metadata, "path of a metadata.json file")->required();
  reg->add_flag("--allow-moved-paths", reg_allow_moved,
                "register a copied or moved table: its manifest lists, manifests and position delete files are "
                "rewritten beside it with paths under the folder given, then that new metadata file is registered");
  OnRun(reg, exit_status, [&] {
    auto id = TableIdentifier::Parse(reg_name);
    if (!id) return ctx.Usage(id.error().message);
    auto catalog = LegacyCatalog(ctx);
    if (!catalog) return ctx.Fail(catalog.error());
    auto registered = RegisterTableFile(ctx, **catalog, *id, reg_metadata, reg_allow_moved);
    if (!registered) return ctx.Fail(registered.error());
    std::cout << "registered " << id->ToString() << " at " << *registered << "\n";
    return kExitOk;
  });

  auto* props_cmd = app.add_subcommand("properties", "show or change table properties");
  auto& props_table = ctx.Keep<std::string>();
  auto& set_pairs = ctx.Keep<std::vector<std::string>>();
  auto& unset_keys = ctx.Keep<std::vector<std::string>>();
  auto& props_options = ctx.Keep<ListingOptions>();
  props_cmd->add_option("TABLE", props_table, "NS.TABLE")->required();
  props_cmd->add_option("--set", set_pairs, "KEY=VALUE, repeatable");
  props_cmd->add_option("--unset", unset_keys, "KEY, repeatable");
  AddFormatOption(props_cmd, &props_options);
  OnRun(props_cmd, exit_status, [&] {
    auto id = TableIdentifier::Parse(props_table);
    if (!id) return ctx.Usage(id.error().message);
    auto updates = ParseKeyValues(set_pairs, "--set");
    if (!updates) return ctx.Usage(updates.error().message);
    auto catalog = LegacyCatalog(ctx);
    if (!catalog) return ctx.Fail(catalog.error());
    auto table = (*catalog)->LoadTable(*id);
    if (!table) return ctx.Fail(table.error());
    if (!updates->empty() || !unset_keys.empty()) {
      // format-version=N upgrades the table (commit/spec_update.h: PlanProperties).
      auto committed = UpdateProperties(**catalog, *id, *updates, unset_keys);
      if (!committed) return ctx.Fail(committed.error());
      table = std::move(committed);
    }
    Listing listing{{"key", "value"}, {}};
    for (const auto& [k, v] : table->metadata.properties) listing.rows.push_back({k, v});
    return Print(ctx, listing, props_options);
  });
}

}  // namespace

void RegisterCatalogCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  RegisterNamespaceCommands(app, ctx, exit_status);   // commands_namespace.cc
  RegisterTableCommands(app, ctx, exit_status);       // create
  RegisterTableNameCommands(app, ctx, exit_status);   // list, drop, rename: commands_namespace.cc
  RegisterRegisterAndPropertiesCommands(app, ctx, exit_status);
}

}  // namespace floe::cli
