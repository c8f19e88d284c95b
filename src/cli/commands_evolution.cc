// Evolution: schema changes (floe schema add-column | rename-column | set-identifier |
// drop-column | update-column | move-column) and partition-spec changes, on include/floe
// alone. Rollback, branch, tag and cherry-pick are in commands_refs.cc, upsert in
// commands_upsert.cc.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "floe/schema_change.h"
#include "floe/schema_info.h"
#include "floe/table.h"

namespace floe::cli {
namespace {

// A test hook, run between planning a schema change and committing it: with
// FLOE_TEST_PAUSE_AFTER_SCHEMA_PLAN=DIR the command creates DIR/planned, then waits (at most
// 60 s) for DIR/go, so a test can land another schema change in between.
void PauseAfterSchemaPlanForTests() {
  const char* dir = std::getenv("FLOE_TEST_PAUSE_AFTER_SCHEMA_PLAN");
  if (!dir || !*dir) return;
  if (FILE* f = std::fopen((std::string(dir) + "/planned").c_str(), "w")) std::fclose(f);
  for (int waited = 0; waited < 600 && !std::filesystem::exists(std::string(dir) + "/go"); ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

// Commits `change` on table `table_name` and prints what `describe` says of the schema after
// it. A change Iceberg refuses (InvalidArgument) is a usage error: nothing changed.
int RunSchemaChange(CliContext& ctx, const std::string& table_name, const SchemaChange& change,
                    const std::function<std::string(const Table&, const SchemaInfo&)>& describe) {
  int exit_status = kExitOk;
  std::optional<Table> table = ctx.OpenTable(table_name, &exit_status);
  if (!table) return exit_status;
  SchemaChangeOptions options;
  options.before_commit = PauseAfterSchemaPlanForTests;
  auto after = table->ChangeSchema(change, options);
  if (!after) {
    if (after.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(after.error().message);
    return ctx.Fail(after.error());
  }
  std::cout << describe(*table, *after) << "\n";
  return kExitOk;
}

std::string SchemaIdText(const SchemaInfo& schema) { return " (schema " + std::to_string(schema.schema_id) + ")"; }

// ---- schema add-column ----
struct AddColumnArgs {
  std::string table, name, type, doc;
  std::optional<std::string> default_value;
};

int RunAddColumn(CliContext& ctx, const AddColumnArgs& args) {
  auto type = CheckColumnType(args.type);
  if (!type) return ctx.Usage(type.error().message);
  if (args.default_value) {
    if (auto read = CheckColumnValue(*args.default_value, args.type); !read)
      return ctx.Usage("--default '" + *args.default_value + "' is not a " + *type + ": " + read.error().message);
  }
  return RunSchemaChange(ctx, args.table, SchemaChange::AddColumn(args.name, args.type, args.doc, args.default_value),
                         [&](const Table&, const SchemaInfo& after) {
                           return "added column " + args.name + " " + *type + SchemaIdText(after);
                         });
}

// ---- schema rename-column ----
struct RenameColumnArgs {
  std::string table, name, new_name;
};

int RunRenameColumn(CliContext& ctx, const RenameColumnArgs& args) {
  return RunSchemaChange(ctx, args.table, SchemaChange::RenameColumn(args.name, args.new_name),
                         [&](const Table&, const SchemaInfo&) {
                           return "renamed column " + args.name + " to " + args.new_name;
                         });
}

// ---- schema set-identifier ----
struct SetIdentifierArgs {
  std::string table, columns;  // col,...
};

int RunSetIdentifier(CliContext& ctx, const SetIdentifierArgs& args) {
  std::vector<std::string> columns = SplitColumnList(args.columns);
  if (columns.empty()) return ctx.Usage("set-identifier needs at least one column");
  return RunSchemaChange(ctx, args.table, SchemaChange::SetIdentifierFields(columns),
                         [&](const Table& table, const SchemaInfo& after) {
                           return "identifier fields of " + table.name() + ": " + args.columns + SchemaIdText(after);
                         });
}

// ---- schema drop-column ----
struct DropColumnArgs {
  std::string table, name;
};

int RunDropColumn(CliContext& ctx, const DropColumnArgs& args) {
  return RunSchemaChange(ctx, args.table, SchemaChange::DropColumn(args.name),
                         [&](const Table&, const SchemaInfo&) { return "dropped column " + args.name; });
}

// ---- schema update-column ----
struct UpdateColumnArgs {
  std::string table, name, type;
  bool make_optional = false, make_required = false;
  std::string doc;
  bool doc_given = false;  // --doc given: "" removes the doc
};

int RunUpdateColumn(CliContext& ctx, const UpdateColumnArgs& args) {
  SchemaChange::ColumnUpdate update;
  update.make_optional = args.make_optional;
  update.make_required = args.make_required;
  if (args.doc_given) update.doc = args.doc;
  if (!args.type.empty()) {
    auto type = CheckColumnType(args.type);
    if (!type) return ctx.Usage("--type: " + type.error().message);
    update.type = args.type;
  }
  if (update.type.empty() && !update.make_optional && !update.make_required && !update.doc)
    return ctx.Usage("update-column " + args.name + ": nothing to change (give --type, --optional or --doc)");
  return RunSchemaChange(ctx, args.table, SchemaChange::UpdateColumn(args.name, update),
                         [&](const Table&, const SchemaInfo& after) {
                           std::string now;
                           for (const ColumnInfo& c : after.columns) {
                             if (c.name != args.name) continue;
                             now = c.type + (c.required ? " not null" : "");
                             break;
                           }
                           return "updated column " + args.name + (now.empty() ? "" : ": " + now) + SchemaIdText(after);
                         });
}

// ---- schema move-column ----
struct MoveColumnArgs {
  std::string table, name, after, before;
  bool first = false;
};

int RunMoveColumn(CliContext& ctx, const MoveColumnArgs& args) {
  SchemaChange::Position position = SchemaChange::Position::kFirst;
  std::string other, where = "first";
  if (!args.after.empty()) {
    position = SchemaChange::Position::kAfter;
    other = args.after;
    where = "after " + args.after;
  } else if (!args.before.empty()) {
    position = SchemaChange::Position::kBefore;
    other = args.before;
    where = "before " + args.before;
  } else if (!args.first) {
    return ctx.Usage("move-column " + args.name + ": say where: --first, --after COLUMN or --before COLUMN");
  }
  return RunSchemaChange(ctx, args.table, SchemaChange::MoveColumn(args.name, position, other),
                         [&](const Table&, const SchemaInfo& after) {
                           return "moved column " + args.name + " " + where + SchemaIdText(after);
                         });
}

// ---- partition-spec add | remove ----
struct PartitionSpecArgs {
  bool add = true;
  std::string table, field;  // add: a transform over a column; remove: a partition field's name
};

int RunPartitionSpec(CliContext& ctx, const PartitionSpecArgs& args) {
  int exit_status = kExitOk;
  std::optional<Table> table = ctx.OpenTable(args.table, &exit_status);
  if (!table) return exit_status;
  auto after = args.add ? table->AddPartitionField(args.field) : table->RemovePartitionField(args.field);
  if (!after) {
    if (after.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(after.error().message);
    return ctx.Fail(after.error());
  }
  std::cout << (args.add ? "added " : "removed ") << "partition field " << args.field << " (spec " << after->spec_id
            << ": " << after->partition_spec << ")\n";
  return kExitOk;
}

}  // namespace

void RegisterEvolutionCommands(CLI::App& app, CLI::App* schema_cmd, CliContext& ctx, int* exit_status) {
  // A NAME is a dotted path to a nested field: loc.lat, points.element.x, tags.value.
  auto& add_args = ctx.Keep<AddColumnArgs>();
  auto* add = schema_cmd->add_subcommand("add-column", "add an optional column (loc.alt: a field of struct loc)");
  add->add_option("TABLE", add_args.table, "NS.TABLE")->required();
  add->add_option("NAME", add_args.name, "column name; a.b adds field b to struct a")->required();
  add->add_option("TYPE", add_args.type, "its type, e.g. long, string, decimal(10,2)")->required();
  add->add_option("--doc", add_args.doc, "the column's doc comment");
  add->add_option("--default", add_args.default_value,
                  "format 3: the value older rows read and appends that leave the column out write");
  OnRun(add, exit_status, [&] { return RunAddColumn(ctx, add_args); });

  auto& rename_args = ctx.Keep<RenameColumnArgs>();
  auto* rename = schema_cmd->add_subcommand("rename-column", "rename a column");
  rename->add_option("TABLE", rename_args.table, "NS.TABLE")->required();
  rename->add_option("NAME", rename_args.name, "current name")->required();
  rename->add_option("NEW_NAME", rename_args.new_name, "new name")->required();
  OnRun(rename, exit_status, [&] { return RunRenameColumn(ctx, rename_args); });

  auto& id_args = ctx.Keep<SetIdentifierArgs>();
  auto* identifier = schema_cmd->add_subcommand("set-identifier", "set the identifier fields (the row key)");
  identifier->add_option("TABLE", id_args.table, "NS.TABLE")->required();
  identifier->add_option("COLUMNS", id_args.columns, "col,... (required, non-float, top-level columns)")->required();
  OnRun(identifier, exit_status, [&] { return RunSetIdentifier(ctx, id_args); });

  auto& drop_args = ctx.Keep<DropColumnArgs>();
  auto* drop = schema_cmd->add_subcommand("drop-column", "drop a column");
  drop->add_option("TABLE", drop_args.table, "NS.TABLE")->required();
  drop->add_option("NAME", drop_args.name, "column name")->required();
  OnRun(drop, exit_status, [&] { return RunDropColumn(ctx, drop_args); });

  auto& update_args = ctx.Keep<UpdateColumnArgs>();
  auto* update = schema_cmd->add_subcommand(
      "update-column", "promote a column's type, make it optional, or set its doc");
  update->add_option("TABLE", update_args.table, "NS.TABLE")->required();
  update->add_option("COLUMN", update_args.name, "column name (a.b: field b of struct a)")->required();
  update->add_option("--type", update_args.type,
                     "new type: int -> long, float -> double, decimal(P,S) -> decimal(P',S) with P' > P; "
                     "v3 tables also date -> timestamp");
  auto* optional_flag = update->add_flag("--optional", update_args.make_optional, "make the column optional (nullable)");
  update->add_flag("--required", update_args.make_required, "keep it required (refused for an optional column)")
      ->excludes(optional_flag);
  auto* doc_option = update->add_option("--doc", update_args.doc, "the column's doc comment ('' removes it)");
  OnRun(update, exit_status, [&, doc_option] {
    update_args.doc_given = doc_option->count() > 0;
    return RunUpdateColumn(ctx, update_args);
  });

  auto& move_args = ctx.Keep<MoveColumnArgs>();
  auto* move = schema_cmd->add_subcommand("move-column", "move a column within its struct");
  move->add_option("TABLE", move_args.table, "NS.TABLE")->required();
  move->add_option("COLUMN", move_args.name, "column name (a.b: field b of struct a, moved within a)")->required();
  auto* first = move->add_flag("--first", move_args.first, "make it the first column of its struct");
  auto* after = move->add_option("--after", move_args.after, "put it just after this column")->excludes(first);
  move->add_option("--before", move_args.before, "put it just before this column")->excludes(first)->excludes(after);
  OnRun(move, exit_status, [&] { return RunMoveColumn(ctx, move_args); });

  auto* spec = app.add_subcommand("partition-spec", "evolve the partition spec (old files keep theirs)");
  spec->require_subcommand(1);
  for (bool add_field : {true, false}) {
    auto& spec_args = ctx.Keep<PartitionSpecArgs>();
    spec_args.add = add_field;
    auto* cmd = spec->add_subcommand(add_field ? "add" : "remove", add_field ? "add a partition field" : "remove one");
    cmd->add_option("TABLE", spec_args.table, "NS.TABLE")->required();
    cmd->add_option(add_field ? "FIELD" : "NAME", spec_args.field,
                    add_field ? "e.g. 'day(ts)' or 'bucket(16, id)'" : "field name")
        ->required();
    OnRun(cmd, exit_status, [&ctx, args = &spec_args] { return RunPartitionSpec(ctx, *args); });
  }

  RegisterUpsertCommand(app, ctx, exit_status);  // commands_upsert.cc: after these, as `floe --help` lists them
}

}  // namespace floe::cli
