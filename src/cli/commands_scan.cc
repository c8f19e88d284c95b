// Reads: scan, the metadata tables (snapshots, history, refs, files, manifests, partitions, ...)
// and schema.
#include <fstream>
#include <iostream>

#include "cli/batch_text.h"
#include "cli/commands.h"
#include "cli/history_graph.h"
#include "cli/json_text.h"
#include "cli/legacy_catalog.h"
#include "cli/output.h"
#include "cli/table_ref.h"
#include "meta/metadata_json.h"
#include "parquet/parquet_writer.h"
#include "scan/metadata_tables.h"
#include "scan/snapshot_selection.h"
#include "scan/table_scan.h"
#include "scan/task_stream.h"
#include "types/temporal.h"

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

Result<ScanOptions> SnapshotOptions(const SnapshotArgs& args) {
  ScanOptions options;
  if (args.snapshot_id >= 0) options.snapshot_id = args.snapshot_id;
  if (!args.ref.empty()) options.ref = args.ref;
  if (!args.as_of.empty()) {
    bool digits = args.as_of.find_first_not_of("0123456789") == std::string::npos;
    if (digits) {
      options.as_of_ms = std::stoll(args.as_of);
    } else {
      auto micros = ParseTimestamp(args.as_of, 1000000);
      if (!micros) return InvalidArgument("--as-of: " + micros.error().message);
      options.as_of_ms = *micros / 1000;
    }
  }
  return options;
}

std::vector<nlohmann::json> RowAsJson(const ColumnBatch& batch, size_t row) {
  std::vector<nlohmann::json> out;
  for (const auto& c : batch.columns) {
    if (c.type->is_nested()) {
      out.push_back(nullptr);
      continue;
    }
    out.push_back(c.Get(row).ToJson());
  }
  return out;
}

// Rows formatted as text on a reading thread, waiting to be written.
struct TextPart {
  size_t rows = 0;
  std::string text;
};

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

// A file missing mid-read of a catalog table usually means its snapshot was expired since the
// read resolved it: say so, naming the snapshot, instead of "No such file".
Error ExplainMissingFile(CliContext& ctx, const TableRef& table, const ScanOptions& options, const Error& error) {
  if (error.kind != ErrorKind::kNotFound || !table.from_catalog) return error;
  auto read = SelectSnapshot(table.metadata, options);
  auto catalog = LegacyCatalog(ctx);
  if (!read || !*read || !catalog) return error;
  auto now = (*catalog)->LoadTable(table.id);
  if (!now || now->metadata.SnapshotById((*read)->snapshot_id)) return error;
  return Error{ErrorKind::kNotFound, "snapshot " + std::to_string((*read)->snapshot_id) +
                                         " was expired while this read ran (expire-snapshots removed it and its "
                                         "files); read a newer snapshot (" + error.message + ")"};
}

