// The metadata tables that read a snapshot's manifests: manifests, files, entries, partitions.
#include <map>

#include "scan/metadata_table_util.h"
#include "scan/metadata_tables.h"
#include "scan/snapshot_selection.h"
#include "table_files/manifest_io.h"
#include "types/temporal.h"

namespace floe {

nlohmann::json TimestampJson(int64_t ms) { return FormatTimestamp(ms * 1000, 1'000'000, true); }

nlohmann::json HexJson(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

nlohmann::json PartitionJson(const TableMetadata& table, int spec_id, const std::vector<Literal>& partition) {
  nlohmann::json out = nlohmann::json::object();
  const PartitionSpec* spec = table.SpecById(spec_id);
  for (size_t i = 0; i < partition.size(); ++i) {
    std::string name = spec && i < spec->fields().size() ? spec->fields()[i].name : std::to_string(i);
    out[name] = partition[i].is_null() ? nlohmann::json() : partition[i].ToJson();
  }
  return out;
}

namespace {

template <typename V>
nlohmann::json MapJson(const FlatMap<int, V>& m) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [id, v] : m) out[std::to_string(id)] = v;
  return out;
}

nlohmann::json BoundsJson(const FlatMap<int, std::string>& m) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [id, v] : m) out[std::to_string(id)] = HexJson(v);
  return out;
}

template <typename V>
nlohmann::json Lookup(const FlatMap<int, V>& m, int id) {
  auto it = m.find(id);
  return it == m.end() ? nlohmann::json() : nlohmann::json(it->second);
}

nlohmann::json BoundJson(const FlatMap<int, std::string>& m, const NestedField& f) {
  auto it = m.find(f.id);
  if (it == m.end()) return nlohmann::json();
  auto v = Literal::FromBinary(f.type, it->second);
  return v ? v->ToJson() : HexJson(it->second);  // undecodable: show the bytes rather than fail
}

void AddLeafMetrics(const Schema& schema, const std::vector<NestedField>& fields, const DataFile& file, nlohmann::json* out) {
  for (const NestedField& f : fields) {
    if (f.type->id() == TypeId::kStruct) {
      AddLeafMetrics(schema, f.type->fields(), file, out);
      continue;
    }
    if (!f.type->is_primitive()) continue;
    (*out)[schema.FindColumnName(f.id)] = {
        {"column_size", Lookup(file.column_sizes, f.id)},       {"value_count", Lookup(file.value_counts, f.id)},
        {"null_value_count", Lookup(file.null_value_counts, f.id)}, {"nan_value_count", Lookup(file.nan_value_counts, f.id)},
        {"lower_bound", BoundJson(file.lower_bounds, f)},        {"upper_bound", BoundJson(file.upper_bounds, f)}};
  }
}

// The snapshot the options select, or nullptr for an empty table.
Result<const Snapshot*> Selected(const TableMetadata& table, const ScanOptions& options) {
  return SelectSnapshot(table, options);
}

}  // namespace

nlohmann::json ReadableMetrics(const Schema& schema, const DataFile& file) {
  nlohmann::json out = nlohmann::json::object();
  AddLeafMetrics(schema, schema.fields(), file, &out);
  return out;
}

const std::vector<std::string>& FileColumns() {
  static const std::vector<std::string> kColumns = {
      "content",          "file_path",       "file_format",          "spec_id",        "partition",
      "record_count",     "file_size_in_bytes", "column_sizes",      "value_counts",   "null_value_counts",
      "nan_value_counts", "lower_bounds",    "upper_bounds",         "key_metadata",   "split_offsets",
      "equality_ids",     "sort_order_id",   "first_row_id",         "referenced_data_file", "content_offset",
      "content_size_in_bytes", "readable_metrics"};
  return kColumns;
}

