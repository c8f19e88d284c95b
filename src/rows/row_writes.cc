#include "rows/row_writes.h"

#include <cctype>

#include "catalog/intent_store.h"

#include "expr/binder.h"
#include "expr/parser.h"
#include "expr/row_evaluator.h"
#include "expr/value_ops.h"
#include "meta/row_lineage.h"
#include "scan/table_scan.h"
#include "rows/commit_written_files.h"
#include "commit/commit_base.h"
#include "commit/commit_operation.h"
#include "commit/snapshot_lineage.h"
#include "rows/merge_on_read.h"
#include "rows/write_mode.h"
#include "commit/operations.h"
#include "rows/row_changes.h"
#include "write/data_writer.h"

namespace floe {
namespace {

enum class RowChange { kDelete, kUpdate };

Result<RowWriteResult> RewriteMatching(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                       RowChange change, const std::vector<Assignment>& assignments,
                                       const RowWriteOptions& options, bool* rebase_possible) {
  RowWriteResult result;
  // The base the caller handed, unless a commit took it (a redo), is also the commit's.
  RowWriteOptions handed = options;
  FLOE_ASSIGN_OR_RETURN(handed.commit.base, CommitBase::HandedOrLoad(catalog, id, options.commit.base));
  const TableMetadata& base = handed.commit.base->metadata();  // not read once the commit starts
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.commit.branch));
  if (!head) return result;  // an empty table has no rows to change
  const Schema& schema = base.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(Expr bound, Bind(filter, schema));
  FLOE_ASSIGN_OR_RETURN(IsolationLevel isolation,
                        IsolationFor(base, change == RowChange::kDelete ? RowLevelCommand::kDelete
                                                                        : RowLevelCommand::kUpdate));
  FLOE_ASSIGN_OR_RETURN(std::vector<BoundAssignment> sets, BindAssignments(schema, assignments));

  FileIO& io = *catalog.io();
  ScanOptions scan;
  scan.snapshot_id = head->snapshot_id;
  scan.filter = bound;
  FLOE_ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks, PlanFiles(io, base, scan));

  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, base);
  DataWriter writer(io, base, names.get());
  // Format 3: rows moved to the new files keep their _row_id; changed ones get a new
  // _last_updated_sequence_number (meta/row_lineage.h).
  const bool lineage = base.format_version >= 3;
  const Schema read_schema = lineage ? WithRowLineage(schema) : schema;
  if (lineage) writer.KeepRowLineage();
  auto abort = [&] {
    writer.Abort();
    (void)names->Clear();
  };
  std::vector<DataFile> removed;
  for (FileScanTask task : tasks) {
    task.residual = True();  // read every live row of the file; the filter is applied below
    FLOE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadTask(io, base, task, read_schema));
    FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> matches, EvaluateRows(bound, rows));
    int64_t matched = 0;
    for (uint8_t m : matches) matched += m;
    if (matched == 0) continue;  // the metrics said "maybe"; the rows say no: file untouched
    removed.push_back(task.file);
    if (change == RowChange::kDelete) {
      result.rows_deleted += matched;
      std::vector<uint8_t> keep(matches.size());
      for (size_t r = 0; r < matches.size(); ++r) keep[r] = !matches[r];
      ColumnBatch kept = rows.Filter(keep);
      result.rows_added += static_cast<int64_t>(kept.num_rows);
      FLOE_RETURN_IF_ERROR(writer.Write(kept));
    } else {
      result.rows_updated += matched;
      FLOE_ASSIGN_OR_RETURN(ColumnBatch updated,
                            ApplyAssignments(read_schema, rows, matches, sets, /*only_selected=*/false));
      MarkRowsModified(updated, matches);
      result.rows_added += static_cast<int64_t>(updated.num_rows);
      FLOE_RETURN_IF_ERROR(writer.Write(updated));
    }
    if (options.progress) options.progress(writer.stats().rows, writer.stats().bytes);
  }
  if (removed.empty()) return result;
  FLOE_ASSIGN_OR_RETURN(std::vector<DataFile> added, writer.Finish());
  if (options.after_files_written) options.after_files_written();
  result.files_added = static_cast<int64_t>(added.size());
  result.files_removed = static_cast<int64_t>(removed.size());
  FilesChange files = CopyOnWrite(std::move(removed), std::move(added), head->snapshot_id, bound, isolation);
  files.row_scope = RowScopeFor(bound, options);
  FLOE_ASSIGN_OR_RETURN(result.commit,
                        CommitWrittenFiles(catalog, id, std::move(files), handed, *names, abort, rebase_possible));
  result.committed = true;
  return result;
}

}  // namespace

