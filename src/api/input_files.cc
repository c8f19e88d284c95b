// floe/input_files.h: Table::AppendFiles, OverwriteFiles and UpsertFiles over FileRows.
#include "floe/input_files.h"

#include <algorithm>
#include <sstream>

#include "api/api_internal.h"
#include "api/file_rows.h"
#include "api/read_ahead.h"
#include "catalog/intent_store.h"
#include "commit/commit_base.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/operations.h"
#include "rows/row_writes.h"
#include "rows/upsert.h"
#include "write/data_writer.h"
#include "write/text_rows.h"

namespace floe {
namespace {

// JSON lines held in memory as one batch of `schema` (errors name "stdin").
Result<ColumnBatch> JsonLinesBatch(const std::string& text, const Schema& schema) {
  std::istringstream in(text);
  FLOE_ASSIGN_OR_RETURN(auto reader, TextRowReader::Open(in, TextFormat::kJsonLines, schema, "stdin"));
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  ColumnBatch batch;
  FLOE_RETURN_IF_ERROR(reader->Next(lines, &batch));
  return batch;
}

FileRows RowsOf(const InputFiles& input, const Schema& schema) {
  return FileRows(input.paths, input.format, schema, TextReadOptions{input.null_string});
}

// Every row of `input`, read before anything is written.
Result<ColumnBatch> ReadAll(const InputFiles& input, const Schema& schema) {
  if (input.json_lines) return JsonLinesBatch(*input.json_lines, schema);
  FileRows rows = RowsOf(input, schema);
  ColumnBatch all(schema), batch;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, rows.Next(&batch));
    if (!more) break;
    all.Append(batch);
  }
  return all;
}

}  // namespace

Status CheckInputFormat(const std::string& format) {
  // What FileRows reads: "parquet" as written, the text formats in any case.
  if (format.empty() || format == "parquet") return Ok();
  FLOE_RETURN_IF_ERROR(TextFormatFor("", format));
  return Ok();
}

// The table loaded for its schema is the write's and its commit's base too (commit/commit_base.h):
// one load a call, which `floe ingest` makes once a file.
Result<CommitInfo> Table::AppendFiles(const InputFiles& input, const WriteOptions& options) {
  RowWriteOptions row_options = ToRowWriteOptions(options);
  FLOE_ASSIGN_OR_RETURN(row_options.commit.base, CommitBase::Load(*impl_->catalog, impl_->id));
  const Schema schema = row_options.commit.base->metadata().CurrentSchema();  // a copy: read while writing
  if (input.json_lines) {
    FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, JsonLinesBatch(*input.json_lines, schema));
    FLOE_ASSIGN_OR_RETURN(RowWriteResult written, AppendBatch(*impl_->catalog, impl_->id, batch, row_options));
    CommitInfo info = ToCommitInfo(written);
    info.rows_read = batch.num_rows;
    return info;
  }
  FileRows rows = RowsOf(input, schema);
  row_options.progress = [&](int64_t written_rows, int64_t bytes) {
    if (input.progress) input.progress({written_rows, bytes, rows.bytes_done(), rows.total_bytes()});
  };
  ReadAhead ahead(rows.AsSource());  // read and convert input while the writer writes
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written, AppendRows(*impl_->catalog, impl_->id, ahead.AsSource(), row_options));
  CommitInfo info = ToCommitInfo(written);
  info.rows_read = written.rows_added;
  return info;
}

Result<CommitInfo> Table::OverwriteFiles(const InputFiles& input, const Filter& filter, const WriteOptions& options) {
  Catalog& catalog = *impl_->catalog;
  // The commit's first attempt starts from this load too: conflicts are checked from its head.
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<CommitBase> base, CommitBase::Load(catalog, impl_->id));
  const TableMetadata& table = base->metadata();  // not read once the commit starts
  Expr where = filter.impl().expr ? filter.impl().expr : True();
  FileRows rows = RowsOf(input, table.CurrentSchema());
  // One write intent for the data files and the commit's manifests (table_files/file_namer.h).
  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, impl_->id, table);
  DataWriter writer(*catalog.io(), table, names.get());
  auto abandon = [&](const Error& error) -> Result<CommitInfo> {
    writer.Abort();
    (void)names->Clear();
    return std::unexpected(error);
  };
  ColumnBatch batch;
  while (true) {
    auto more = rows.Next(&batch);
    if (!more) return abandon(more.error());
    if (!*more) break;
    if (auto written = writer.Write(batch); !written) return abandon(written.error());
  }
  auto files = writer.Finish();
  if (!files) return abandon(files.error());
  if (options.before_commit) options.before_commit();
  const Snapshot* head = table.SnapshotForRef(options.branch);
  std::optional<int64_t> start;
  if (head) start = head->snapshot_id;
  FLOE_ASSIGN_OR_RETURN(IsolationLevel isolation, IsolationFor(table, RowLevelCommand::kDelete));
  const int64_t added_rows = writer.stats().rows;
  const int64_t added_files = static_cast<int64_t>(files->size());
  FilesOperation operation(OverwriteByFilter(where, std::move(*files), start, isolation));
  CommitOptions commit = ToRowWriteOptions(options).commit;
  commit.discard_written_files = [&writer] { writer.Abort(); };  // only when certainly failed
  commit.names = names.get();
  commit.base = std::move(base);
  FLOE_ASSIGN_OR_RETURN(CommitReport report, CommitOperation(catalog, impl_->id, operation, commit));
  CommitInfo info = ToCommitInfo(report);
  info.rows_added = added_rows;
  info.rows_read = added_rows;
  info.files_added = added_files;
  return info;
}

Result<CommitInfo> Table::UpsertFiles(const InputFiles& input, const std::vector<std::string>& key_columns,
                                      const WriteOptions& options, bool last_row_per_key) {
  RowWriteOptions row_options = ToRowWriteOptions(options);
  FLOE_ASSIGN_OR_RETURN(row_options.commit.base, CommitBase::Load(*impl_->catalog, impl_->id));
  const Schema schema = row_options.commit.base->metadata().CurrentSchema();  // a copy: read while writing
  FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadAll(input, schema));
  const int64_t read = rows.num_rows;
  if (last_row_per_key) {
    FLOE_ASSIGN_OR_RETURN(rows, LastRowPerKey(rows, schema, key_columns));
  }
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written,
                        floe::Upsert(*impl_->catalog, impl_->id, rows, key_columns, row_options));
  CommitInfo info = ToCommitInfo(written);
  info.rows_read = read;
  return info;
}

}  // namespace floe
