// JSON forms of snapshots, refs and statistics files (Iceberg table spec, "Snapshots",
// "Snapshot References", "Table Statistics").
#include <cctype>

#include "meta/json_fields.h"
#include "meta/json_internal.h"
#include "meta/metadata_json.h"

namespace floe {

using internal::Ordered;
using json_fields::Json;
namespace jf = json_fields;

namespace internal {

Ordered SnapshotToOrdered(const Snapshot& s) {
  Ordered out;
  out["snapshot-id"] = s.snapshot_id;
  if (s.parent_snapshot_id) out["parent-snapshot-id"] = *s.parent_snapshot_id;
  out["sequence-number"] = s.sequence_number;
  out["timestamp-ms"] = s.timestamp_ms;
  Ordered summary = Ordered::object();
  // "operation" first, as other engines write it; the rest in key order.
  if (auto it = s.summary.find("operation"); it != s.summary.end()) AppendUnique(summary, "operation", it->second);
  for (const auto& [k, v] : s.summary)
    if (k != "operation") AppendUnique(summary, k, v);
  out["summary"] = std::move(summary);
  if (!s.manifest_list.empty()) {
    out["manifest-list"] = s.manifest_list;
  } else {
    out["manifests"] = s.v1_manifests;
  }
  if (s.schema_id) out["schema-id"] = *s.schema_id;
  if (s.first_row_id) out["first-row-id"] = *s.first_row_id;
  if (s.added_rows) out["added-rows"] = *s.added_rows;
  return out;
}

Ordered SnapshotRefToOrdered(const SnapshotRef& r) {
  Ordered out;
  out["snapshot-id"] = r.snapshot_id;
  out["type"] = r.type == RefType::kBranch ? "branch" : "tag";
  if (r.min_snapshots_to_keep) out["min-snapshots-to-keep"] = *r.min_snapshots_to_keep;
  if (r.max_snapshot_age_ms) out["max-snapshot-age-ms"] = *r.max_snapshot_age_ms;
  if (r.max_ref_age_ms) out["max-ref-age-ms"] = *r.max_ref_age_ms;
  return out;
}

Ordered StatisticsFileToOrdered(const StatisticsFile& f) {
  Ordered out;
  out["snapshot-id"] = f.snapshot_id;
  out["statistics-path"] = f.statistics_path;
  out["file-size-in-bytes"] = f.file_size_in_bytes;
  out["file-footer-size-in-bytes"] = f.file_footer_size_in_bytes;
  if (f.key_metadata) out["key-metadata"] = *f.key_metadata;
  out["blob-metadata"] = Ordered(f.blob_metadata.is_null() ? nlohmann::json::array() : f.blob_metadata);
  return out;
}

Ordered PartitionStatisticsFileToOrdered(const PartitionStatisticsFile& f) {
  Ordered out;
  out["snapshot-id"] = f.snapshot_id;
  out["statistics-path"] = f.statistics_path;
  out["file-size-in-bytes"] = f.file_size_in_bytes;
  return out;
}

Result<StatisticsFile> StatisticsFileFromJson(const nlohmann::json& j) {
  StatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, jf::GetLong(j, "snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(f.statistics_path, jf::GetString(j, "statistics-path"));
  FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, jf::GetLong(j, "file-size-in-bytes"));
  FLOE_ASSIGN_OR_RETURN(f.file_footer_size_in_bytes, jf::GetLong(j, "file-footer-size-in-bytes"));
  FLOE_ASSIGN_OR_RETURN(f.key_metadata, jf::GetOptionalString(j, "key-metadata"));
  FLOE_ASSIGN_OR_RETURN(const Json* blobs, jf::GetArray(j, "blob-metadata"));
  f.blob_metadata = blobs ? *blobs : nlohmann::json::array();
  return f;
}

Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const nlohmann::json& j) {
  PartitionStatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, jf::GetLong(j, "snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(f.statistics_path, jf::GetString(j, "statistics-path"));
  FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, jf::GetLong(j, "file-size-in-bytes"));
  return f;
}

}  // namespace internal

nlohmann::json SnapshotToJson(const Snapshot& s) { return nlohmann::json(internal::SnapshotToOrdered(s)); }

Result<Snapshot> SnapshotFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return InvalidArgument("snapshot must be a JSON object, got " + jf::Snippet(j));
  Snapshot s;
  FLOE_ASSIGN_OR_RETURN(s.snapshot_id, jf::GetLong(j, "snapshot-id"));
  auto rest = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(s.parent_snapshot_id, jf::GetOptionalLong(j, "parent-snapshot-id"));
    FLOE_ASSIGN_OR_RETURN(auto seq, jf::GetOptionalLong(j, "sequence-number"));
    s.sequence_number = seq.value_or(0);  // v1 snapshots have none
    FLOE_ASSIGN_OR_RETURN(s.timestamp_ms, jf::GetLong(j, "timestamp-ms"));
    if (const Json* summary = jf::Find(j, "summary")) {
      FLOE_ASSIGN_OR_RETURN(s.summary, jf::ToStringMap(*summary, "summary"));
    }
    if (const Json* list = jf::Find(j, "manifest-list")) {
      FLOE_ASSIGN_OR_RETURN(s.manifest_list, jf::ToString(*list, "manifest-list"));
    } else if (const Json* manifests = jf::Find(j, "manifests")) {
      FLOE_ASSIGN_OR_RETURN(s.v1_manifests, jf::ToStringList(*manifests, "manifests"));
    } else {
      return InvalidArgument("missing required field 'manifest-list' (or v1 'manifests')");
    }
    FLOE_ASSIGN_OR_RETURN(s.schema_id, jf::GetOptionalInt(j, "schema-id"));
    FLOE_ASSIGN_OR_RETURN(s.first_row_id, jf::GetOptionalLong(j, "first-row-id"));
    FLOE_ASSIGN_OR_RETURN(s.added_rows, jf::GetOptionalLong(j, "added-rows"));
    return Ok();
  };
  if (auto st = rest(); !st) return std::unexpected(st.error().WithContext("snapshot " + std::to_string(s.snapshot_id)));
  return s;
}

nlohmann::json SnapshotRefToJson(const SnapshotRef& r) { return nlohmann::json(internal::SnapshotRefToOrdered(r)); }

Result<SnapshotRef> SnapshotRefFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return InvalidArgument("snapshot ref must be a JSON object, got " + jf::Snippet(j));
  SnapshotRef r;
  FLOE_ASSIGN_OR_RETURN(r.snapshot_id, jf::GetLong(j, "snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(std::string type, jf::GetString(j, "type"));
  for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (type == "branch") {
    r.type = RefType::kBranch;
  } else if (type == "tag") {
    r.type = RefType::kTag;
  } else {
    return InvalidArgument("unknown snapshot ref type '" + type + "' (branch or tag)");
  }
  FLOE_ASSIGN_OR_RETURN(r.min_snapshots_to_keep, jf::GetOptionalInt(j, "min-snapshots-to-keep"));
  FLOE_ASSIGN_OR_RETURN(r.max_snapshot_age_ms, jf::GetOptionalLong(j, "max-snapshot-age-ms"));
  FLOE_ASSIGN_OR_RETURN(r.max_ref_age_ms, jf::GetOptionalLong(j, "max-ref-age-ms"));
  if (r.type == RefType::kTag && (r.min_snapshots_to_keep || r.max_snapshot_age_ms))
    return InvalidArgument("a tag cannot have min-snapshots-to-keep or max-snapshot-age-ms (branches only)");
  return r;
}

}  // namespace floe