std::vector<nlohmann::json> FileRow(const TableMetadata& table, const Schema& schema, const DataFile& f) {
  return {static_cast<int>(f.content),
          f.file_path,
          std::string(FileFormatName(f.file_format)),
          f.spec_id,
          PartitionJson(table, f.spec_id, f.partition),
          f.record_count,
          f.file_size_in_bytes,
          MapJson(f.column_sizes),
          MapJson(f.value_counts),
          MapJson(f.null_value_counts),
          MapJson(f.nan_value_counts),
          BoundsJson(f.lower_bounds),
          BoundsJson(f.upper_bounds),
          f.key_metadata ? HexJson(*f.key_metadata) : nlohmann::json(),
          f.split_offsets.empty() ? nlohmann::json() : nlohmann::json(f.split_offsets.ToVector()),
          f.content == FileContent::kEqualityDeletes ? nlohmann::json(f.equality_ids) : nlohmann::json(),
          OptionalJson(f.sort_order_id),
          OptionalJson(f.first_row_id),
          OptionalJson(f.referenced_data_file),
          OptionalJson(f.content_offset),
          OptionalJson(f.content_size_in_bytes),
          ReadableMetrics(schema, f)};
}

nlohmann::json FileObject(const TableMetadata& table, const Schema& schema, const DataFile& file) {
  std::vector<nlohmann::json> row = FileRow(table, schema, file);
  nlohmann::json out = nlohmann::json::object();
  const auto& columns = FileColumns();
  for (size_t i = 0; i + 1 < columns.size(); ++i) out[columns[i]] = row[i];  // readable_metrics sits beside data_file
  return out;
}

Result<MetadataTable> ManifestsTable(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  MetadataTable t;
  t.columns = {"content", "path", "length", "partition_spec_id", "added_snapshot_id", "added_data_files_count",
               "existing_data_files_count", "deleted_data_files_count", "added_delete_files_count",
               "existing_delete_files_count", "deleted_delete_files_count", "partition_summaries"};
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, Selected(table, options));
  if (!snapshot) return t;
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(io, table, *snapshot));
  for (const ManifestFile& m : manifests) {
    bool data = m.content == ManifestContent::kData;
    nlohmann::json summaries = nlohmann::json::array();
    const PartitionSpec* spec = table.SpecById(m.partition_spec_id);
    auto ptype = spec ? spec->PartitionType(table.CurrentSchema()) : Result<TypePtr>(nullptr);
    for (size_t i = 0; i < m.partitions.size(); ++i) {
      const PartitionFieldSummary& s = m.partitions[i];
      // Bounds as human text, as Iceberg shows them; raw hex when the type is unknown.
      auto text = [&](const std::optional<std::string>& b) -> nlohmann::json {
        if (!b) return nlohmann::json();
        if (ptype && *ptype && i < (*ptype)->fields().size()) {
          auto v = Literal::FromBinary((*ptype)->fields()[i].type, *b);
          if (v) return v->ToString();
        }
        return HexJson(*b);
      };
      summaries.push_back({{"contains_null", s.contains_null},
                           {"contains_nan", OptionalJson(s.contains_nan)},
                           {"lower_bound", text(s.lower_bound)},
                           {"upper_bound", text(s.upper_bound)}});
    }
    t.rows.push_back({static_cast<int>(m.content), m.manifest_path, m.manifest_length, m.partition_spec_id,
                      m.added_snapshot_id, data ? m.added_files_count : 0, data ? m.existing_files_count : 0,
                      data ? m.deleted_files_count : 0, data ? 0 : m.added_files_count, data ? 0 : m.existing_files_count,
                      data ? 0 : m.deleted_files_count, summaries});
  }
  return t;
}

namespace {

// Calls fn(entry) for every entry (all statuses) of the selected snapshot's manifests.
template <typename Fn>
Status ForEachEntry(FileIO& io, const TableMetadata& table, const Snapshot& snapshot, Fn fn) {
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(io, table, snapshot));
  for (const ManifestFile& m : manifests) {
    FLOE_ASSIGN_OR_RETURN(auto entries, ReadManifestEntries(io, table, m));
    for (const ManifestEntry& e : entries) fn(e);
  }
  return Ok();
}

}  // namespace

Result<MetadataTable> FilesTable(FileIO& io, const TableMetadata& table, const ScanOptions& options, FilesKind kind) {
  MetadataTable t;
  t.columns = FileColumns();
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, Selected(table, options));
  if (!snapshot) return t;
  const Schema& schema = ScanSchema(table, snapshot, options);
  FLOE_RETURN_IF_ERROR(ForEachEntry(io, table, *snapshot, [&](const ManifestEntry& e) {
    if (e.status == EntryStatus::kDeleted) return;
    bool is_data = e.file.content == FileContent::kData;
    if ((kind == FilesKind::kData && !is_data) || (kind == FilesKind::kDeletes && is_data)) return;
    t.rows.push_back(FileRow(table, schema, e.file));
  }));
  return t;
}

