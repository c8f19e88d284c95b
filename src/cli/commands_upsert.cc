// floe upsert: rows from CSV, JSON-lines or Parquet files inserted, replacing those with the
// same key. Built on include/floe alone.
#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/input_args.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

struct UpsertCommand {
  std::string table, file, keys_text, format, null_string;
  std::string branch = "main";

  int Run(CliContext& ctx) const {
    int exit_status = kExitOk;
    std::vector<std::string> keys = SplitColumnList(keys_text);
    if (!keys_text.empty() && keys.empty()) return ctx.Usage("--key needs at least one column");
    if (auto valid = Connection::CheckTableName(table); !valid) return ctx.Usage(valid.error().message);
    auto target = ctx.OpenTable(table, &exit_status);
    if (!target) return exit_status;
    auto done = Upsert(*target, keys);
    if (!done) {
      // A table without a key, or rows that do not fit it: a bad argument, nothing changed.
      if (done.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(done.error().message);
      return ctx.Fail(done.error());
    }
    std::cout << *done << "\n";
    return kExitOk;
  }

  Result<std::string> Upsert(Table& target, const std::vector<std::string>& keys) const {
    const std::string& name = target.name();
    FLOE_ASSIGN_OR_RETURN(SchemaInfo schema, target.CurrentSchema());
    const bool has_identifier =
        std::any_of(schema.columns.begin(), schema.columns.end(), [](const ColumnInfo& c) { return c.identifier; });
    if (keys.empty() && !has_identifier)
      return InvalidArgument("upsert " + name + ": no --key given and the table has no identifier fields (set them with "
                             "floe schema set-identifier " + name + " COL,...)");
    InputFiles input;
    input.paths = {file};
    input.format = format;
    input.null_string = null_string;
    WriteOptions options;
    options.branch = branch;
    FLOE_ASSIGN_OR_RETURN(CommitInfo info, target.UpsertFiles(input, keys, options));
    return "upsert " + name + ": " + std::to_string(info.rows_read) + " rows; " + info.summary +
           (info.rebases ? "; redone " + std::to_string(info.rebases) + "x on newer states (disjoint keys)" : "");
  }
};

}  // namespace

void RegisterUpsertCommand(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* upsert = app.add_subcommand("upsert", "insert rows, replacing those with the same key");
  auto& u = ctx.Keep<UpsertCommand>();
  upsert->add_option("TABLE", u.table, "NS.TABLE")->required();
  upsert->add_option("FILE", u.file, "CSV, JSON-lines or Parquet file")->required();
  upsert->add_option("--key", u.keys_text, "key columns: col,... (default: the table's identifier fields)");
  upsert->add_option("--format", u.format, "csv, jsonl or parquet");
  AddNullStringOption(upsert, &u.null_string);
  upsert->add_option("--branch", u.branch, "the branch to write to")->default_val("main");
  OnRun(upsert, exit_status, [&ctx, &u] { return u.Run(ctx); });
}

}  // namespace floe::cli
