// History and evolution: rollback, branch, tag, cherry-pick, schema changes, partition-spec
// changes, upsert.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "cli/row_files.h"
#include "commit/schema_update.h"
#include "commit/snapshot_refs.h"
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
  auto catalog = ctx.catalog();
  if (!catalog) return ctx.Fail(catalog.error());
  auto done = change(**catalog, *id);
  if (!done) {
    if (done.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(done.error().message);
    return ctx.Fail(done.error());
  }
  std::cout << *done << "\n";
  return kExitOk;
}

std::optional<int64_t> OptionalId(int64_t v) { return v >= 0 ? std::optional<int64_t>(v) : std::nullopt; }

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
  // ---- rollback ----
  auto* rollback = app.add_subcommand("rollback", "set main back to an earlier snapshot (id or time)");
  static std::string rb_table, rb_to, rb_branch = kMainBranch;
  rollback->add_option("TABLE", rb_table, "NS.TABLE")->required();
  rollback->add_option("--to", rb_to, "SNAPSHOT_ID or a time (2026-01-01T10:00:00)")->required();
  rollback->add_option("--branch", rb_branch, "the branch to move")->default_val(kMainBranch);
  OnRun(rollback, exit_status, [&ctx] {
    bool digits = !rb_to.empty() && rb_to.find_first_not_of("0123456789") == std::string::npos;
    Result<int64_t> when = 0;
    if (!digits) {
      auto micros = ParseTimestamp(rb_to, 1000000);
      if (!micros) return ctx.Usage("--to: " + micros.error().message);
      when = *micros / 1000;
    }
    return OnTable(ctx, rb_table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, digits ? RollbackTo(c, id, std::stoll(rb_to), rb_branch)
                                                  : RollbackToTime(c, id, *when, rb_branch));
      const Snapshot* s = t.metadata.SnapshotForRef(rb_branch);
      return "rolled " + rb_branch + " of " + id.ToString() + " back to snapshot " +
             (s ? std::to_string(s->snapshot_id) : std::string("(none)"));
    });
  });

  // ---- branch / tag ----
  for (const bool is_tag : {false, true}) {
    auto* group = app.add_subcommand(is_tag ? "tag" : "branch", is_tag ? "create or drop tags" : "create or drop branches");
    group->require_subcommand(1);
    static std::string names[2][2], tables[2][2];
    static int64_t at[2] = {-1, -1};
    for (const bool drop : {false, true}) {
      auto* cmd = group->add_subcommand(drop ? "drop" : "create", drop ? "drop it" : "create it");
      std::string& table = tables[is_tag][drop];
      std::string& name = names[is_tag][drop];
      cmd->add_option("TABLE", table, "NS.TABLE")->required();
      cmd->add_option("NAME", name, "the ref's name")->required();
      if (!drop) cmd->add_option("--at", at[is_tag], "SNAPSHOT_ID (default: the current snapshot)");
      OnRun(cmd, exit_status, [&ctx, is_tag, drop, &table, &name] {
        return OnTable(ctx, table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
          std::string what = is_tag ? "tag " : "branch ";
          if (drop) {
            FLOE_RETURN_IF_ERROR(is_tag ? DropTag(c, id, name) : DropBranch(c, id, name));
            return "dropped " + what + name + " of " + id.ToString();
          }
          FLOE_ASSIGN_OR_RETURN(LoadedTable t, is_tag ? CreateTag(c, id, name, OptionalId(at[is_tag]))
                                                      : CreateBranch(c, id, name, OptionalId(at[is_tag])));
          const Snapshot* s = t.metadata.SnapshotForRef(name);
          return "created " + what + name + " of " + id.ToString() + " at snapshot " +
                 (s ? std::to_string(s->snapshot_id) : std::string("(none)"));
        });
      });
    }
  }

  // ---- cherry-pick ----
  auto* pick = app.add_subcommand("cherry-pick", "apply a snapshot's changes to main as a new snapshot");
  static std::string pick_table, pick_branch = kMainBranch;
  static int64_t pick_id = 0;
  pick->add_option("TABLE", pick_table, "NS.TABLE")->required();
  pick->add_option("SNAPSHOT_ID", pick_id, "the snapshot to apply")->required();
  pick->add_option("--branch", pick_branch, "the branch to apply it to")->default_val(kMainBranch);
  OnRun(pick, exit_status, [&ctx] {
    return OnTable(ctx, pick_table, [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      CommitOptions options;
      options.branch = pick_branch;
      FLOE_ASSIGN_OR_RETURN(CommitReport r, CherryPick(c, id, pick_id, options));
      return "cherry-picked " + std::to_string(pick_id) + " onto " + pick_branch + ": " + r.ToString();
    });
  });

  // ---- schema add-column | rename-column | drop-column | update-column | move-column ----
  // A NAME is a dotted path to a nested field: loc.lat, points.element.x, tags.value.
  static std::string sc_table[3], sc_name[3], sc_arg[3], add_doc;
  auto* add = schema_cmd->add_subcommand("add-column", "add an optional column (loc.alt: a field of struct loc)");
  add->add_option("TABLE", sc_table[0], "NS.TABLE")->required();
  add->add_option("NAME", sc_name[0], "column name; a.b adds field b to struct a")->required();
  add->add_option("TYPE", sc_arg[0], "its type, e.g. long, string, decimal(10,2)")->required();
  add->add_option("--doc", add_doc, "the column's doc comment");
  OnRun(add, exit_status, [&ctx] {
    auto type = Type::ParsePrimitive(sc_arg[0]);
    if (!type) return ctx.Usage(type.error().message);
    return OnTable(ctx, sc_table[0], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().AddColumn(sc_name[0], *type, add_doc)));
      return "added column " + sc_name[0] + " " + (*type)->ToString() + " (schema " +
             std::to_string(t.metadata.current_schema_id) + ")";
    });
  });
  auto* rename = schema_cmd->add_subcommand("rename-column", "rename a column");
  rename->add_option("TABLE", sc_table[1], "NS.TABLE")->required();
  rename->add_option("NAME", sc_name[1], "current name")->required();
  rename->add_option("NEW_NAME", sc_arg[1], "new name")->required();
  OnRun(rename, exit_status, [&ctx] {
    return OnTable(ctx, sc_table[1], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().RenameColumn(sc_name[1], sc_arg[1])));
      return "renamed column " + sc_name[1] + " to " + sc_arg[1];
    });
  });
  auto* identifier = schema_cmd->add_subcommand("set-identifier", "set the identifier fields (the row key)");
  static std::string id_table, id_columns;
  identifier->add_option("TABLE", id_table, "NS.TABLE")->required();
  identifier->add_option("COLUMNS", id_columns, "col,... (required, non-float, top-level columns)")->required();
  OnRun(identifier, exit_status, [&ctx] {
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
  OnRun(drop, exit_status, [&ctx] {
    return OnTable(ctx, sc_table[2], [&](Catalog& c, const TableIdentifier& id) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(LoadedTable t, CommitSchemaUpdate(c, id, SchemaUpdate().DropColumn(sc_name[2])));
      return "dropped column " + sc_name[2];
    });
  });

  auto* update = schema_cmd->add_subcommand(
      "update-column", "promote a column's type, make it optional, or set its doc");
  static std::string up_col_table, up_col_name, up_col_type, up_col_doc;
  static bool up_col_optional = false, up_col_required = false;
  update->add_option("TABLE", up_col_table, "NS.TABLE")->required();
  update->add_option("COLUMN", up_col_name, "column name (a.b: field b of struct a)")->required();
  update->add_option("--type", up_col_type,
                     "new type: int -> long, float -> double, decimal(P,S) -> decimal(P',S) with P' > P; "
                     "v3 tables also date -> timestamp");
  auto* optional_flag = update->add_flag("--optional", up_col_optional, "make the column optional (nullable)");
  update->add_flag("--required", up_col_required, "keep it required (refused for an optional column)")
      ->excludes(optional_flag);
  auto* doc_option = update->add_option("--doc", up_col_doc, "the column's doc comment ('' removes it)");
  OnRun(update, exit_status, [&ctx, doc_option] {
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
  static std::string mv_table, mv_name, mv_after, mv_before;
  static bool mv_first = false;
  move->add_option("TABLE", mv_table, "NS.TABLE")->required();
  move->add_option("COLUMN", mv_name, "column name (a.b: field b of struct a, moved within a)")->required();
  auto* first = move->add_flag("--first", mv_first, "make it the first column of its struct");
  auto* after = move->add_option("--after", mv_after, "put it just after this column")->excludes(first);
  move->add_option("--before", mv_before, "put it just before this column")->excludes(first)->excludes(after);
  OnRun(move, exit_status, [&ctx] {
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
  static std::string ps_table[2], ps_arg[2];
  for (int i = 0; i < 2; ++i) {
    auto* cmd = spec->add_subcommand(i == 0 ? "add" : "remove", i == 0 ? "add a partition field" : "remove one");
    cmd->add_option("TABLE", ps_table[i], "NS.TABLE")->required();
    cmd->add_option(i == 0 ? "FIELD" : "NAME", ps_arg[i], i == 0 ? "e.g. 'day(ts)' or 'bucket(16, id)'" : "field name")
        ->required();
    OnRun(cmd, exit_status, [&ctx, i] {
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
  static std::string up_table, up_file, up_keys, up_format, up_branch = kMainBranch;
  upsert->add_option("TABLE", up_table, "NS.TABLE")->required();
  upsert->add_option("FILE", up_file, "CSV, JSON-lines or Parquet file")->required();
  upsert->add_option("--key", up_keys, "key columns: col,... (default: the table's identifier fields)");
  upsert->add_option("--format", up_format, "csv, jsonl or parquet");
  static TextReadOptions up_text;
  AddNullStringOption(upsert, &up_text);
  upsert->add_option("--branch", up_branch, "the branch to write to")->default_val(kMainBranch);
  OnRun(upsert, exit_status, [&ctx] {
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
