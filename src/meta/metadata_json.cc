// Reading and writing whole table metadata documents (Iceberg table spec, "Table Metadata").
//
// Reading accepts every format version floe knows (1 to 3) and fills what older versions
// leave implicit: v1's single schema / partition-spec, the unsorted order, refs derived from
// current-snapshot-id. Writing emits the version's required fields in Iceberg's key order,
// plus v1's legacy fields for older readers, so that a written document re-reads to the
// same value.
#include "meta/metadata_json.h"

#include <algorithm>

#include "meta/json_fields.h"
#include "meta/json_internal.h"
#include "util/strict_json.h"
#include "meta/metadata_tolerance.h"

namespace floe {

using internal::Ordered;
using json_fields::Json;
namespace jf = json_fields;

namespace {

constexpr int kMaxMetadataJsonDepth = 512;

std::string V(int version) { return "v" + std::to_string(version); }

// A document is a view when it carries a view's identity fields; telling the user that is
// clearer than complaining about the table fields it lacks.
bool LooksLikeView(const Json& j) {
  return jf::Find(j, "view-uuid") != nullptr ||
         (jf::Find(j, "versions") && jf::Find(j, "current-version-id") && !jf::Find(j, "table-uuid"));
}

template <typename T, typename F>
Result<std::vector<T>> ParseList(const Json& j, std::string_view key, F parse) {
  std::vector<T> out;
  FLOE_ASSIGN_OR_RETURN(const Json* list, jf::GetArray(j, key));
  if (!list) return out;
  for (const Json& item : *list) {
    auto v = parse(item);
    if (!v) return std::unexpected(v.error().WithContext(std::string(key) + "[" + std::to_string(out.size()) + "]"));
    out.push_back(std::move(*v));
  }
  return out;
}

Status ReadSchemas(const Json& j, TableMetadata& m) {
  if (jf::Find(j, "schemas")) {
    FLOE_ASSIGN_OR_RETURN(m.schemas, ParseList<Schema>(j, "schemas", SchemaFromJson));
    FLOE_ASSIGN_OR_RETURN(m.current_schema_id, jf::GetInt(j, "current-schema-id"));
  } else {
    if (m.format_version != 1) return InvalidArgument("schemas must exist in format " + V(m.format_version));
    FLOE_ASSIGN_OR_RETURN(const Json* schema, jf::Require(j, "schema"));
    auto parsed = SchemaFromJson(*schema);
    if (!parsed) return std::unexpected(parsed.error().WithContext("schema"));
    m.current_schema_id = parsed->schema_id();
    m.schemas.push_back(std::move(*parsed));
  }
  if (!m.SchemaById(m.current_schema_id))
    return InvalidArgument("Cannot find schema with current-schema-id=" + std::to_string(m.current_schema_id) +
                           " from schemas");
  return Ok();
}

Status ReadSpecs(const Json& j, TableMetadata& m) {
  if (jf::Find(j, "partition-specs")) {
    FLOE_ASSIGN_OR_RETURN(m.partition_specs, ParseList<PartitionSpec>(j, "partition-specs", [](const Json& s) {
                            return PartitionSpecFromJson(s, 0);
                          }));
    FLOE_ASSIGN_OR_RETURN(m.default_spec_id, jf::GetInt(j, "default-spec-id"));
  } else {
    if (m.format_version != 1) return InvalidArgument("partition-specs must exist in format " + V(m.format_version));
    FLOE_ASSIGN_OR_RETURN(const Json* fields, jf::Require(j, "partition-spec"));
    auto spec = PartitionSpecFromJson(*fields, 0);
    if (!spec) return std::unexpected(spec.error().WithContext("partition-spec"));
    m.default_spec_id = 0;
    m.partition_specs.push_back(std::move(*spec));
  }
  if (jf::Find(j, "last-partition-id")) {
    FLOE_ASSIGN_OR_RETURN(m.last_partition_id, jf::GetInt(j, "last-partition-id"));
  } else {
    if (m.format_version != 1) return InvalidArgument("last-partition-id must exist in format " + V(m.format_version));
    m.last_partition_id = PartitionSpec::kFirstFieldId - 1;
    for (const auto& spec : m.partition_specs)
      for (const auto& f : spec.fields()) m.last_partition_id = std::max(m.last_partition_id, f.field_id);
  }
  return Ok();
}

Status ReadSortOrders(const Json& j, TableMetadata& m) {
  if (jf::Find(j, "sort-orders")) {
    FLOE_ASSIGN_OR_RETURN(m.sort_orders, ParseList<SortOrder>(j, "sort-orders", SortOrderFromJson));
    FLOE_ASSIGN_OR_RETURN(m.default_sort_order_id, jf::GetInt(j, "default-sort-order-id"));
  } else {
    if (m.format_version != 1) return InvalidArgument("sort-orders must exist in format " + V(m.format_version));
    m.sort_orders.push_back(SortOrder::Unsorted());
    m.default_sort_order_id = 0;
  }
  return Ok();
}

// The lists `parsed` gives replace the document's own (see json_internal.h).
Status ReadSnapshots(const Json& j, const internal::ParsedLists& parsed, TableMetadata& m) {
  FLOE_ASSIGN_OR_RETURN(auto current, jf::GetOptionalLong(j, "current-snapshot-id"));
  if (current && *current != -1) m.current_snapshot_id = *current;
  if (parsed.snapshots) {
    m.snapshots = std::move(*parsed.snapshots);
  } else {
    FLOE_ASSIGN_OR_RETURN(m.snapshots, ParseList<Snapshot>(j, "snapshots", SnapshotFromJson));
  }
  FLOE_ASSIGN_OR_RETURN(const Json* refs, jf::GetObject(j, "refs"));
  if (refs) {
    for (auto it = refs->begin(); it != refs->end(); ++it) {
      auto ref = SnapshotRefFromJson(it.value());
      if (!ref) return std::unexpected(ref.error().WithContext("refs." + it.key()));
      m.refs[it.key()] = *ref;
    }
  }
  if (m.current_snapshot_id && !m.refs.contains(kMainBranch)) {
    // Documents written before refs existed: main is implicitly the current snapshot.
    m.refs[kMainBranch] = SnapshotRef{*m.current_snapshot_id, RefType::kBranch, {}, {}, {}};
  }
  if (parsed.snapshot_log) {
    m.snapshot_log = std::move(*parsed.snapshot_log);
  } else {
    FLOE_ASSIGN_OR_RETURN(m.snapshot_log,
                          ParseList<SnapshotLogEntry>(j, "snapshot-log", internal::SnapshotLogEntryFromJson));
  }
  FLOE_ASSIGN_OR_RETURN(m.metadata_log, ParseList<MetadataLogEntry>(j, "metadata-log", [](const Json& e) -> Result<MetadataLogEntry> {
                          MetadataLogEntry out;
                          FLOE_ASSIGN_OR_RETURN(out.timestamp_ms, jf::GetLong(e, "timestamp-ms"));
                          FLOE_ASSIGN_OR_RETURN(out.metadata_file, jf::GetString(e, "metadata-file"));
                          return out;
                        }));
  FLOE_ASSIGN_OR_RETURN(m.statistics, ParseList<StatisticsFile>(j, "statistics", internal::StatisticsFileFromJson));
  FLOE_ASSIGN_OR_RETURN(m.partition_statistics, ParseList<PartitionStatisticsFile>(
                                                    j, "partition-statistics", internal::PartitionStatisticsFileFromJson));
  return Ok();
}

Result<TableMetadata> ReadDocument(const Json& j, const internal::ParsedLists& parsed) {
  if (!j.is_object()) return InvalidArgument("table metadata must be a JSON object, got " + jf::Snippet(j));
  if (LooksLikeView(j))
    return InvalidArgument(
        "not a table metadata document: this is a view, not a table (it has view-uuid / versions fields)");
  TableMetadata m;
  FLOE_ASSIGN_OR_RETURN(m.format_version, jf::GetInt(j, "format-version"));
  if (m.format_version < 1 || m.format_version > kMaxFormatVersion)
    return NotSupported("Unsupported format version: " + std::to_string(m.format_version) + " (floe reads v1 to v" +
                        std::to_string(kMaxFormatVersion) + ")");
  FLOE_ASSIGN_OR_RETURN(auto uuid, jf::GetOptionalString(j, "table-uuid"));
  if (!uuid && m.format_version > 1) return InvalidArgument("table-uuid must exist in format " + V(m.format_version));
  m.table_uuid = uuid.value_or("");
  FLOE_ASSIGN_OR_RETURN(m.location, jf::GetString(j, "location"));
  if (m.format_version > 1) {
    if (!jf::Find(j, "last-sequence-number"))
      return InvalidArgument("last-sequence-number must exist in format " + V(m.format_version));
    FLOE_ASSIGN_OR_RETURN(m.last_sequence_number, jf::GetLong(j, "last-sequence-number"));
  }
  FLOE_ASSIGN_OR_RETURN(m.last_updated_ms, jf::GetLong(j, "last-updated-ms"));
  FLOE_ASSIGN_OR_RETURN(m.last_column_id, jf::GetInt(j, "last-column-id"));
  FLOE_RETURN_IF_ERROR(ReadSchemas(j, m));
  FLOE_RETURN_IF_ERROR(ReadSpecs(j, m));
  FLOE_RETURN_IF_ERROR(ReadSortOrders(j, m));
  FLOE_ASSIGN_OR_RETURN(const Json* props, jf::GetObject(j, "properties"));
  if (props) {
    FLOE_ASSIGN_OR_RETURN(m.properties, jf::ToStringMap(*props, "properties"));
  }
  FLOE_RETURN_IF_ERROR(ReadSnapshots(j, parsed, m));
  if (m.format_version >= 3) {
    FLOE_ASSIGN_OR_RETURN(auto next_row_id, jf::GetOptionalLong(j, "next-row-id"));
    m.next_row_id = next_row_id.value_or(0);
  }
  internal::TolerateOnRead(j, m);
  FLOE_RETURN_IF_ERROR(m.Validate());
  return m;
}

}  // namespace

Result<TableMetadata> internal::TableMetadataFromJson(const nlohmann::json& j, const ParsedLists& parsed) {
  auto m = ReadDocument(j, parsed);
  if (!m) {
    // A document that breaks the spec is corrupt input; an unknown version is a format floe
    // cannot read yet.
    ErrorKind kind = m.error().kind == ErrorKind::kNotSupported ? ErrorKind::kNotSupported : ErrorKind::kCorrupt;
    return std::unexpected(Error{kind, m.error().message});
  }
  return m;
}

Result<TableMetadata> TableMetadataFromJson(const nlohmann::json& j) { return internal::TableMetadataFromJson(j, {}); }

Result<SnapshotLogEntry> internal::SnapshotLogEntryFromJson(const nlohmann::json& j) {
  SnapshotLogEntry out;
  FLOE_ASSIGN_OR_RETURN(out.timestamp_ms, jf::GetLong(j, "timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(out.snapshot_id, jf::GetLong(j, "snapshot-id"));
  return out;
}

Result<nlohmann::json> internal::ParseMetadataText(std::string_view text) {
  JsonLimits limits;
  limits.max_depth = kMaxMetadataJsonDepth;
  limits.allow_duplicate_keys = true;  // as other readers take them: the last one wins
  auto j = ParseStrictJson(text, "table metadata", limits);
  if (!j) return Corrupt(j.error().message);
  return j;
}

Result<TableMetadata> ParseTableMetadata(std::string_view json_text) {
  FLOE_ASSIGN_OR_RETURN(Json j, internal::ParseMetadataText(json_text));
  return TableMetadataFromJson(j);
}

Ordered internal::MetadataHeadToOrdered(const TableMetadata& m) {
  Ordered out;
  const bool v1 = m.format_version == 1;
  out["format-version"] = m.format_version;
  if (!m.table_uuid.empty() || !v1) out["table-uuid"] = m.table_uuid;
  out["location"] = m.location;
  if (!v1) out["last-sequence-number"] = m.last_sequence_number;
  out["last-updated-ms"] = m.last_updated_ms;
  out["last-column-id"] = m.last_column_id;
  if (m.format_version >= 3) out["next-row-id"] = m.next_row_id.value_or(0);
  if (v1) out["schema"] = internal::SchemaToOrdered(m.CurrentSchema());
  out["current-schema-id"] = m.current_schema_id;
  Ordered schemas = Ordered::array();
  for (const auto& s : m.schemas) schemas.push_back(internal::SchemaToOrdered(s));
  out["schemas"] = std::move(schemas);
  if (v1) out["partition-spec"] = internal::PartitionFieldsToOrdered(m.DefaultSpec());
  out["default-spec-id"] = m.default_spec_id;
  Ordered specs = Ordered::array();
  for (const auto& s : m.partition_specs) specs.push_back(internal::PartitionSpecToOrdered(s));
  out["partition-specs"] = std::move(specs);
  out["last-partition-id"] = m.last_partition_id;
  out["default-sort-order-id"] = m.default_sort_order_id;
  Ordered orders = Ordered::array();
  for (const auto& o : m.sort_orders) orders.push_back(internal::SortOrderToOrdered(o));
  out["sort-orders"] = std::move(orders);
  Ordered props = Ordered::object();
  for (const auto& [k, v] : m.properties) internal::AppendUnique(props, k, v);
  out["properties"] = std::move(props);
  // -1 rather than null: older readers only understand -1 as "no snapshot".
  out["current-snapshot-id"] = m.current_snapshot_id.value_or(-1);
  Ordered refs = Ordered::object();
  for (const auto& [name, ref] : m.refs) internal::AppendUnique(refs, name, internal::SnapshotRefToOrdered(ref));
  out["refs"] = std::move(refs);
  return out;
}

Ordered internal::StatisticsToOrdered(const TableMetadata& m) {
  Ordered stats = Ordered::array();
  for (const auto& f : m.statistics) stats.push_back(internal::StatisticsFileToOrdered(f));
  return stats;
}

Ordered internal::PartitionStatisticsToOrdered(const TableMetadata& m) {
  Ordered part_stats = Ordered::array();
  for (const auto& f : m.partition_statistics) part_stats.push_back(internal::PartitionStatisticsFileToOrdered(f));
  return part_stats;
}

namespace {

// The whole document as one nlohmann value: TableMetadataToJson, and the reference the fast
// writer (metadata_writer.cc) matches byte for byte.
Ordered ToOrdered(const TableMetadata& m) {
  Ordered out = internal::MetadataHeadToOrdered(m);
  const bool v1 = m.format_version == 1;
  Ordered snapshots = Ordered::array();
  for (const auto& s : m.snapshots) {
    Ordered snap = internal::SnapshotToOrdered(s);
    // v1 snapshots have no sequence number; v2 readers default a missing one to 0.
    if (v1 && s.sequence_number == 0) snap.erase("sequence-number");
    snapshots.push_back(std::move(snap));
  }
  out["snapshots"] = std::move(snapshots);
  out["statistics"] = internal::StatisticsToOrdered(m);
  out["partition-statistics"] = internal::PartitionStatisticsToOrdered(m);
  Ordered snapshot_log = Ordered::array();
  for (const auto& e : m.snapshot_log) {
    Ordered entry;
    entry["timestamp-ms"] = e.timestamp_ms;
    entry["snapshot-id"] = e.snapshot_id;
    snapshot_log.push_back(std::move(entry));
  }
  out["snapshot-log"] = std::move(snapshot_log);
  Ordered metadata_log = Ordered::array();
  for (const auto& e : m.metadata_log) {
    Ordered entry;
    entry["timestamp-ms"] = e.timestamp_ms;
    entry["metadata-file"] = e.metadata_file;
    metadata_log.push_back(std::move(entry));
  }
  out["metadata-log"] = std::move(metadata_log);
  return out;
}

}  // namespace

nlohmann::json TableMetadataToJson(const TableMetadata& m) { return nlohmann::json(ToOrdered(m)); }

std::string internal::WriteTableMetadataReference(const TableMetadata& m) {
  return ToOrdered(m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::string> NormalizeMetadataJson(std::string_view json_text) {
  FLOE_ASSIGN_OR_RETURN(TableMetadata m, ParseTableMetadata(json_text));
  return WriteTableMetadata(m);
}

}  // namespace floe