int RunScan(CliContext& ctx, const ScanArgs& args) {
  auto options = SnapshotOptions(args.snapshot);
  if (!options) return ctx.Usage(options.error().message);
  options->filter_text = args.where;
  options->columns = SplitColumns(args.columns);
  options->include_column_stats = false;  // rows are read from the files; their metrics are not printed
  if (args.limit >= 0) options->limit = args.limit;  // plans and reads only as far as the rows need
  bool parquet = args.format == "parquet";
  Result<OutputFormat> format = OutputFormat::kTable;
  if (!parquet) {
    format = ParseOutputFormat(args.format);
    if (!format) return ctx.Usage(format.error().message + " (or parquet)");
  } else if (args.output.empty()) {
    return ctx.Usage("--format parquet needs --output FILE");
  }
  auto table = ResolveTable(ctx, args.table, args.allow_moved_paths ? MovedPaths::kAllow : MovedPaths::kRefuse);
  if (!table) return ctx.Fail(table.error());
  auto plan = PlanScan(*table->io, table->metadata, *options);
  if (!plan) {
    if (plan.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(plan.error().message);
    return ctx.Fail(ExplainMissingFile(ctx, *table, *options, plan.error()));
  }

  std::ofstream file;
  std::ostream* out = &std::cout;
  if (!args.output.empty() && !parquet) {
    file.open(args.output, std::ios::binary | std::ios::trunc);
    if (!file) return ctx.Fail(Error{ErrorKind::kIOError, "cannot write --output '" + args.output + "'"});
    out = &file;
  }
  std::unique_ptr<parquet::FileSink> sink;
  std::unique_ptr<parquet::ParquetWriter> writer;
  if (parquet) {
    auto created = parquet::FileSink::Create(args.output, true);
    if (!created) return ctx.Fail(created.error());
    sink = std::move(*created);
    auto w = parquet::ParquetWriter::Open(sink.get(), plan->projection, {});
    if (!w) return ctx.Fail(w.error());
    writer = std::move(*w);
  }

  Listing listing;
  for (const auto& f : plan->projection.fields()) listing.columns.push_back(f.name);
  // Every text format but the table (which needs every row for its column widths) streams.
  const std::optional<BatchText::Format> streamed = parquet ? std::nullopt : StreamedFormat(*format);
  const bool streaming = streamed.has_value();
  std::optional<BatchText> batch_text;
  std::optional<BatchTextWriter> text_out;
  if (streaming) {
    batch_text.emplace(listing.columns, *streamed);
    text_out.emplace(*batch_text, *out);  // writes the CSV header
  }
  int64_t emitted = 0;
  bool output_failed = false;  // an error of the output, not of the table's files
  // The plan's limit caps the rows read (StreamTasks), so every row that arrives is printed.
  Status read = Ok();
  if (streaming) {
    // CSV / JSON lines / JSON are formatted on the reading threads, a slice of rows at a time; this
    // thread only writes the text, in task order.
    read = StreamTasks<TextPart>(
        *table->io, table->metadata, *plan, options->read_parallelism,
        [&](ColumnBatch&& rows, const PartSink<TextPart>& emit) -> Status {
          for (size_t begin = 0; begin < rows.num_rows; begin += BatchText::kRowsPerSlice) {
            size_t end = std::min(rows.num_rows, begin + BatchText::kRowsPerSlice);
            TextPart part{.rows = end - begin};
            batch_text->Append(rows, begin, end, &part.text);
            if (!emit(std::move(part))) break;
          }
          return Ok();
        },
        [&](TextPart&& part) -> Result<bool> {
          text_out->Write(part.text);
          emitted += static_cast<int64_t>(part.rows);
          return true;
        });
  } else {
    read = StreamTasks<ColumnBatch>(
        *table->io, table->metadata, *plan, options->read_parallelism,
        [](ColumnBatch&& rows, const PartSink<ColumnBatch>& emit) -> Status {
          emit(std::move(rows));
          return Ok();
        },
        [&](ColumnBatch&& rows) -> Result<bool> {
          if (parquet) {
            if (auto st = writer->Write(rows); !st) {
              output_failed = true;
              return std::unexpected(st.error());
            }
          } else {
            for (size_t r = 0; r < rows.num_rows; ++r) listing.rows.push_back(RowAsJson(rows, r));
          }
          emitted += static_cast<int64_t>(rows.num_rows);
          return true;
        });
  }
  if (!read) {
    if (output_failed) return ctx.Fail(read.error());
    return ctx.Fail(ExplainMissingFile(ctx, *table, *options, read.error()));
  }
  if (parquet) {
    auto metrics = writer->Close();
    if (!metrics) return ctx.Fail(metrics.error());
    std::cerr << "wrote " << emitted << " rows to " << args.output << "\n";
    return kExitOk;
  }
  if (streaming) {
    text_out->Finish();
  } else {
    PrintListing(listing, *format, *out);
  }
  return kExitOk;
}

struct MetaArgs {
  std::string table;
  std::string format = "table";
  SnapshotArgs snapshot;
  bool allow_moved_paths = false;
  bool graph = false;  // history only: draw it (cli/history_graph.h)
};

int RunMetadataTable(CliContext& ctx, const std::string& name, const MetaArgs& args) {
  auto format = ParseOutputFormat(args.format);
  if (!format) return ctx.Usage(format.error().message);
  auto options = SnapshotOptions(args.snapshot);
  if (!options) return ctx.Usage(options.error().message);
  auto table = ResolveTable(ctx, args.table, args.allow_moved_paths ? MovedPaths::kAllow : MovedPaths::kRefuse);
  if (!table) return ctx.Fail(table.error());
  if (args.graph) {
    for (const std::string& line : HistoryGraph(table->metadata)) {
      std::cout << line << "\n";
    }
    return kExitOk;
  }
  auto result = ReadMetadataTable(*table->io, table->metadata, name, *options, table->metadata_location);
  if (!result) return ctx.Fail(result.error());
  PrintListing(Listing{result->columns, result->rows}, *format, std::cout);
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
