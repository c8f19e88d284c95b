// Evolution: schema changes, partition-spec changes, upsert (rollback, branch, tag and
// cherry-pick are in commands_refs.cc).
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/legacy_catalog.h"
#include "cli/row_files.h"
#include "commit/schema_update.h"
#include "commit/spec_update.h"
#include "rows/upsert.h"
#include "types/temporal.h"

namespace floe::cli {
namespace {

// Runs `change` on the table named by `table_text`, printing `done` on success.
int OnTable(CliContext& ctx, const std::string& table_text,
            const std::function<Result<std::string>(Catalog&, const TableIdentifier&)>& change) {
  auto id = TableIdentifier::Parse(table_text);
  if (!id) return ctx.Usage(id.error().message);
  auto catalog = LegacyCatalog(ctx);
  if (!catalog) return ctx.Fail(catalog.error());
  auto done = change(**catalog, *id);
  if (!done) {
    if (done.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(done.error().message);
    return ctx.Fail(done.error());
  }
  std::cout << *done << "\n";
  return kExitOk;
}

// Plans `update` against the table as loaded now and commits it (asserting the schema it was
// planned on). A test hook: with FLOE_TEST_PAUSE_AFTER_SCHEMA_PLAN=DIR the command creates
// DIR/planned once it has planned, then waits (at most 60 s) for DIR/go before committing, so
// a test can land another schema change in between.
Result<LoadedTable> CommitSchemaUpdate(Catalog& catalog, const TableIdentifier& id, const SchemaUpdate& update) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(MetadataChange change, update.Plan(table.metadata));
  if (const char* dir = std::getenv("FLOE_TEST_PAUSE_AFTER_SCHEMA_PLAN"); dir && *dir) {
    if (FILE* f = std::fopen((std::string(dir) + "/planned").c_str(), "w")) std::fclose(f);
    for (int waited = 0; waited < 600 && !std::filesystem::exists(std::string(dir) + "/go"); ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return CommitMetadataChange(catalog, id, change);
}

}  // namespace

void RegisterEvolutionCommands(CLI::App& app, CLI::App* schema_cmd, CliContext& ctx, int* exit_status) {
  // ---- schema add-column | rename-column | drop-column | update-column | move-column ----
  // A NAME is a dotted path to a nested field: loc.lat, points.element.x, tags.value.
  auto& sc_table = ctx.Keep<std::array<std::string, 3>>();
  auto& sc_name = ctx.Keep<std::array<std::string, 3>>();
  auto& sc_arg = ctx.Keep<std::array<std::string, 3>>();
  auto& add_doc = ctx.Keep<std::string>();
  auto& add_default = ctx.Keep<std::optional<std::string>>();
  auto* add = schema_cmd->add_subcommand("add-column", "add an optional column (loc.alt: a field of struct loc)");
  add->add_option("TABLE", sc_table[0], "NS.TABLE")->required();
  add->add_option("NAME", sc_name[0], "column name; a.b adds field b to struct a")->required();
  add->add_option("TYPE", sc_arg[0], "its type, e.g. long, string, decimal(10,2)")->required();
  add->add_option("--doc", add_doc, "the column's doc comment");
  add->add_option("--default", add_default,
                  "format 3: the value older rows read and appends that leave the column out write");
  OnRun(add, exit_status, [&] {
    auto type = Type::ParsePrimitive(sc_arg[0]);
    if (!type) return ctx.Usage(type.error().message);
    std::optional<Literal> default_value;
    if (add_default) {
      auto parsed = Literal::String(*add_default).CastTo(*type);
      if (!parsed) return ctx.Usage("--default '" + *add_default + "' is not a " + (*type)->ToString() + ": " +
                                    parsed.error().message);
      default_value = *parsed;
    }
    return OnTable(ctx, sc_table[0], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().AddColumn(sc_name[0], *type, add_doc,
                                                                                              default_value)));
      return "added column " + sc_name[0] + " " + (*type)->ToString() + " (schema " +
             std::to_string(t.metadata.current_schema_id) + ")";
    });
  });
  auto* rename = schema_cmd->add_subcommand("rename-column", "rename a column");
  rename->add_option("TABLE", sc_table[1], "NS.TABLE")->required();
  rename->add_option("NAME", sc_name[1], "current name")->required();
  rename->add_option("NEW_NAME", sc_arg[1], "new name")->required();
  OnRun(rename, exit_status, [&] {
    return OnTable(ctx, sc_table[1], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().RenameColumn(sc_name[1], sc_arg[1])));
      return "renamed column " + sc_name[1] + " to " + sc_arg[1];
    });
  });
  auto* identifier = schema_cmd->add_subcommand("set-identifier", "set the identifier fields (the row key)");
  auto& id_table = ctx.Keep<std::string>();
  auto& id_columns = ctx.Keep<std::string>();
  identifier->add_option("TABLE", id_table, "NS.TABLE")->required();
  identifier->add_option("COLUMNS", id_columns, "col,... (required, non-float, top-level columns)")->required();
  OnRun(identifier, exit_status, [&] {
    std::vector<std::string> columns = SplitColumnList(id_columns);
    if (columns.empty()) return ctx.Usage("set-identifier needs at least one column");
    return OnTable(ctx, id_table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().SetIdentifierFields(columns)));
      return "identifier fields of " + id.ToString() + ": " + id_columns + " (schema " +
             std::to_string(t.metadata.current_schema_id) + ")";
    });
  });
  auto* drop = schema_cmd->add_subcommand("drop-column", "drop a column");
  drop->add_option("TABLE", sc_table[2], "NS.TABLE")->required();
  drop->add_option("NAME", sc_name[2], "column name")->required();
  OnRun(drop, exit_status, [&] {
    return OnTable(ctx, sc_table[2], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().DropColumn(sc_name[2])));
      return "dropped column " + sc_name[2];
    });
  });

  auto* update = schema_cmd->add_subcommand(
      "update-column", "promote a column's type, make it optional, or set its doc");
  auto& up_col_table = ctx.Keep<std::string>();
  auto& up_col_name = ctx.Keep<std::string>();
  auto& up_col_type = ctx.Keep<std::string>();
  auto& up_col_doc = ctx.Keep<std::string>();
  auto& up_col_optional = ctx.Keep<bool>();
  up_col_optional = false;
  auto& up_col_required = ctx.Keep<bool>();
  up_col_required = false;
  update->add_option("TABLE", up_col_table, "NS.TABLE")->required();
  update->add_option("COLUMN", up_col_name, "column name (a.b: field b of struct a)")->required();
  update->add_option("--type", up_col_type,
                     "new type: int -> long, float -> double, decimal(P,S) -> decimal(P',S) with P' > P; "
                     "v3 tables also date -> timestamp");
  auto* optional_flag = update->add_flag("--optional", up_col_optional, "make the column optional (nullable)");
  update->add_flag("--required", up_col_required, "keep it required (refused for an optional column)")
      ->excludes(optional_flag);
  auto* doc_option = update->add_option("--doc", up_col_doc, "the column's doc comment ('' removes it)");
  OnRun(update, exit_status, [&, doc_option] {
    ColumnChange change;
    change.make_optional = up_col_optional;
    change.make_required = up_col_required;
    if (doc_option->count() > 0) change.doc = up_col_doc;
    if (!up_col_type.empty()) {
      auto type = Type::ParsePrimitive(up_col_type);
      if (!type) return ctx.Usage("--type: " + type.error().message);
      change.type = *type;
    }
    if (!change.type && !change.make_optional && !change.make_required && !change.doc)
      return ctx.Usage("update-column " + up_col_name + ": nothing to change (give --type, --optional or --doc)");
    return OnTable(ctx, up_col_table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().UpdateColumn(up_col_name, change)));
      const Schema& s = t.metadata.CurrentSchema();
      const NestedField* f = s.FindField(up_col_name);
      std::string now = f ? f->type->ToString() + (f->required ? " not null" : "") : std::string();
      return "updated column " + up_col_name + (now.empty() ? "" : ": " + now) + " (schema " +
             std::to_string(t.metadata.current_schema_id) + ")";
    });
  });

  auto* move = schema_cmd->add_subcommand("move-column", "move a column within its struct");
  auto& mv_table = ctx.Keep<std::string>();
  auto& mv_name = ctx.Keep<std::string>();
  auto& mv_after = ctx.Keep<std::string>();
  auto& mv_before = ctx.Keep<std::string>();
  auto& mv_first = ctx.Keep<bool>();
  mv_first = false;
  move->add_option("TABLE", mv_table, "NS.TABLE")->required();
  move->add_option("COLUMN", mv_name, "column name (a.b: field b of struct a, moved within a)")->required();
  auto* first = move->add_flag("--first", mv_first, "make it the first column of its struct");
  auto* after = move->add_option("--after", mv_after, "put it just after this column")->excludes(first);
  move->add_option("--before", mv_before, "put it just before this column")->excludes(first)->excludes(after);
  OnRun(move, exit_status, [&] {
    ColumnPosition position;
    if (!mv_after.empty()) {
      position = {ColumnPosition::Where::kAfter, mv_after};
    } else if (!mv_before.empty()) {
      position = {ColumnPosition::Where::kBefore, mv_before};
    } else if (!mv_first) {
      return ctx.Usage("move-column " + mv_name + ": say where: --first, --after COLUMN or --before COLUMN");
    }
    return OnTable(ctx, mv_table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().MoveColumn(mv_name, position)));
      std::string where = mv_first ? "first" : !mv_after.empty() ? "after " + mv_after : "before " + mv_before;
      return "moved column " + mv_name + " " + where + " (schema " + std::to_string(t.metadata.current_schema_id) +
             ")";
    });
  });

  // ---- partition-spec add | remove ----
  auto* spec = app.add_subcommand("partition-spec", "evolve the partition spec (old files keep theirs)");
  spec->require_subcommand(1);
  auto& ps_table = ctx.Keep<std::array<std::string, 2>>();
  auto& ps_arg = ctx.Keep<std::array<std::string, 2>>();
  for (int i = 0; i < 2; ++i) {
    auto* cmd = spec->add_subcommand(i == 0 ? "add" : "remove", i == 0 ? "add a partition field" : "remove one");
    cmd->add_option("TABLE", ps_table[i], "NS.TABLE")->required();
    cmd->add_option(i == 0 ? "FIELD" : "NAME", ps_arg[i], i == 0 ? "e.g. 'day(ts)' or 'bucket(16, id)'" : "field name")
        ->required();
    OnRun(cmd, exit_status, [&, i] {
      return OnTable(ctx, ps_table[i], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
        FLOE_ASSIGN_OR_RETURN(LoadedTable t,
                              i == 0 ? AddPartitionField(c, id, ps_arg[i]) : RemovePartitionField(c, id, ps_arg[i]));
        return std::string(i == 0 ? "added " : "removed ") + "partition field " + ps_arg[i] + " (spec " +
               std::to_string(t.metadata.default_spec_id) + ": " +
               t.metadata.DefaultSpec().ToString(t.metadata.CurrentSchema()) + ")";
      });
    });
  }

  // ---- upsert ----
  auto* upsert = app.add_subcommand("upsert", "insert rows, replacing those with the same key");
  auto& up_table = ctx.Keep<std::string>();
  auto& up_file = ctx.Keep<std::string>();
  auto& up_keys = ctx.Keep<std::string>();
  auto& up_format = ctx.Keep<std::string>();
  auto& up_branch = ctx.Keep<std::string>();
  up_branch = kMainBranch;
  upsert->add_option("TABLE", up_table, "NS.TABLE")->required();
  upsert->add_option("FILE", up_file, "CSV, JSON-lines or Parquet file")->required();
  upsert->add_option("--key", up_keys, "key columns: col,... (default: the table's identifier fields)");
  upsert->add_option("--format", up_format, "csv, jsonl or parquet");
  auto& up_text = ctx.Keep<TextReadOptions>();
  AddNullStringOption(upsert, &up_text);
  upsert->add_option("--branch", up_branch, "the branch to write to")->default_val(kMainBranch);
  OnRun(upsert, exit_status, [&] {
    std::vector<std::string> keys = SplitColumnList(up_keys);
    if (!up_keys.empty() && keys.empty()) return ctx.Usage("--key needs at least one column");
    return OnTable(ctx, up_table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, c.LoadTable(id));
      if (keys.empty() && t.metadata.CurrentSchema().identifier_field_ids().empty())
        return InvalidArgument("upsert " + id.ToString() +
                               ": no --key given and the table has no identifier fields (set them with "
                               "floe schema set-identifier " + id.ToString() + " COL,...)");
      FileRows rows({up_file}, up_format, t.metadata.CurrentSchema(), up_text);
      ColumnBatch all(t.metadata.CurrentSchema()), batch;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(bool more, rows.Next(&batch));
        if (!more) break;
        all.Append(batch);
      }
      RowWriteOptions options;
      options.commit.branch = up_branch;
      FLOE_ASSIGN_OR_RETURN(RowWriteResult r, Upsert(c, id, all, keys, options));
      return "upsert " + id.ToString() + ": " + std::to_string(all.num_rows) + " rows; " + r.commit.ToString() +
             (r.rebases ? "; redone " + std::to_string(r.rebases) + "x on newer states (disjoint keys)" : "");
    });
  });
}

}  // namespace floe::cli