Result<MetadataTable> EntriesTable(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  MetadataTable t;
  t.columns = {"status", "snapshot_id", "sequence_number", "file_sequence_number", "data_file", "readable_metrics"};
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, Selected(table, options));
  if (!snapshot) return t;
  const Schema& schema = ScanSchema(table, snapshot, options);
  FLOE_RETURN_IF_ERROR(ForEachEntry(io, table, *snapshot, [&](const ManifestEntry& e) {
    t.rows.push_back({static_cast<int>(e.status), OptionalJson(e.snapshot_id), OptionalJson(e.sequence_number),
                      OptionalJson(e.file_sequence_number), FileObject(table, schema, e.file),
                      ReadableMetrics(schema, e.file)});
  }));
  return t;
}

Result<MetadataTable> PartitionsTable(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  // One partition type for all specs: every partition field any spec has, by field id, so that
  // files written under different specs group by the values they share.
  std::vector<const PartitionField*> unified;
  for (const PartitionSpec& spec : table.partition_specs)
    for (const PartitionField& f : spec.fields()) {
      bool seen = false;
      for (const PartitionField* u : unified) seen |= u->field_id == f.field_id;
      if (!seen && f.transform.kind() != TransformKind::kVoid) unified.push_back(&f);
    }
  bool partitioned = !unified.empty();

  MetadataTable t;
  if (partitioned) t.columns = {"partition", "spec_id"};
  for (const char* c : {"record_count", "file_count", "total_data_file_size_in_bytes", "position_delete_record_count",
                        "position_delete_file_count", "equality_delete_record_count", "equality_delete_file_count",
                        "last_updated_at", "last_updated_snapshot_id"})
    t.columns.push_back(c);

  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, Selected(table, options));
  if (!snapshot) return t;

  struct Stats {
    nlohmann::json partition;
    int spec_id = 0;
    int64_t records = 0, files = 0, bytes = 0, pos_records = 0, pos_files = 0, eq_records = 0, eq_files = 0;
    std::optional<int64_t> last_snapshot;
    int64_t last_ms = -1;
  };
  std::map<std::string, Stats> groups;  // by the unified tuple's JSON text: a stable order
  FLOE_RETURN_IF_ERROR(ForEachEntry(io, table, *snapshot, [&](const ManifestEntry& e) {
    if (e.status == EntryStatus::kDeleted) return;
    const DataFile& f = e.file;
    nlohmann::json key = nlohmann::json::object();
    const PartitionSpec* spec = table.SpecById(f.spec_id);
    for (const PartitionField* u : unified) {
      nlohmann::json v;
      if (spec)
        for (size_t i = 0; i < spec->fields().size() && i < f.partition.size(); ++i)
          if (spec->fields()[i].field_id == u->field_id && !f.partition[i].is_null()) v = f.partition[i].ToJson();
      key[u->name] = v;
    }
    Stats& s = groups[key.dump()];
    s.partition = key;
    switch (f.content) {
      case FileContent::kData: s.records += f.record_count, ++s.files, s.bytes += f.file_size_in_bytes; break;
      case FileContent::kPositionDeletes: s.pos_records += f.record_count, ++s.pos_files; break;
      case FileContent::kEqualityDeletes: s.eq_records += f.record_count, ++s.eq_files; break;
    }
    const Snapshot* added = e.snapshot_id ? table.SnapshotById(*e.snapshot_id) : nullptr;
    int64_t ms = added ? added->timestamp_ms : -1;
    if (!s.last_snapshot || ms > s.last_ms) {
      s.last_snapshot = e.snapshot_id;
      s.last_ms = ms;
      s.spec_id = f.spec_id;
    }
  }));
  for (const auto& [key, s] : groups) {
    std::vector<nlohmann::json> row;
    if (partitioned) {
      row.push_back(s.partition);
      row.push_back(s.spec_id);
    }
    for (int64_t v : {s.records, s.files, s.bytes, s.pos_records, s.pos_files, s.eq_records, s.eq_files}) row.push_back(v);
    row.push_back(s.last_ms >= 0 ? TimestampJson(s.last_ms) : nlohmann::json());
    row.push_back(OptionalJson(s.last_snapshot));
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace floe
