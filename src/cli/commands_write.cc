// Writes: append, delete, update, overwrite, ingest. Built on include/floe alone.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/ingest_files.h"
#include "cli/input_args.h"
#include "cli/progress.h"
#include "cli/write_args.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

enum class LineStatus { kLine, kTimeout, kEnd };

// Lines from standard input with a timeout, so a micro-batch commits on time even when the
// producer pauses.
class StdinLines {
 public:
  LineStatus Next(std::string* line, int64_t timeout_ms) {
    while (true) {
      size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        *line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return LineStatus::kLine;
      }
      if (eof_) {
        if (buffer_.empty()) return LineStatus::kEnd;
        *line = std::move(buffer_);
        buffer_.clear();
        return LineStatus::kLine;
      }
      pollfd pfd{STDIN_FILENO, POLLIN, 0};
      int ready = ::poll(&pfd, 1, static_cast<int>(timeout_ms));
      if (ready == 0) return LineStatus::kTimeout;
      if (ready < 0) {
        if (errno == EINTR) continue;
        eof_ = true;
        continue;
      }
      char chunk[65536];
      ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        eof_ = true;
      } else {
        buffer_.append(chunk, static_cast<size_t>(n));
      }
    }
  }

 private:
  std::string buffer_;
  bool eof_ = false;
};

int64_t MonotonicMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct AppendCommand {
  WriteArgs write;
  std::vector<std::string> files;
  FileInput input;

  int Run(CliContext& ctx) const {
    int exit_status = kExitOk;
    if (auto valid = Connection::CheckTableName(write.table); !valid) return ctx.Usage(valid.error().message);
    if (auto bad = BadFileFormat(input.format)) return ctx.Usage(*bad);
    auto table = ctx.OpenTable(write.table, &exit_status);
    if (!table) return exit_status;
    Progress progress(ctx.stderr_is_terminal(), "append");
    InputFiles read = input.Of(files);
    read.progress = [&](const InputProgress& p) {
      progress.set_total_input_bytes(p.input_bytes_total);
      progress.Update(p.rows, p.bytes_written, 0, p.input_bytes_done);
    };
    auto info = table->AppendFiles(read, write.ToWriteOptions());
    progress.Finish();
    if (!info) return ctx.Fail(info.error());
    PrintCommit("append", table->name(), *info);
    return kExitOk;
  }
};

struct OverwriteCommand {
  WriteArgs write;
  std::vector<std::string> files;
  std::string where, format, null_string;

  int Run(CliContext& ctx) const {
    int exit_status = kExitOk;
    if (auto valid = Connection::CheckTableName(write.table); !valid) return ctx.Usage(valid.error().message);
    Filter filter;  // every row
    if (!where.empty()) {
      auto parsed = Filter::Parse(where);
      if (!parsed) return ctx.Usage("--where: " + parsed.error().message);
      filter = std::move(*parsed);
    }
    auto table = ctx.OpenTable(write.table, &exit_status);
    if (!table) return exit_status;
    InputFiles read;
    read.paths = files;
    read.format = format;
    read.null_string = null_string;
    auto info = table->OverwriteFiles(read, filter, write.ToWriteOptions());
    if (!info) return ctx.Fail(info.error());
    std::cout << "overwrite " << table->name() << ": " << info->rows_added << " rows written in " << info->files_added
              << " files; " << info->summary << "\n";
    return kExitOk;
  }
};

struct IngestCommand {
  CLI::App* command = nullptr;
  WriteArgs write;
  IngestFilesArgs files;
  int64_t batch_rows = 10000, batch_ms = 1000;
  std::string keys_text;
  bool upsert_flag = false;

  int Run(CliContext& ctx) {
    int exit_status = kExitOk;
    if (auto valid = Connection::CheckTableName(write.table); !valid) return ctx.Usage(valid.error().message);
    const bool from_files = !files.files.empty();
    for (const char* option : {"--batch-rows", "--batch-ms", "--key", "--upsert"})
      if (from_files && command->count(option)) return ctx.Usage(std::string(option) + " applies to stdin, not to FILEs");
    for (const char* option : {"--producers", "--format", "--null-string"})
      if (!from_files && command->count(option)) return ctx.Usage(std::string(option) + " applies to FILEs, not to stdin");
    if (auto bad = BadFileFormat(files.input.format)) return ctx.Usage(*bad);
    auto table = ctx.OpenTable(write.table, &exit_status);
    if (!table) return exit_status;
    auto schema = table->CurrentSchema();  // the table must exist before anything is read
    if (!schema) return ctx.Fail(schema.error());
    if (from_files) {
      files.options = write.ToWriteOptions();
      return IngestFiles(ctx, *table, files);
    }
    const std::vector<std::string> keys = SplitColumnList(keys_text);
    const bool upsert = upsert_flag || !keys.empty();
    if (!keys_text.empty() && keys.empty()) return ctx.Usage("--key needs at least one column");
    const bool has_identifier = std::any_of(schema->columns.begin(), schema->columns.end(),
                                            [](const ColumnInfo& c) { return c.identifier; });
    if (upsert && keys.empty() && !has_identifier)
      return ctx.Usage("--upsert: " + table->name() + " has no identifier fields; give --key");
    return FromStdin(ctx, *table, upsert, keys);
  }

