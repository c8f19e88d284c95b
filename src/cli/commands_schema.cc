// floe schema NS.T: the current schema, its partition spec and sort order.
#include <functional>
#include <iostream>

#include "cli/commands.h"
#include "cli/json_text.h"
#include "cli/output.h"
#include "cli/table_ref.h"
#include "meta/metadata_json.h"

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

void RegisterSchemaCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* schema = app.add_subcommand("schema", "show a table's schema (or change it: floe schema add-column ...)");
  auto& table_name = ctx.Keep<std::string>();
  auto& format = ctx.Keep<std::string>();
  format = "table";
  schema->add_option("TABLE", table_name, "NS.TABLE, or a table folder or metadata file");
  schema->add_option("--format", format, "table, csv, jsonl or json")->default_val("table");
  OnRun(schema, exit_status, [&, schema, exit_status] {
    if (!schema->get_subcommands().empty()) return *exit_status;  // a subcommand did the work
    if (table_name.empty()) return ctx.Usage("schema needs a TABLE (or a subcommand such as add-column)");
    auto out_format = ParseOutputFormat(format);
    if (!out_format) return ctx.Usage(out_format.error().message);
    auto table = ResolveTable(ctx, table_name);
    if (!table) return ctx.Fail(table.error());
    const TableMetadata& m = table->metadata;
    const Schema& s = m.CurrentSchema();
    if (*out_format == OutputFormat::kJson) {
      nlohmann::json j = SchemaToJson(s);
      j["partition-spec"] = PartitionSpecToJson(m.DefaultSpec());
      std::cout << JsonText(j, 2) << "\n";
      return kExitOk;
    }
    // One row per field, nested ones under their dotted names (loc.lat, points.element.x,
    // tags.value): the names the schema subcommands take.
    Listing listing{{"id", "name", "type", "required", "identifier", "doc"}, {}};
    std::function<void(const std::vector<NestedField>&, const std::string&)> add_rows =
        [&](const std::vector<NestedField>& fields, const std::string& prefix) {
          for (const auto& f : fields) {
            bool identifier = std::find(s.identifier_field_ids().begin(), s.identifier_field_ids().end(), f.id) !=
                              s.identifier_field_ids().end();
            listing.rows.push_back({f.id, prefix + f.name, f.type->ToString(), f.required, identifier, f.doc});
            if (f.type->is_nested()) add_rows(f.type->fields(), prefix + f.name + ".");
          }
        };
    add_rows(s.fields(), "");
    PrintListing(listing, *out_format, std::cout);
    if (*out_format == OutputFormat::kTable) {
      std::cout << "\nschema id " << s.schema_id() << "; partitioned by: "
                << (m.DefaultSpec().fields().empty() ? "(unpartitioned)" : m.DefaultSpec().ToString(s)) << " (spec "
                << m.default_spec_id << ")\n";
    }
    return kExitOk;
  });
}

}  // namespace floe::cli
