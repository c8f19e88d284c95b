// Reading and writing view metadata documents (Iceberg view spec, "View Metadata").
#include "meta/view_json.h"

#include "meta/json_fields.h"
#include "meta/json_internal.h"
#include "meta/metadata_json.h"
#include "util/strict_json.h"

namespace floe {

using internal::Ordered;
using json_fields::Json;
namespace jf = json_fields;

namespace {

constexpr int kMaxViewJsonDepth = 512;

template <typename T, typename F>
Result<std::vector<T>> ParseViewList(const Json& j, std::string_view key, F parse) {
  FLOE_ASSIGN_OR_RETURN(const Json* list, jf::Require(j, key));
  if (!list->is_array()) return InvalidArgument("field '" + std::string(key) + "' must be an array");
  std::vector<T> out;
  for (const Json& item : *list) {
    auto v = parse(item);
    if (!v) return std::unexpected(v.error().WithContext(std::string(key) + "[" + std::to_string(out.size()) + "]"));
    out.push_back(std::move(*v));
  }
  return out;
}

Result<ViewRepresentation> RepresentationFromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("a representation must be an object, got " + jf::Snippet(j));
  ViewRepresentation r;
  FLOE_ASSIGN_OR_RETURN(r.type, jf::GetString(j, "type"));
  if (r.type != "sql") {
    r.unknown_json = j.dump();
    return r;
  }
  FLOE_ASSIGN_OR_RETURN(r.sql, jf::GetString(j, "sql"));
  FLOE_ASSIGN_OR_RETURN(r.dialect, jf::GetString(j, "dialect"));
  return r;
}

Ordered RepresentationToOrdered(const ViewRepresentation& r) {
  if (r.type != "sql") return Ordered::parse(r.unknown_json, nullptr, false);
  Ordered out;
  out["type"] = r.type;
  out["sql"] = r.sql;
  out["dialect"] = r.dialect;
  return out;
}

Result<ViewHistoryEntry> HistoryEntryFromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("a version-log entry must be an object, got " + jf::Snippet(j));
  ViewHistoryEntry e;
  FLOE_ASSIGN_OR_RETURN(e.timestamp_ms, jf::GetLong(j, "timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(e.version_id, jf::GetInt(j, "version-id"));
  return e;
}

Ordered VersionToOrdered(const ViewVersion& v) {
  Ordered out;
  out["version-id"] = v.version_id;
  out["timestamp-ms"] = v.timestamp_ms;
  out["schema-id"] = v.schema_id;
  Ordered summary = Ordered::object();
  for (const auto& [k, value] : v.summary) internal::AppendUnique(summary, k, value);
  out["summary"] = std::move(summary);
  if (v.default_catalog) out["default-catalog"] = *v.default_catalog;
  out["default-namespace"] = v.default_namespace;
  Ordered representations = Ordered::array();
  for (const auto& r : v.representations) representations.push_back(RepresentationToOrdered(r));
  out["representations"] = std::move(representations);
  return out;
}

Ordered ViewToOrdered(const ViewMetadata& m) {
  Ordered out;
  out["view-uuid"] = m.view_uuid;
  out["format-version"] = m.format_version;
  out["location"] = m.location;
  if (!m.properties.empty()) {
    Ordered properties = Ordered::object();
    for (const auto& [k, v] : m.properties) internal::AppendUnique(properties, k, v);
    out["properties"] = std::move(properties);
  }
  Ordered schemas = Ordered::array();
  for (const auto& s : m.schemas) schemas.push_back(internal::SchemaToOrdered(s));
  out["schemas"] = std::move(schemas);
  out["current-version-id"] = m.current_version_id;
  Ordered versions = Ordered::array();
  for (const auto& v : m.versions) versions.push_back(VersionToOrdered(v));
  out["versions"] = std::move(versions);
  Ordered log = Ordered::array();
  for (const auto& e : m.version_log) {
    Ordered entry;
    entry["timestamp-ms"] = e.timestamp_ms;
    entry["version-id"] = e.version_id;
    log.push_back(std::move(entry));
  }
  out["version-log"] = std::move(log);
  return out;
}

Result<ViewMetadata> ViewFromJsonUnchecked(const Json& j) {
  if (!j.is_object()) return InvalidArgument("the document must be a JSON object");
  if (jf::Find(j, "table-uuid") || jf::Find(j, "current-snapshot-id") || jf::Find(j, "partition-specs"))
    return InvalidArgument("not a view metadata document: this is a table (it has table fields)");
  ViewMetadata m;
  FLOE_ASSIGN_OR_RETURN(m.format_version, jf::GetInt(j, "format-version"));
  if (m.format_version != kViewFormatVersion)
    return NotSupported("unsupported view format-version " + std::to_string(m.format_version) +
                        " (floe reads view format 1)");
  FLOE_ASSIGN_OR_RETURN(m.view_uuid, jf::GetString(j, "view-uuid"));
  FLOE_ASSIGN_OR_RETURN(m.location, jf::GetString(j, "location"));
  if (const Json* properties = jf::Find(j, "properties")) {
    FLOE_ASSIGN_OR_RETURN(m.properties, jf::ToStringMap(*properties, "properties"));
  }
  FLOE_ASSIGN_OR_RETURN(m.schemas, ParseViewList<Schema>(j, "schemas", SchemaFromJson));
  FLOE_ASSIGN_OR_RETURN(m.current_version_id, jf::GetInt(j, "current-version-id"));
  FLOE_ASSIGN_OR_RETURN(m.versions, ParseViewList<ViewVersion>(j, "versions", ViewVersionFromJson));
  FLOE_ASSIGN_OR_RETURN(m.version_log, ParseViewList<ViewHistoryEntry>(j, "version-log", HistoryEntryFromJson));
  return m;
}

}  // namespace

Result<ViewVersion> ViewVersionFromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("a view version must be an object, got " + jf::Snippet(j));
  ViewVersion v;
  FLOE_ASSIGN_OR_RETURN(v.version_id, jf::GetInt(j, "version-id"));
  FLOE_ASSIGN_OR_RETURN(v.timestamp_ms, jf::GetLong(j, "timestamp-ms"));
  FLOE_ASSIGN_OR_RETURN(v.schema_id, jf::GetInt(j, "schema-id"));
  FLOE_ASSIGN_OR_RETURN(const Json* summary, jf::Require(j, "summary"));
  FLOE_ASSIGN_OR_RETURN(v.summary, jf::ToStringMap(*summary, "summary"));
  FLOE_ASSIGN_OR_RETURN(v.representations,
                        ParseViewList<ViewRepresentation>(j, "representations", RepresentationFromJson));
  FLOE_ASSIGN_OR_RETURN(v.default_catalog, jf::GetOptionalString(j, "default-catalog"));
  FLOE_ASSIGN_OR_RETURN(const Json* ns, jf::Require(j, "default-namespace"));
  FLOE_ASSIGN_OR_RETURN(v.default_namespace, jf::ToStringList(*ns, "default-namespace"));
  return v;
}