  // Micro-batches of JSON lines: up to batch_rows lines, or whatever arrived within batch_ms,
  // each one commit.
  int FromStdin(CliContext& ctx, Table& table, bool upsert, const std::vector<std::string>& keys) const {
    int64_t committed_rows = 0, commits = 0;
    StdinLines input;
    bool eof = false;
    while (!eof) {
      std::ostringstream chunk;
      int64_t lines = 0;
      const int64_t deadline = MonotonicMillis() + batch_ms;
      std::string line;
      while (lines < batch_rows) {
        int64_t wait_ms = deadline - MonotonicMillis();
        if (wait_ms <= 0) break;
        LineStatus status = input.Next(&line, wait_ms);
        if (status == LineStatus::kEnd) {
          eof = true;
          break;
        }
        if (status == LineStatus::kTimeout) break;
        if (line.empty()) continue;
        chunk << line << "\n";
        ++lines;
      }
      if (lines == 0) continue;
      InputFiles batch;
      batch.json_lines = chunk.str();
      auto result = upsert ? table.UpsertFiles(batch, keys, write.ToWriteOptions(), /*last_row_per_key=*/true)
                           : table.AppendFiles(batch, write.ToWriteOptions());
      if (!result) return ctx.Fail(result.error());
      committed_rows += result->rows_added;
      ++commits;
      std::cerr << "ingest " << table.name() << ": committed " << result->rows_added << " rows as snapshot "
                << result->snapshot_id << " (" << committed_rows << " rows in " << commits << " commits)\n";
    }
    std::cout << "ingest " << table.name() << ": " << committed_rows << " rows in " << commits << " commits\n";
    return kExitOk;
  }
};

}  // namespace

void RegisterWriteCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* append = app.add_subcommand("append", "append rows from CSV, JSON-lines or Parquet files");
  auto& a = ctx.Keep<AppendCommand>();
  AddWriteOptions(append, &a.write);
  AddFileInputOptions(append, &a.input);
  append->add_option("FILE", a.files, "input files")->required();
  OnRun(append, exit_status, [&ctx, &a] { return a.Run(ctx); });

  RegisterChangeCommands(app, ctx, exit_status);  // delete, update: commands_change.cc

  auto* overwrite = app.add_subcommand("overwrite", "replace the rows matching a filter (default: all) with files");
  auto& o = ctx.Keep<OverwriteCommand>();
  AddWriteOptions(overwrite, &o.write);
  AddNullStringOption(overwrite, &o.null_string);
  overwrite->add_option("FILE", o.files, "input files")->required();
  overwrite->add_option("--where", o.where, "rows to replace (whole files must match)");
  overwrite->add_option("--format", o.format, "csv, jsonl or parquet");
  OnRun(overwrite, exit_status, [&ctx, &o] { return o.Run(ctx); });

  auto* ingest = app.add_subcommand(
      "ingest", "commit JSON lines from stdin in micro-batches, or files, each its own commit, from several threads");
  auto& i = ctx.Keep<IngestCommand>();
  i.command = ingest;
  AddWriteOptions(ingest, &i.write);
  ingest->add_option("FILE", i.files.files,
                     "CSV, JSON-lines or Parquet files, each appended as its own commit (default: stdin)");
  ingest->add_option("--producers", i.files.producers,
                     "with FILEs: threads committing files at once; appends in flight together share one swap")
      ->default_val(4)
      ->check(CLI::Range(1, 64));
  AddFileInputOptions(ingest, &i.files.input);
  ingest->add_option("--batch-rows", i.batch_rows, "stdin: commit after this many rows")
      ->default_val(10000)
      ->check(CLI::PositiveNumber);
  ingest->add_option("--batch-ms", i.batch_ms, "stdin: or after this many milliseconds")
      ->default_val(1000)
      ->check(CLI::PositiveNumber);
  ingest->add_option("--key", i.keys_text,
                     "stdin: upsert each micro-batch on these key columns (col,...); a later line wins");
  ingest->add_flag("--upsert", i.upsert_flag, "stdin: upsert on the table's identifier fields");
  OnRun(ingest, exit_status, [&ctx, &i] { return i.Run(ctx); });
}

}  // namespace floe::cli
