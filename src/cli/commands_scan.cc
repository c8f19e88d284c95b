// Reads: scan and the metadata tables (snapshots, history, refs, files, manifests, partitions,
// ...), of a catalog's table or a table folder, through floe/table_reader.h.
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/table_reading.h"
#include "floe/time_text.h"

namespace floe::cli {
namespace {

struct SnapshotArgs {
  int64_t snapshot_id = -1;
  std::string as_of;
  std::string ref;
};

void AddSnapshotOptions(CLI::App* cmd, SnapshotArgs* args) {
  auto* s = cmd->add_option("--snapshot", args->snapshot_id, "read this snapshot id");
  auto* a = cmd->add_option("--as-of", args->as_of, "read the snapshot current at this time (2026-01-01T10:00:00 or ms)");
  auto* r = cmd->add_option("--ref", args->ref, "read this branch or tag");
  s->excludes(a)->excludes(r);
  a->excludes(r);
}

Result<ScanRequest> SnapshotRequest(const SnapshotArgs& args) {
  ScanRequest request;
  if (args.snapshot_id >= 0) request.snapshot_id = args.snapshot_id;
  if (!args.ref.empty()) request.ref = args.ref;
  if (!args.as_of.empty()) {
    bool digits = args.as_of.find_first_not_of("0123456789") == std::string::npos;
    if (digits) {
      request.as_of_ms = std::stoll(args.as_of);
    } else {
      auto ms = ParseTimestampMs(args.as_of);
      if (!ms) return InvalidArgument("--as-of: " + ms.error().message);
      request.as_of_ms = *ms;
    }
  }
  return request;
}

struct ScanArgs {
  std::string table;
  std::string columns;
  std::string where;
  SnapshotArgs snapshot;
  int64_t limit = -1;
  std::string format = "table";
  std::string output;
  bool allow_moved_paths = false;
};

std::vector<std::string> SplitColumns(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

floe::MovedPaths MovedPathsOf(bool allow_moved_paths) {
  return allow_moved_paths ? floe::MovedPaths::kAllow : floe::MovedPaths::kRefuse;
}

int RunScan(CliContext& ctx, const ScanArgs& args) {
  auto request = SnapshotRequest(args.snapshot);
  if (!request) return ctx.Usage(request.error().message);
  request->where = args.where;
  request->columns = SplitColumns(args.columns);
  if (args.limit >= 0) request->limit = args.limit;  // plans and reads only as far as the rows need
  bool parquet = args.format == "parquet";
  Result<OutputFormat> format = OutputFormat::kTable;
  if (!parquet) {
    format = ParseOutputFormat(args.format);
    if (!format) return ctx.Usage(format.error().message + " (or parquet)");
  } else if (args.output.empty()) {
    return ctx.Usage("--format parquet needs --output FILE");
  }
  auto table = OpenTableReader(ctx, args.table, MovedPathsOf(args.allow_moved_paths));
  if (!table) return ctx.Fail(table.error());
  auto scan = table->PlanScan(*request);
  if (!scan) {
    if (scan.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(scan.error().message);
    return ctx.Fail(scan.error());
  }
  if (parquet) {
    auto written = scan->WriteParquet(args.output);
    if (!written) return ctx.Fail(written.error());
    std::cerr << "wrote " << *written << " rows to " << args.output << "\n";
    return kExitOk;
  }

  std::ofstream file;
  std::ostream* out = &std::cout;
  if (!args.output.empty()) {
    file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!file) return ctx.Fail(Error{ErrorKind::kIOError, "cannot write --output '" + args.output + "'"});
    out = &file;
  }
  // Every text format but the table (which needs every row for its column widths) streams.
  if (std::optional<ScanTextFormat> streamed = StreamedFormat(*format)) {
    auto written = scan->WriteText(*streamed, *out);
    if (!written) return ctx.Fail(written.error());
    return kExitOk;
  }
  Listing listing{scan->columns(), {}};
  auto read = scan->ForEachRow([&](std::vector<ListedCell>&& cells) -> Result<bool> {
    listing.rows.push_back(ListingRow(std::move(cells)));
    return true;
  });
  if (!read) return ctx.Fail(read.error());
  PrintListing(listing, *format, *out);
  return kExitOk;
}

struct MetaArgs {
  std::string table;
  std::string format = "table";
  SnapshotArgs snapshot;
  bool allow_moved_paths = false;
  bool graph = false;  // history only: draw it (TableReader::HistoryGraph)
};

int RunMetadataTable(CliContext& ctx, const std::string& name, const MetaArgs& args) {
  auto format = ParseOutputFormat(args.format);
  if (!format) return ctx.Usage(format.error().message);
  auto at = SnapshotRequest(args.snapshot);
  if (!at) return ctx.Usage(at.error().message);
  auto table = OpenTableReader(ctx, args.table, MovedPathsOf(args.allow_moved_paths));
  if (!table) return ctx.Fail(table.error());
  if (args.graph) {
    for (const std::string& line : table->HistoryGraph()) {
      std::cout << line << "\n";
    }
    return kExitOk;
  }
  auto rows = table->MetadataTable(name, *at);
  if (!rows) return ctx.Fail(rows.error());
  Listing listing{std::move(rows->columns), {}};
  listing.rows.reserve(rows->rows.size());
  for (auto& row : rows->rows) listing.rows.push_back(ListingRow(std::move(row)));
  PrintListing(listing, *format, std::cout);
  return kExitOk;
}

}  // namespace

void RegisterScanCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* scan = app.add_subcommand("scan", "read a table's rows");
  auto& scan_args = ctx.Keep<ScanArgs>();
  scan->add_option("TABLE", scan_args.table, "NS.TABLE, or a table folder or metadata file (read without a catalog)")
      ->required();
  scan->add_option("--columns", scan_args.columns, "a,b,c (default: all)");
  scan->add_option("--where", scan_args.where, "a filter, e.g. \"country = 'DE'\"");
  AddSnapshotOptions(scan, &scan_args.snapshot);
  scan->add_option("--limit", scan_args.limit, "at most this many rows");
  scan->add_option("--format", scan_args.format, "table, csv, jsonl, json or parquet")->default_val("table");
  scan->add_option("--output", scan_args.output, "write to this file instead of standard output");
  scan->add_flag("--allow-moved-paths", scan_args.allow_moved_paths, kAllowMovedPathsHelp);
  OnRun(scan, exit_status, [&] { return RunScan(ctx, scan_args); });

