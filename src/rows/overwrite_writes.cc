#include "rows/overwrite_writes.h"

#include "catalog/intent_store.h"
#include "expr/binder.h"
#include "rows/commit_written_files.h"
#include "commit/snapshot_lineage.h"
#include "write/data_writer.h"

namespace floe {

Result<RowWriteResult> ReplacePartitionsWith(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& rows,
                                             const OverwriteOptions& options) {
  RowWriteResult result;
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  const TableMetadata& base = table.metadata;
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.write.commit.branch));
  if (rows.num_rows == 0) return result;  // no partition is touched
  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, base);
  DataWriter writer(*catalog.io(), base, names.get());
  auto abort = [&] {
    writer.Abort();
    (void)names->Clear();
  };
  if (auto st = writer.Write(rows); !st) {
    abort();
    return std::unexpected(st.error());
  }
  auto files = writer.Finish();
  if (!files) {
    abort();
    return std::unexpected(files.error());
  }
  result.rows_added = static_cast<int64_t>(rows.num_rows);
  result.files_added = static_cast<int64_t>(files->size());
  if (options.write.after_files_written) options.write.after_files_written();
  std::optional<int64_t> start;
  if (head) start = head->snapshot_id;
  FilesChange change = ReplacePartitions(std::move(*files), start, options.isolation);
  FLOE_ASSIGN_OR_RETURN(result.commit, CommitWrittenFiles(catalog, id, std::move(change), options.write, *names, abort));
  result.committed = !result.commit.idempotent_replay;
  return result;
}

Result<RowWriteResult> DeleteFilesWhere(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                        const RowWriteOptions& options) {
  RowWriteResult result;
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  const TableMetadata& base = table.metadata;
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.commit.branch));
  if (!head) return result;
  FLOE_ASSIGN_OR_RETURN(Expr bound, Bind(filter, base.CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(IsolationLevel isolation, IsolationFor(base, RowLevelCommand::kDelete));
  FilesChange change = OverwriteByFilter(bound, {}, head->snapshot_id, isolation);
  // No data file, but the commit's manifests and manifest list are recorded all the same.
  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, base);
  FLOE_ASSIGN_OR_RETURN(result.commit, CommitWrittenFiles(catalog, id, std::move(change), options, *names, [] {}));
  result.committed = !result.commit.idempotent_replay;
  // What went: the new snapshot's summary counts it.
  FLOE_ASSIGN_OR_RETURN(LoadedTable after, catalog.LoadTable(id));
  if (const Snapshot* s = after.metadata.SnapshotById(result.commit.snapshot_id)) {
    auto count = [&](const char* key) -> int64_t {
      auto it = s->summary.find(key);
      return it == s->summary.end() ? 0 : std::stoll(it->second);
    };
    result.files_removed = count("deleted-data-files");
    result.rows_deleted = count("deleted-records");
  }
  return result;
}

}  // namespace floe
