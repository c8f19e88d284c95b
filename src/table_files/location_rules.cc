#include "table_files/location_rules.h"

namespace floe {

std::string QuotedLocation(std::string_view text) {
  std::string shown(text.substr(0, 300));
  return "'" + shown + (text.size() > 300 ? "...'" : "'");
}

Result<NormalLocation> NormalizeField(std::string_view field, std::string_view location) {
  auto normal = NormalizeLocation(location);
  if (!normal) return InvalidArgument(std::string(field) + " " + QuotedLocation(location) + ": " + normal.error().message);
  return normal;
}

const std::vector<std::string>& LocationProperties() {
  static const std::vector<std::string> kKeys = {"write.data.path", "write.metadata.path", "write.object-storage.path",
                                                 "write.folder-storage.path"};
  return kKeys;
}

Result<LocationRules> LocationRules::Create(const std::string& warehouse, const std::vector<std::string>& allowed) {
  LocationRules out;
  FLOE_ASSIGN_OR_RETURN(out.warehouse_, NormalizeField("warehouse", warehouse));
  for (const auto& prefix : allowed) {
    FLOE_ASSIGN_OR_RETURN(auto normal, NormalizeField("--allow-location", prefix));
    if (normal.segments.empty()) return InvalidArgument("--allow-location '/' would allow everything");
    out.allowed_.push_back(std::move(normal));
  }
  return out;
}

NormalLocation LocationRules::NamespaceDefault(const std::vector<std::string>& levels) const {
  NormalLocation out = warehouse_;
  for (const auto& level : levels) out.segments.push_back(level);
  return out;
}

Status LocationRules::CheckWithin(std::string_view field, std::string_view location,
                                  const std::vector<NormalLocation>& scopes, std::string_view scope_name) const {
  FLOE_ASSIGN_OR_RETURN(NormalLocation normal, NormalizeField(field, location));
  for (const auto& scope : scopes) {
    if (normal.IsWithin(scope)) return Ok();
  }
  for (const auto& prefix : allowed_) {
    if (normal.IsWithin(prefix)) return Ok();
  }
  std::string where = scopes.empty() ? std::string(scope_name) : std::string(scope_name) + " " + scopes[0].ToString();
  return InvalidArgument(std::string(field) + " " + QuotedLocation(location) + " (" + normal.ToString() +
                         ") lies outside " + where + " and under no --allow-location prefix of this server");
}

Status LocationRules::CheckTablePaths(const std::map<std::string, std::string>& properties,
                                      const NormalLocation& table, std::string_view table_text) const {
  for (const auto& key : LocationProperties()) {
    auto it = properties.find(key);
    if (it == properties.end()) continue;
    FLOE_RETURN_IF_ERROR(CheckWithin("property " + key, it->second, {table},
                                     "the table's location " + std::string(table_text)));
  }
  return Ok();
}

Status LocationRules::CheckUpdatePaths(const std::vector<TableUpdate>& updates, const std::string& table_location) const {
  FLOE_ASSIGN_OR_RETURN(NormalLocation table, NormalizeField("table location", table_location));
  const std::vector<NormalLocation> scope{table};
  const std::string name = "the table's location " + table_location;
  for (const auto& update : updates) {
    if (const auto* add = std::get_if<AddSnapshot>(&update)) {
      const Snapshot& s = add->snapshot;
      if (!s.manifest_list.empty()) FLOE_RETURN_IF_ERROR(CheckWithin("manifest-list", s.manifest_list, scope, name));
      for (const auto& m : s.v1_manifests) FLOE_RETURN_IF_ERROR(CheckWithin("manifests", m, scope, name));
    } else if (const auto* stats = std::get_if<SetStatistics>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckWithin("statistics-path", stats->statistics.statistics_path, scope, name));
    } else if (const auto* pstats = std::get_if<SetPartitionStatistics>(&update)) {
      FLOE_RETURN_IF_ERROR(
          CheckWithin("partition-statistics statistics-path", pstats->partition_statistics.statistics_path, scope, name));
    } else if (const auto* props = std::get_if<SetProperties>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckTablePaths(props->updates, table, table_location));
    }
  }
  return Ok();
}

}  // namespace floe