Result<RowWriteResult> AppendRows(Catalog& catalog, const TableIdentifier& id, const RowSource& rows,
                                  const RowWriteOptions& options) {
  RowWriteResult result;
  // The table as the caller loaded it, else loaded here; either way handed on to the commit,
  // whose first attempt then needs no load of its own (commit/commit_base.h).
  RowWriteOptions handed = options;
  FLOE_ASSIGN_OR_RETURN(handed.commit.base, CommitBase::HandedOrLoad(catalog, id, options.commit.base));
  const TableMetadata& table = handed.commit.base->metadata();  // not read once the commit starts
  if (options.commit.idempotency_key &&
      FindIdempotentSnapshot(table, options.commit.branch, *options.commit.idempotency_key)) {
    // Already committed: write nothing at all, not even data files.
    FilesOperation nothing(FastAppend({}));
    FLOE_ASSIGN_OR_RETURN(result.commit, CommitOperation(catalog, id, nothing, handed.commit));
    return result;
  }
  // One write intent for the data files and the commit's manifests (table_files/file_namer.h).
  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, table);
  DataWriter writer(*catalog.io(), table, names.get());
  auto abort = [&] {
    writer.Abort();
    (void)names->Clear();
  };
  ColumnBatch batch;
  while (true) {
    auto more = rows(&batch);
    if (!more) {
      abort();
      return std::unexpected(more.error());
    }
    if (!*more) break;
    auto st = writer.Write(std::move(batch));
    if (!st) {
      abort();
      return std::unexpected(st.error());
    }
    if (options.progress) options.progress(writer.stats().rows, writer.stats().bytes);
  }
  auto files = writer.Finish();
  if (!files) {
    abort();
    return std::unexpected(files.error());
  }
  result.rows_added = writer.stats().rows;
  result.files_added = static_cast<int64_t>(files->size());
  if (options.after_files_written) options.after_files_written();
  FilesChange change = options.merge_append ? MergeAppend(std::move(*files)) : FastAppend(std::move(*files));
  FLOE_ASSIGN_OR_RETURN(result.commit,
                        CommitWrittenFiles(catalog, id, std::move(change), handed, *names, [&] { writer.Abort(); }));
  result.committed = !result.commit.idempotent_replay;
  return result;
}

Result<RowWriteResult> AppendBatch(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& batch,
                                   const RowWriteOptions& options) {
  bool given = false;
  return AppendRows(
      catalog, id,
      [&](ColumnBatch* out) -> Result<bool> {
        if (given) return false;
        given = true;
        *out = batch;
        return true;
      },
      options);
}

// One load for the mode, the rows and the commit's first attempt (commit/commit_base.h).
Result<RowWriteResult> DeleteWhere(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                   const RowWriteOptions& given) {
  RowWriteOptions options = given;
  FLOE_ASSIGN_OR_RETURN(options.commit.base, CommitBase::HandedOrLoad(catalog, id, given.commit.base));
  FLOE_ASSIGN_OR_RETURN(WriteMode mode, ChosenWriteMode(catalog, id, RowLevelCommand::kDelete, options));
  if (mode == WriteMode::kMergeOnRead) return MergeOnReadDelete(catalog, id, filter, options);
  return WithRebase(catalog, id, options, [&](const RowWriteOptions& run, bool* rebase_possible) {
    return RewriteMatching(catalog, id, filter, RowChange::kDelete, {}, run, rebase_possible);
  });
}

Result<RowWriteResult> UpdateWhere(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                   const std::vector<Assignment>& assignments, const RowWriteOptions& given) {
  if (assignments.empty()) return InvalidArgument("update needs at least one 'column = value' assignment");
  RowWriteOptions options = given;
  FLOE_ASSIGN_OR_RETURN(options.commit.base, CommitBase::HandedOrLoad(catalog, id, given.commit.base));
  FLOE_ASSIGN_OR_RETURN(WriteMode mode, ChosenWriteMode(catalog, id, RowLevelCommand::kUpdate, options));
  if (mode == WriteMode::kMergeOnRead) return MergeOnReadUpdate(catalog, id, filter, assignments, options);
  return WithRebase(catalog, id, options, [&](const RowWriteOptions& run, bool* rebase_possible) {
    return RewriteMatching(catalog, id, filter, RowChange::kUpdate, assignments, run, rebase_possible);
  });
}

Result<std::vector<Assignment>> ParseAssignments(std::string_view text) {
  std::vector<Assignment> out;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (quoted) {
      if (c == '\'') quoted = false;
      if (i < text.size()) continue;
    }
    if (c == '\'') quoted = true;
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c != ',' || depth != 0) continue;
    std::string_view part = text.substr(start, i - start);
    start = i + 1;
    size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return InvalidArgument("assignment '" + std::string(part) + "' needs the form 'column = value'");
    std::string column(part.substr(0, eq));
    column.erase(0, column.find_first_not_of(" \t"));
    column.erase(column.find_last_not_of(" \t") + 1);
    if (column.empty()) return InvalidArgument("assignment '" + std::string(part) + "' names no column");
    std::string value(part.substr(eq + 1));
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t") + 1);
    if (value.size() == 4 && std::equal(value.begin(), value.end(), "NULL",
                                        [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; })) {
      out.push_back(Assignment{column, LiteralTerm(Literal())});  // typed by the column it is assigned to
      continue;
    }
    // The value is parsed as a term by asking the WHERE parser for "(value) IS NULL"; a
    // constant (which IS NULL refuses) as the one element of "column IN (value)".
    auto parsed = ParseFilter("(" + std::string(part.substr(eq + 1)) + ") IS NULL");
    if (!parsed) {
      auto constant = ParseFilter("value IN (" + std::string(part.substr(eq + 1)) + ")");
      if (constant && (*constant)->is_predicate() && (*constant)->literals().size() == 1) {
        out.push_back(Assignment{column, LiteralTerm((*constant)->literals()[0])});
        continue;
      }
    }
    if (!parsed || !(*parsed)->is_predicate() || !(*parsed)->term())
      return InvalidArgument("assignment to '" + column + "': cannot read the value '" +
                             std::string(part.substr(eq + 1)) + "'" +
                             (parsed ? std::string() : ": " + parsed.error().message));
    out.push_back(Assignment{column, (*parsed)->term()});
  }
  return out;
}

}  // namespace floe