nlohmann::json ViewVersionToJson(const ViewVersion& v) { return nlohmann::json(VersionToOrdered(v)); }

Result<ViewMetadata> ViewMetadataFromJson(const Json& j) {
  auto m = ViewFromJsonUnchecked(j);
  if (!m) {
    if (m.error().kind == ErrorKind::kNotSupported) return std::unexpected(m.error().WithContext("view metadata"));
    return Corrupt("view metadata: " + m.error().message);
  }
  FLOE_RETURN_IF_ERROR(m->Validate());
  return m;
}

Result<ViewMetadata> ParseViewMetadata(std::string_view json_text) {
  JsonLimits limits;
  limits.max_depth = kMaxViewJsonDepth;
  limits.allow_duplicate_keys = true;  // as other readers take them: the last one wins
  auto j = ParseStrictJson(json_text, "view metadata", limits);
  if (!j) return Corrupt(j.error().message);
  return ViewMetadataFromJson(*j);
}

nlohmann::json ViewMetadataToJson(const ViewMetadata& m) { return nlohmann::json(ViewToOrdered(m)); }

std::string WriteViewMetadata(const ViewMetadata& m) {
  // Invalid UTF-8 (a SQL text from a file) is written with replacement characters, not thrown.
  return ViewToOrdered(m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace floe
