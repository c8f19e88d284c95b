// The metadata tables that read only the metadata document, and the dispatch by name.
#include "scan/metadata_tables.h"

#include <set>

#include "scan/metadata_table_util.h"

namespace floe {

int MetadataTable::ColumnIndex(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

const nlohmann::json& MetadataTable::At(size_t row, std::string_view column) const {
  static const nlohmann::json kNull;
  int i = ColumnIndex(column);
  if (i < 0 || row >= rows.size()) return kNull;
  return rows[row][i];
}

const std::vector<std::string>& MetadataTableNames() {
  static const std::vector<std::string> kNames = {"snapshots", "history",     "refs",    "manifests",
                                                  "files",     "data_files",  "delete_files", "entries",
                                                  "partitions", "metadata_log_entries"};
  return kNames;
}

MetadataTable SnapshotsTable(const TableMetadata& table) {
  MetadataTable t;
  t.columns = {"committed_at", "snapshot_id", "parent_id", "operation", "manifest_list", "summary"};
  for (const Snapshot& s : table.snapshots) {
    nlohmann::json summary = nlohmann::json::object();
    for (const auto& [k, v] : s.summary)
      if (k != "operation") summary[k] = v;
    t.rows.push_back({TimestampJson(s.timestamp_ms), s.snapshot_id, OptionalJson(s.parent_snapshot_id),
                      s.operation().empty() ? nlohmann::json() : nlohmann::json(s.operation()),
                      s.manifest_list.empty() ? nlohmann::json() : nlohmann::json(s.manifest_list), summary});
  }
  return t;
}

MetadataTable HistoryTable(const TableMetadata& table) {
  MetadataTable t;
  t.columns = {"made_current_at", "snapshot_id", "parent_id", "is_current_ancestor"};
  std::set<int64_t> ancestors;
  if (const Snapshot* current = table.CurrentSnapshot())
    for (const Snapshot* s : table.Ancestry(current->snapshot_id)) ancestors.insert(s->snapshot_id);
  for (const SnapshotLogEntry& e : table.snapshot_log) {
    const Snapshot* s = table.SnapshotById(e.snapshot_id);
    nlohmann::json parent = s ? OptionalJson(s->parent_snapshot_id) : nlohmann::json();
    t.rows.push_back({TimestampJson(e.timestamp_ms), e.snapshot_id, parent, ancestors.count(e.snapshot_id) > 0});
  }
  return t;
}

MetadataTable RefsTable(const TableMetadata& table) {
  MetadataTable t;
  t.columns = {"name", "type", "snapshot_id", "max_reference_age_in_ms", "min_snapshots_to_keep", "max_snapshot_age_in_ms"};
  for (const auto& [name, ref] : table.refs) {
    t.rows.push_back({name, ref.type == RefType::kBranch ? "BRANCH" : "TAG", ref.snapshot_id,
                      OptionalJson(ref.max_ref_age_ms), OptionalJson(ref.min_snapshots_to_keep),
                      OptionalJson(ref.max_snapshot_age_ms)});
  }
  return t;
}

MetadataTable MetadataLogEntriesTable(const TableMetadata& table, const std::string& metadata_location) {
  MetadataTable t;
  t.columns = {"timestamp", "file", "latest_snapshot_id", "latest_schema_id", "latest_sequence_number"};
  // What was current when a document was written: the last snapshot-log entry at or before
  // its time (the log of the current document covers the older ones).
  auto add = [&](int64_t ts, const std::string& file) {
    const Snapshot* s = table.SnapshotAsOf(ts);
    nlohmann::json schema_id = s && s->schema_id ? nlohmann::json(*s->schema_id) : nlohmann::json();
    t.rows.push_back({TimestampJson(ts), file, s ? nlohmann::json(s->snapshot_id) : nlohmann::json(), schema_id,
                      s ? nlohmann::json(s->sequence_number) : nlohmann::json()});
  };
  for (const MetadataLogEntry& e : table.metadata_log) add(e.timestamp_ms, e.metadata_file);
  if (!metadata_location.empty()) add(table.last_updated_ms, metadata_location);
  return t;
}

Result<MetadataTable> ReadMetadataTable(FileIO& io, const TableMetadata& table, std::string_view name,
                                        const ScanOptions& snapshot, const std::string& metadata_location) {
  if (name == "snapshots") return SnapshotsTable(table);
  if (name == "history") return HistoryTable(table);
  if (name == "refs") return RefsTable(table);
  if (name == "metadata_log_entries") return MetadataLogEntriesTable(table, metadata_location);
  if (name == "manifests") return ManifestsTable(io, table, snapshot);
  if (name == "files") return FilesTable(io, table, snapshot, FilesKind::kAll);
  if (name == "data_files") return FilesTable(io, table, snapshot, FilesKind::kData);
  if (name == "delete_files") return FilesTable(io, table, snapshot, FilesKind::kDeletes);
  if (name == "entries") return EntriesTable(io, table, snapshot);
  if (name == "partitions") return PartitionsTable(io, table, snapshot);
  std::string known;
  for (const auto& n : MetadataTableNames()) known += (known.empty() ? "" : ", ") + n;
  return InvalidArgument("unknown metadata table '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace floe
