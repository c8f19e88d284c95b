#include "api/api_internal.h"
#include "api/reader_internal.h"
#include "expr/binder.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "rows/upsert.h"
#include "commit/commit_base.h"
#include "commit/spec_update.h"
#include "types/schema_text.h"

namespace floe {
RowWriteOptions ToRowWriteOptions(const WriteOptions& options) {
  RowWriteOptions out;
  out.commit.branch = options.branch;
  out.commit.idempotency_key = options.idempotency_key;
  out.after_files_written = options.before_commit;
  out.commit.before_swap = options.before_swap;
  return out;
}

CommitInfo ToCommitInfo(const RowWriteResult& result) {
  CommitInfo info = ToCommitInfo(result.commit);
  info.committed = result.committed;
  info.rows_added = result.rows_added;
  info.rows_deleted = result.rows_deleted;
  info.rows_updated = result.rows_updated;
  info.files_added = result.files_added;
  info.files_removed = result.files_removed;
  info.rebases = result.rebases;
  return info;
}

CommitInfo ToCommitInfo(const CommitReport& report) {
  CommitInfo info;
  info.snapshot_id = report.snapshot_id;
  info.sequence_number = report.sequence_number;
  info.attempts = report.attempts;
  info.conflicts = report.conflicts;
  info.idempotent_replay = report.idempotent_replay;
  info.committed = report.attempts > 0 && !report.idempotent_replay;
  info.summary = report.ToString();
  info.metadata_location = report.metadata_location;
  return info;
}

const std::string& Table::name() const { return impl_->name; }

Result<std::string> Table::SchemaText() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  return SchemaToText(table.metadata.CurrentSchema());
}

Result<std::vector<SnapshotInfo>> Table::Snapshots() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  std::vector<SnapshotInfo> out;
  for (const Snapshot& s : table.metadata.snapshots)
    out.push_back(SnapshotInfo{s.snapshot_id, s.parent_snapshot_id, s.sequence_number, s.timestamp_ms, s.operation(),
                               s.summary});
  return out;
}

Result<std::map<std::string, std::string>> Table::Properties() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  return table.metadata.properties;
}

Result<std::string> Table::Location() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  return table.metadata.location;
}

// The table loaded for its schema is the write's and its commit's base too: one load a call.
Result<CommitInfo> Table::Append(const Rows& rows, const WriteOptions& options) {
  RowWriteOptions row_options = ToRowWriteOptions(options);
  FLOE_ASSIGN_OR_RETURN(row_options.commit.base, CommitBase::Load(*impl_->catalog, impl_->id));
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, RowsToBatch(rows, row_options.commit.base->metadata().CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written, AppendBatch(*impl_->catalog, impl_->id, batch, row_options));
  return ToCommitInfo(written);
}

Result<CommitInfo> Table::AppendBatches(const std::function<Result<bool>(Rows* batch)>& next,
                                       const WriteOptions& options) {
  RowWriteOptions row_options = ToRowWriteOptions(options);
  FLOE_ASSIGN_OR_RETURN(row_options.commit.base, CommitBase::Load(*impl_->catalog, impl_->id));
  const Schema schema = row_options.commit.base->metadata().CurrentSchema();  // a copy: read while writing
  Rows rows;
  RowSource source = [&](ColumnBatch* batch) -> Result<bool> {
    rows.columns.clear();
    rows.rows.clear();
    FLOE_ASSIGN_OR_RETURN(bool more, next(&rows));
    if (!more) return false;
    FLOE_ASSIGN_OR_RETURN(*batch, RowsToBatch(rows, schema));
    return true;
  };
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written, AppendRows(*impl_->catalog, impl_->id, source, row_options));
  return ToCommitInfo(written);
}

Result<CommitInfo> Table::Delete(const Filter& filter, const WriteOptions& options) {
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written,
                        DeleteWhere(*impl_->catalog, impl_->id, filter.impl().expr, ToRowWriteOptions(options)));
  return ToCommitInfo(written);
}

Result<Rows> Table::Scan(const ScanRequest& request) const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  ScanOptions scan = ToScanOptions(request);
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, ReadTable(*impl_->catalog->io(), table.metadata, scan));
  return BatchToRows(batch);
}

Status Table::ScanBatches(const ScanRequest& request, const RowBatchConsumer& consume) const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  ScanOptions scan = ToScanOptions(request);
  FileIO& io = *impl_->catalog->io();
  FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(io, table.metadata, scan));
  return ReadTasks(io, table.metadata, plan, 0,
                   [&](size_t, ColumnBatch&& rows) -> Result<bool> { return consume(BatchToRows(rows)); });
}

Result<CommitInfo> Table::Upsert(const Rows& rows, const std::vector<std::string>& key_columns,
                                 const WriteOptions& options) {
  RowWriteOptions row_options = ToRowWriteOptions(options);
  FLOE_ASSIGN_OR_RETURN(row_options.commit.base, CommitBase::Load(*impl_->catalog, impl_->id));
  FLOE_ASSIGN_OR_RETURN(ColumnBatch batch, RowsToBatch(rows, row_options.commit.base->metadata().CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written,
                        floe::Upsert(*impl_->catalog, impl_->id, batch, key_columns, row_options));
  return ToCommitInfo(written);
}

Status CheckAssignments(const std::string& assignments) {
  FLOE_RETURN_IF_ERROR(ParseAssignments(assignments));
  return Ok();
}

Status Table::CheckFilter(const Filter& filter) const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  FLOE_RETURN_IF_ERROR(Bind(filter.impl().expr, table.metadata.CurrentSchema()));
  return Ok();
}

Result<CommitInfo> Table::Update(const Filter& filter, const std::string& assignments, const WriteOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Assignment> sets, ParseAssignments(assignments));
  FLOE_ASSIGN_OR_RETURN(RowWriteResult written, UpdateWhere(*impl_->catalog, impl_->id, filter.impl().expr, sets,
                                                            ToRowWriteOptions(options)));
  return ToCommitInfo(written);
}

Status Table::SetProperties(const std::map<std::string, std::string>& set, const std::vector<std::string>& remove) {
  FLOE_RETURN_IF_ERROR(ChangeProperties(set, remove));
  return Ok();
}

Result<std::map<std::string, std::string>> Table::ChangeProperties(const std::map<std::string, std::string>& set,
                                                                   const std::vector<std::string>& remove) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, UpdateProperties(*impl_->catalog, impl_->id, set, remove));
  return table.metadata.properties;
}

Result<TableTransaction> Table::NewTransaction() const {
  auto impl = std::make_shared<TableTransaction::Impl>(impl_->catalog, impl_->id);
  FLOE_RETURN_IF_ERROR(impl->tx.Begin());
  return TableTransaction(std::move(impl));
}

}  // namespace floe
