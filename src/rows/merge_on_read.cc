#include "rows/merge_on_read.h"

#include "catalog/intent_store.h"
#include "expr/binder.h"
#include "expr/row_evaluator.h"
#include "meta/row_lineage.h"
#include "meta/table_properties.h"
#include "scan/table_scan.h"
#include "commit/commit_base.h"
#include "rows/commit_written_files.h"
#include "rows/row_delta_commit.h"
#include "commit/snapshot_lineage.h"
#include "rows/row_changes.h"
#include "rows/write_mode.h"
#include "write/data_writer.h"
#include "rows/row_position_deletes.h"

namespace floe {

namespace {

// Deletes (and, with assignments, updates) the rows matching `filter` by position deletes.
Result<RowWriteResult> MergeOnRead(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                   const std::vector<Assignment>* assignments, const RowWriteOptions& options,
                                   bool* rebase_possible) {
  RowWriteResult result;
  // The base the caller handed, unless a commit took it (a redo), is also the commit's; kept
  // alive here, as the deletes read it while the commit merges deletion vectors.
  RowWriteOptions handed = options;
  FLOE_ASSIGN_OR_RETURN(handed.commit.base, CommitBase::HandedOrLoad(catalog, id, options.commit.base));
  const std::shared_ptr<const TableMetadata> kept = handed.commit.base->KeepAlive();
  const TableMetadata& base = *kept;
  if (base.format_version < 2)
    return InvalidArgument("merge-on-read needs delete files, which need format version 2; " + id.ToString() +
                           " is v" + std::to_string(base.format_version));
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.commit.branch));
  if (!head) return result;  // an empty table has no rows to change
  const Schema& schema = base.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(Expr bound, Bind(filter, schema));
  FLOE_ASSIGN_OR_RETURN(IsolationLevel isolation,
                        IsolationFor(base, assignments ? RowLevelCommand::kUpdate : RowLevelCommand::kDelete));
  std::vector<BoundAssignment> sets;
  if (assignments) {
    FLOE_ASSIGN_OR_RETURN(sets, BindAssignments(schema, *assignments));
  }

  FileIO& io = *catalog.io();
  ScanOptions scan;
  scan.snapshot_id = head->snapshot_id;
  scan.filter = bound;
  FLOE_ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks, PlanFiles(io, base, scan));

  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, base);
  RowPositionDeletes deletes(io, base, names.get());  // files on v2, deletion vectors on v3
  DataWriter writer(io, base, names.get());
  // Format 3: an updated row keeps its _row_id in its new file and takes the update's sequence
  // number as its _last_updated_sequence_number (null in the file, inherited).
  const bool lineage = assignments && base.format_version >= 3;
  const Schema read_schema = lineage ? WithRowLineage(schema) : schema;
  if (lineage) writer.KeepRowLineage();
  auto abort = [&] {
    deletes.Abort();
    writer.Abort();
    (void)names->Clear();
  };
  std::vector<int64_t> positions, matched_positions;
  for (FileScanTask task : tasks) {
    task.residual = True();  // every live row with its position; the filter is applied below
    auto rows = ReadTaskWithPositions(io, base, task, read_schema, &positions);
    if (!rows) {
      abort();
      return std::unexpected(rows.error());
    }
    auto matches = EvaluateRows(bound, *rows);
    if (!matches) {
      abort();
      return std::unexpected(matches.error());
    }
    matched_positions.clear();
    for (size_t r = 0; r < matches->size(); ++r)
      if ((*matches)[r]) matched_positions.push_back(positions[r]);
    if (matched_positions.empty()) continue;  // the metrics said "maybe"; the rows say no
    if (auto st = deletes.Delete(task, matched_positions); !st) {
      abort();
      return std::unexpected(st.error());
    }
    const int64_t matched = static_cast<int64_t>(matched_positions.size());
    if (!assignments) {
      result.rows_deleted += matched;
      continue;
    }
    result.rows_updated += matched;
    auto updated = ApplyAssignments(read_schema, *rows, *matches, sets, /*only_selected=*/true);
    if (updated) MarkRowsModified(*updated, std::vector<uint8_t>(updated->num_rows, 1));
    Status written = updated ? writer.Write(*updated) : Status(std::unexpected(updated.error()));
    if (!written) {
      abort();
      return std::unexpected(written.error());
    }
    result.rows_added += static_cast<int64_t>(updated->num_rows);
    if (options.progress) options.progress(writer.stats().rows, writer.stats().bytes);
  }
  if (deletes.deleted_rows() == 0) return result;
  std::vector<std::string> referenced = deletes.referenced_data_files();
  auto delete_files = deletes.Finish();
  auto data_files = delete_files ? writer.Finish() : Result<std::vector<DataFile>>(std::vector<DataFile>{});
  std::vector<DataFile> added_deletes = delete_files ? delete_files->added : std::vector<DataFile>{};
  if (!delete_files || !data_files) {
    abort();
    return std::unexpected(!delete_files ? delete_files.error() : data_files.error());
  }
  if (options.after_files_written) options.after_files_written();
  result.files_added = static_cast<int64_t>(added_deletes.size() + data_files->size());
  FilesChange change = RowDelta(std::move(*data_files), std::move(added_deletes), head->snapshot_id, bound, isolation,
                                std::move(referenced));
  RowPositionDeletes::AddTo(std::move(*delete_files), &change);
  // An update writes new versions of the rows it deletes: if another commit deleted (or
  // updated) matching rows meanwhile, both new versions would survive. Refused at any
  // isolation, as Iceberg's Spark writer does for UPDATE and MERGE.
  if (assignments) change.fail_on_new_matching_deletes = true;
  change.row_scope = RowScopeFor(bound, options);
  if (base.format_version >= 3) {
    int merges = 0;
    FLOE_ASSIGN_OR_RETURN(result.commit, CommitRowDelta(catalog, id, std::move(change), deletes, handed, *names,
                                                        abort, rebase_possible, &merges));
    result.vector_merges = merges;
  } else {
    FLOE_ASSIGN_OR_RETURN(result.commit,
                          CommitWrittenFiles(catalog, id, std::move(change), handed, *names, abort, rebase_possible));
  }
  result.committed = !result.commit.idempotent_replay;
  return result;
}

}  // namespace

Result<RowWriteResult> MergeOnReadDelete(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                         const RowWriteOptions& options) {
  return WithRebase(catalog, id, options, [&](const RowWriteOptions& run, bool* rebase_possible) {
    return MergeOnRead(catalog, id, filter, nullptr, run, rebase_possible);
  });
}

Result<RowWriteResult> MergeOnReadUpdate(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                         const std::vector<Assignment>& assignments, const RowWriteOptions& options) {
  if (assignments.empty()) return InvalidArgument("update needs at least one 'column = value' assignment");
  return WithRebase(catalog, id, options, [&](const RowWriteOptions& run, bool* rebase_possible) {
    return MergeOnRead(catalog, id, filter, &assignments, run, rebase_possible);
  });
}

}  // namespace floe