  // Metadata tables: floe snapshots NS.T, floe files NS.T, ...
  auto& meta_args = ctx.Keep<std::map<std::string, MetaArgs>>();
  const std::vector<std::pair<std::string, std::string>> tables = {
      {"snapshots", "snapshots"},       {"history", "history"},
      {"refs", "refs"},                 {"files", "files"},
      {"data-files", "data_files"},     {"delete-files", "delete_files"},
      {"manifests", "manifests"},       {"partitions", "partitions"},
      {"entries", "entries"},           {"metadata-log", "metadata_log_entries"},
  };
  for (const auto& [command, table_name] : tables) {
    auto* cmd = app.add_subcommand(command, "the " + table_name + " metadata table");
    MetaArgs& args = meta_args[command];
    cmd->add_option("TABLE", args.table, "NS.TABLE, or a table folder or metadata file")->required();
    cmd->add_option("--format", args.format, "table, csv, jsonl or json")->default_val("table");
    AddSnapshotOptions(cmd, &args.snapshot);
    cmd->add_flag("--allow-moved-paths", args.allow_moved_paths, kAllowMovedPathsHelp);
    if (command == "history") {
      cmd->add_flag("--graph", args.graph, "draw branches and tags like git log --graph (newest first)");
    }
    std::string name = table_name;
    OnRun(cmd, exit_status, [&, name] { return RunMetadataTable(ctx, name, args); });
  }
}

}  // namespace floe::cli
