// floe upsert: rows from CSV, JSON-lines or Parquet files inserted, replacing those with the
// same key. Still on floe's internal headers (its file readers, cli/legacy_catalog.h).
#include <iostream>

#include "cli/commands.h"
#include "cli/legacy_catalog.h"
#include "cli/row_files.h"
#include "rows/upsert.h"

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

}  // namespace

void RegisterUpsertCommand(CLI::App& app, CliContext& ctx, int* exit_status) {
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
