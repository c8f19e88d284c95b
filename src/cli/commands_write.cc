// Writes: append, delete, update, overwrite, ingest.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <sstream>

#include "catalog/intent_store.h"
#include "cli/commands.h"
#include "cli/ingest_files.h"
#include "cli/legacy_catalog.h"
#include "cli/row_files.h"
#include "cli/write_args.h"
#include "expr/binder.h"
#include "expr/parser.h"
#include "commit/commit_operation.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "rows/upsert.h"
#include "util/clock.h"
#include "write/data_writer.h"
#include "write/text_rows.h"

namespace floe::cli {
namespace {

RowWriteOptions OptionsFrom(const WriteArgs& args) {
  RowWriteOptions options;
  options.commit.branch = args.branch;
  if (!args.idempotency_key.empty()) options.commit.idempotency_key = args.idempotency_key;
  return options;
}

void PrintRowWrite(const std::string& what, const TableIdentifier& id, const RowWriteResult& r) {
  CommitInfo info;
  info.snapshot_id = r.commit.snapshot_id;
  info.idempotent_replay = r.commit.idempotent_replay;
  info.committed = r.committed;
  info.rows_added = r.rows_added;
  info.rows_deleted = r.rows_deleted;
  info.rows_updated = r.rows_updated;
  info.files_added = r.files_added;
  info.files_removed = r.files_removed;
  info.summary = r.commit.ToString();
  PrintCommit(what, id.ToString(), info);
}

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

Result<Expr> ParseWhere(const std::string& text) {
  auto e = ParseFilter(text);
  if (!e) return InvalidArgument("--where: " + e.error().message);
  return e;
}


}  // namespace

void RegisterWriteCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  // ---- append ----
  auto* append = app.add_subcommand("append", "append rows from CSV, JSON-lines or Parquet files");
  auto& append_args = ctx.Keep<WriteArgs>();
  auto& append_files = ctx.Keep<std::vector<std::string>>();
  auto& append_input = ctx.Keep<FileInput>();
  AddWriteOptions(append, &append_args);
  AddFileInputOptions(append, &append_input);
  append->add_option("FILE", append_files, "input files")->required();
  OnRun(append, exit_status, [&] {
    auto id = TableIdentifier::Parse(append_args.table);
    if (!id) return ctx.Usage(id.error().message);
    if (auto bad = BadFileFormat(append_input.format)) return ctx.Usage(*bad);
    auto catalog = LegacyCatalog(ctx);
    if (!catalog) return ctx.Fail(catalog.error());
    auto table = (*catalog)->LoadTable(*id);
    if (!table) return ctx.Fail(table.error());
    auto result = AppendFiles(**catalog, *id, table->metadata.CurrentSchema(), append_files, append_input,
                              OptionsFrom(append_args), ctx.stderr_is_terminal());
    if (!result) return ctx.Fail(result.error());
    PrintRowWrite("append", *id, *result);
    return kExitOk;
  });

  RegisterChangeCommands(app, ctx, exit_status);  // delete, update: commands_change.cc

  // ---- overwrite ----
  auto* overwrite = app.add_subcommand("overwrite", "replace the rows matching a filter (default: all) with files");
  auto& overwrite_args = ctx.Keep<WriteArgs>();
  auto& overwrite_files = ctx.Keep<std::vector<std::string>>();
  auto& overwrite_where = ctx.Keep<std::string>();
  auto& overwrite_format = ctx.Keep<std::string>();
  auto& overwrite_text = ctx.Keep<TextReadOptions>();
  AddWriteOptions(overwrite, &overwrite_args);
  AddNullStringOption(overwrite, &overwrite_text);
  overwrite->add_option("FILE", overwrite_files, "input files")->required();
  overwrite->add_option("--where", overwrite_where, "rows to replace (whole files must match)");
  overwrite->add_option("--format", overwrite_format, "csv, jsonl or parquet");
  OnRun(overwrite, exit_status, [&] {
    auto id = TableIdentifier::Parse(overwrite_args.table);
    if (!id) return ctx.Usage(id.error().message);
    Expr filter = True();
    if (!overwrite_where.empty()) {
      auto where = ParseWhere(overwrite_where);
      if (!where) return ctx.Usage(where.error().message);
      filter = *where;
    }
    auto catalog = LegacyCatalog(ctx);
    if (!catalog) return ctx.Fail(catalog.error());
    auto table = (*catalog)->LoadTable(*id);
    if (!table) return ctx.Fail(table.error());
    FileRows rows(overwrite_files, overwrite_format, table->metadata.CurrentSchema(), overwrite_text);
    // One write intent for the data files and the commit's manifests (table_files/file_namer.h).
    const std::unique_ptr<FileNamer> names = NewWriteNamer(**catalog, *id, table->metadata);
    DataWriter writer(*(*catalog)->io(), table->metadata, names.get());
    auto abort = [&] {
      writer.Abort();
      (void)names->Clear();
    };
    ColumnBatch batch;
    while (true) {
      auto more = rows.Next(&batch);
      if (!more) {
        abort();
        return ctx.Fail(more.error());
      }
      if (!*more) break;
      if (auto st = writer.Write(batch); !st) {
        abort();
        return ctx.Fail(st.error());
      }
    }
    auto files = writer.Finish();
    if (!files) {
      abort();
      return ctx.Fail(files.error());
    }
    const Snapshot* head = table->metadata.SnapshotForRef(overwrite_args.branch);
    std::optional<int64_t> start;
    if (head) start = head->snapshot_id;
    auto isolation = IsolationFor(table->metadata, RowLevelCommand::kDelete);
    if (!isolation) return ctx.Fail(isolation.error());
    int64_t added_rows = writer.stats().rows;
    size_t added_files = files->size();
    FilesOperation operation(OverwriteByFilter(filter, std::move(*files), start, *isolation));
    CommitOptions commit = OptionsFrom(overwrite_args).commit;
    commit.discard_written_files = [&writer] { writer.Abort(); };  // only when certainly failed
    commit.names = names.get();
    auto report = CommitOperation(**catalog, *id, operation, commit);
    if (!report) return ctx.Fail(report.error());
    std::cout << "overwrite " << id->ToString() << ": " << added_rows << " rows written in " << added_files
              << " files; " << report->ToString() << "\n";
    return kExitOk;
  });

