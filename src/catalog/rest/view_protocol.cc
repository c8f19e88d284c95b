#include "catalog/rest/view_protocol.h"

#include "catalog/rest/rest_protocol.h"
#include "meta/metadata_json.h"
#include "meta/view_json.h"

namespace floe {

using nlohmann::json;

json CreateViewJson(const std::string& name, const CreateViewRequest& request) {
  json out{{"name", name}, {"schema", SchemaToJson(request.schema)}, {"view-version", ViewVersionToJson(request.version)},
           {"properties", request.properties}};
  if (request.location) out["location"] = *request.location;
  return out;
}

Result<RestCreateView> CreateViewFromJson(const json& j) {
  if (!j.is_object()) return InvalidArgument("create view request must be a JSON object");
  RestCreateView out;
  if (!j.contains("name") || !j["name"].is_string()) return InvalidArgument("create view request: name must be a string");
  out.name = j["name"].get<std::string>();
  if (j.contains("location") && !j["location"].is_null()) {
    if (!j["location"].is_string()) return InvalidArgument("create view request: location must be a string");
    out.request.location = j["location"].get<std::string>();
  }
  if (!j.contains("schema") || !j["schema"].is_object()) {
    return InvalidArgument("create view request: schema must be an object");
  }
  auto schema = SchemaFromJson(j["schema"]);
  if (!schema) return InvalidArgument("create view request: schema: " + schema.error().message);
  out.request.schema = std::move(*schema);
  if (!j.contains("view-version") || !j["view-version"].is_object()) {
    return InvalidArgument("create view request: view-version must be an object");
  }
  auto version = ViewVersionFromJson(j["view-version"]);
  if (!version) return InvalidArgument("create view request: view-version: " + version.error().message);
  out.request.version = std::move(*version);
  if (j.contains("properties") && !j["properties"].is_null()) {
    auto props = StringMapFromJson(j["properties"], "properties");
    if (!props) return std::unexpected(props.error());
    out.request.properties = std::move(*props);
  }
  return out;
}

json LoadViewResultJson(const LoadedView& view) {
  return json{{"metadata-location", view.metadata_location}, {"metadata", ViewMetadataToJson(view.metadata)},
              {"config", json::object()}};
}

Result<LoadedView> LoadViewResultFromJson(const json& j, const TableIdentifier& id) {
  if (!j.is_object()) return Corrupt("load view result must be a JSON object");
  if (!j.contains("metadata-location") || !j["metadata-location"].is_string()) {
    return Corrupt("load view result: metadata-location must be a string");
  }
  if (!j.contains("metadata")) return Corrupt("load view result: missing metadata");
  FLOE_ASSIGN_OR_RETURN(ViewMetadata metadata, ViewMetadataFromJson(j["metadata"]));
  return LoadedView{id, j["metadata-location"].get<std::string>(), std::move(metadata)};
}

json CommitViewJson(const ViewCommit& commit) {
  json requirements = json::array(), updates = json::array();
  for (const auto& r : commit.requirements) requirements.push_back(ViewRequirementToJson(r));
  for (const auto& u : commit.updates) updates.push_back(ViewUpdateToJson(u));
  return json{{"identifier", TableIdentifierJson(commit.id)}, {"requirements", requirements}, {"updates", updates}};
}

Result<ViewCommit> CommitViewFromJson(const json& j, const TableIdentifier& id) {
  if (!j.is_object()) return InvalidArgument("commit view request must be a JSON object");
  ViewCommit out{id, {}, {}};
  if (j.contains("identifier") && !j["identifier"].is_null()) {
    FLOE_ASSIGN_OR_RETURN(TableIdentifier named, TableIdentifierFromJson(j["identifier"], "identifier"));
    if (!(named == id)) {
      return InvalidArgument("commit view request: identifier " + named.ToString() + " does not match the route's view " +
                             id.ToString());
    }
  }
  if (j.contains("requirements") && !j["requirements"].is_null()) {
    if (!j["requirements"].is_array()) return InvalidArgument("commit view request: requirements must be an array");
    for (const auto& r : j["requirements"]) {
      auto parsed = ViewRequirementFromJson(r);
      if (!parsed) return InvalidArgument("commit view request: requirements: " + parsed.error().message);
      out.requirements.push_back(std::move(*parsed));
    }
  }
  if (!j.contains("updates") || !j["updates"].is_array()) {
    return InvalidArgument("commit view request: updates must be an array");
  }
  for (const auto& u : j["updates"]) {
    auto parsed = ViewUpdateFromJson(u);
    if (!parsed) return InvalidArgument("commit view request: updates: " + parsed.error().message);
    out.updates.push_back(std::move(*parsed));
  }
  return out;
}

}  // namespace floe
