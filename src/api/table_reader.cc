// floe/table_reader.h over the scan room: one loaded metadata document, planned and read.
#include "floe/table_reader.h"

#include "api/api_internal.h"
#include "api/history_graph.h"
#include "api/reader_internal.h"
#include "floe/table.h"
#include "floe/table_folder.h"
#include "scan/metadata_tables.h"
#include "scan/snapshot_selection.h"
#include "types/nested_json.h"

namespace floe {

ScanOptions ToScanOptions(const ScanRequest& request) {
  ScanOptions scan;
  scan.snapshot_id = request.snapshot_id;
  scan.ref = request.ref;
  scan.as_of_ms = request.as_of_ms;
  scan.filter = request.filter.impl().expr;
  scan.filter_text = request.where;
  scan.columns = request.columns;
  scan.limit = request.limit;
  return scan;
}

ListedCell ToListedCell(const nlohmann::json& value) {
  if (value.is_string()) return ListedCell{value.get<std::string>(), true};
  return ListedCell{value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), false};
}

ListedCell ToListedCell(const Column& column, size_t row) {
  if (column.IsNull(row) || !column.type->is_nested()) return ToListedCell(column.Get(row).ToJson());
  ListedCell cell;
  AppendCellJson(column, row, &cell.text);
  return cell;
}

Error ExplainMissingFile(const TableReader::Impl& table, const ScanOptions& options, const Error& error) {
  if (error.kind != ErrorKind::kNotFound || !table.catalog) return error;
  auto read = SelectSnapshot(table.metadata, options);
  if (!read || !*read) return error;
  auto now = table.catalog->LoadTable(table.id);
  if (!now || now->metadata.SnapshotById((*read)->snapshot_id)) return error;
  return Error{ErrorKind::kNotFound, "snapshot " + std::to_string((*read)->snapshot_id) +
                                         " was expired while this read ran (expire-snapshots removed it and its "
                                         "files); read a newer snapshot (" + error.message + ")"};
}

Result<TableReader> TableReader::Load(const Table& table) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, table.impl_->catalog->LoadTable(table.impl_->id));
  auto impl = std::make_shared<Impl>();
  impl->io = table.impl_->catalog->io();
  impl->metadata_location = std::move(loaded.metadata_location);
  impl->metadata = std::move(loaded.metadata);
  impl->catalog = table.impl_->catalog;
  impl->id = table.impl_->id;
  return TableReader(std::move(impl));
}

TableReader TableReader::Of(const TableFolder& folder) {
  auto impl = std::make_shared<Impl>();
  impl->io = folder.impl_->io;
  impl->metadata_location = folder.impl_->table.metadata_location;
  impl->metadata = folder.impl_->table.metadata;
  return TableReader(std::move(impl));
}

const std::vector<std::string>& TableReader::MetadataTableNames() { return ::floe::MetadataTableNames(); }

Result<ScanExport> TableReader::PlanScan(const ScanRequest& request) const {
  auto impl = std::make_shared<ScanExport::Impl>();
  impl->table = impl_;
  impl->options = ToScanOptions(request);
  impl->options.include_column_stats = false;  // rows are read from the files; their metrics are not needed
  auto plan = ::floe::PlanScan(*impl_->io, impl_->metadata, impl->options);
  if (!plan) {
    if (plan.error().kind == ErrorKind::kInvalidArgument) return std::unexpected(plan.error());
    return std::unexpected(ExplainMissingFile(*impl_, impl->options, plan.error()));
  }
  impl->plan = std::move(*plan);
  for (const auto& f : impl->plan.projection.fields()) impl->columns.push_back(f.name);
  return ScanExport(std::move(impl));
}

Result<MetadataRows> TableReader::MetadataTable(const std::string& name, const ScanRequest& at) const {
  FLOE_ASSIGN_OR_RETURN(floe::MetadataTable table, ReadMetadataTable(*impl_->io, impl_->metadata, name,
                                                                     ToScanOptions(at), impl_->metadata_location));
  MetadataRows out;
  out.columns = std::move(table.columns);
  out.rows.reserve(table.rows.size());
  for (const auto& row : table.rows) {
    std::vector<ListedCell> cells;
    cells.reserve(row.size());
    for (const auto& cell : row) cells.push_back(ToListedCell(cell));
    out.rows.push_back(std::move(cells));
  }
  return out;
}

std::vector<std::string> TableReader::HistoryGraph() const { return DrawHistoryGraph(impl_->metadata); }

}  // namespace floe