  // ---- ingest ----
  auto* ingest = app.add_subcommand(
      "ingest", "commit JSON lines from stdin in micro-batches, or files, each its own commit, from several threads");
  auto& ingest_args = ctx.Keep<WriteArgs>();
  auto& batch_rows = ctx.Keep<int64_t>();
  batch_rows = 10000;
  auto& batch_ms = ctx.Keep<int64_t>();
  batch_ms = 1000;
  auto& ingest_files = ctx.Keep<IngestFilesArgs>();
  AddWriteOptions(ingest, &ingest_args);
  ingest->add_option("FILE", ingest_files.files,
                     "CSV, JSON-lines or Parquet files, each appended as its own commit (default: stdin)");
  ingest->add_option("--producers", ingest_files.producers,
                     "with FILEs: threads committing files at once; appends in flight together share one swap")
      ->default_val(4)
      ->check(CLI::Range(1, 64));
  AddFileInputOptions(ingest, &ingest_files.input);
  ingest->add_option("--batch-rows", batch_rows, "stdin: commit after this many rows")->default_val(10000)->check(CLI::PositiveNumber);
  ingest->add_option("--batch-ms", batch_ms, "stdin: or after this many milliseconds")->default_val(1000)->check(CLI::PositiveNumber);
  auto& ingest_keys = ctx.Keep<std::string>();
  auto& ingest_upsert = ctx.Keep<bool>();
  ingest_upsert = false;
  ingest->add_option("--key", ingest_keys, "stdin: upsert each micro-batch on these key columns (col,...); a later line wins");
  ingest->add_flag("--upsert", ingest_upsert, "stdin: upsert on the table's identifier fields");
  OnRun(ingest, exit_status, [&, ingest] {
    auto id = TableIdentifier::Parse(ingest_args.table);
    if (!id) return ctx.Usage(id.error().message);
    const bool from_files = !ingest_files.files.empty();
    for (const char* option : {"--batch-rows", "--batch-ms", "--key", "--upsert"})
      if (from_files && ingest->count(option)) return ctx.Usage(std::string(option) + " applies to stdin, not to FILEs");
    for (const char* option : {"--producers", "--format", "--null-string"})
      if (!from_files && ingest->count(option)) return ctx.Usage(std::string(option) + " applies to FILEs, not to stdin");
    if (auto bad = BadFileFormat(ingest_files.input.format)) return ctx.Usage(*bad);
    auto catalog = LegacyCatalog(ctx);
    if (!catalog) return ctx.Fail(catalog.error());
    auto table = (*catalog)->LoadTable(*id);
    if (!table) return ctx.Fail(table.error());
    if (from_files) {
      ingest_files.options = OptionsFrom(ingest_args);
      return IngestFiles(ctx, **catalog, *id, table->metadata.CurrentSchema(), ingest_files);
    }
    const Schema schema = table->metadata.CurrentSchema();
    const std::vector<std::string> keys = SplitColumnList(ingest_keys);
    const bool upsert = ingest_upsert || !keys.empty();
    if (!ingest_keys.empty() && keys.empty()) return ctx.Usage("--key needs at least one column");
    if (upsert && keys.empty() && schema.identifier_field_ids().empty())
      return ctx.Usage("--upsert: " + id->ToString() + " has no identifier fields; give --key");
    int64_t committed_rows = 0, commits = 0;
    StdinLines input;
    bool eof = false;
    while (!eof) {
      // One micro-batch: up to batch_rows lines, or whatever arrived within batch_ms.
      std::ostringstream chunk;
      int64_t lines = 0;
      const int64_t deadline = MonotonicMicros() + batch_ms * 1000;
      std::string line;
      while (lines < batch_rows) {
        int64_t wait_ms = (deadline - MonotonicMicros()) / 1000;
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
      std::istringstream in(chunk.str());
      auto reader = TextRowReader::Open(in, TextFormat::kJsonLines, schema, "stdin");
      if (!reader) return ctx.Fail(reader.error());
      ColumnBatch batch;
      auto more = (*reader)->Next(static_cast<size_t>(lines), &batch);
      if (!more) return ctx.Fail(more.error());
      RowWriteOptions options = OptionsFrom(ingest_args);
      Result<RowWriteResult> result;
      if (upsert) {
        auto latest = LastRowPerKey(batch, schema, keys);
        if (!latest) return ctx.Fail(latest.error());
        result = Upsert(**catalog, *id, *latest, keys, options);
      } else {
        result = AppendBatch(**catalog, *id, batch, options);
      }
      if (!result) return ctx.Fail(result.error());
      committed_rows += result->rows_added;
      ++commits;
      std::cerr << "ingest " << id->ToString() << ": committed " << result->rows_added << " rows as snapshot "
                << result->commit.snapshot_id << " (" << committed_rows << " rows in " << commits << " commits)\n";
    }
    std::cout << "ingest " << id->ToString() << ": " << committed_rows << " rows in " << commits << " commits\n";
    return kExitOk;
  });
}

}  // namespace floe::cli
