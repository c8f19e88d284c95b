// floe schema NS.T: the current schema, its partition spec and sort order.
#include <iostream>

#include "cli/commands.h"
#include "cli/json_text.h"
#include "cli/output.h"
#include "cli/table_argument.h"
#include "floe/schema_info.h"

namespace floe::cli {

// Here, in the command library rather than beside main(): every file that registers a command
// calls it, and the unit tests link those files (a unity unit holds several) without main.cc.
void OnRun(CLI::App* command, int* exit_status, Action action) {
  command->callback([exit_status, action = std::move(action)] { *exit_status = action(); });
}

std::vector<std::string> SplitColumnList(const std::string& text) {
  std::vector<std::string> out;
  for (size_t start = 0; start <= text.size();) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {

struct SchemaArgs {
  std::string table;  // empty: a subcommand (add-column, ...) is given instead
  std::string format = "table";
};

int RunSchema(CliContext& ctx, const SchemaArgs& args) {
  if (args.table.empty()) return ctx.Usage("schema needs a TABLE (or a subcommand such as add-column)");
  auto out_format = ParseOutputFormat(args.format);
  if (!out_format) return ctx.Usage(out_format.error().message);
  auto table = OpenTableArgument(ctx, args.table);
  if (!table) return ctx.Fail(table.error());
  auto info = table->folder ? table->folder->CurrentSchema() : table->table->CurrentSchema();
  if (!info) return ctx.Fail(info.error());
  if (*out_format == OutputFormat::kJson) {
    std::cout << JsonText(nlohmann::json::parse(info->json), 2) << "\n";
    return kExitOk;
  }
  // One row per field, nested ones under their dotted names (loc.lat, points.element.x,
  // tags.value): the names the schema subcommands take.
  Listing listing{{"id", "name", "type", "required", "identifier", "doc"}, {}};
  for (const ColumnInfo& c : info->columns)
    listing.rows.push_back({c.id, c.name, c.type, c.required, c.identifier, c.doc});
  PrintListing(listing, *out_format, std::cout);
  if (*out_format == OutputFormat::kTable) {
    std::cout << "\nschema id " << info->schema_id << "; partitioned by: "
              << (info->partition_spec.empty() ? "(unpartitioned)" : info->partition_spec) << " (spec "
              << info->spec_id << ")\n";
  }
  return kExitOk;
}

}  // namespace

void RegisterSchemaCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* schema = app.add_subcommand("schema", "show a table's schema (or change it: floe schema add-column ...)");
  auto& args = ctx.Keep<SchemaArgs>();
  schema->add_option("TABLE", args.table, "NS.TABLE, or a table folder or metadata file");
  schema->add_option("--format", args.format, "table, csv, jsonl or json")->default_val("table");
  OnRun(schema, exit_status, [&, schema, exit_status] {
    if (!schema->get_subcommands().empty()) return *exit_status;  // a subcommand did the work
    return RunSchema(ctx, args);
  });
}

}  // namespace floe::cli
