// The REST client's views: the spec's view routes, answered by `floe serve` or any REST catalog.
// A view commit is sent once: a 409 is CommitConflict (reload and decide again), a lost answer
// CommitStateUnknown (never resent blindly: the replace may have landed).
#include "catalog/rest/rest_catalog.h"
#include "catalog/rest/rest_protocol.h"
#include "catalog/rest/view_protocol.h"

namespace floe {

using nlohmann::json;

std::string RestCatalog::ViewPath(const TableIdentifier& id) const {
  return NamespacePath(id.ns) + "/views/" + PercentEncode(id.name);
}

Result<LoadedView> RestCatalog::CreateView(const TableIdentifier& id, const CreateViewRequest& request) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  json body = CreateViewJson(id.name, request);
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", NamespacePath(id.ns) + "/views", body.dump(), Kind::kWrite));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "creating view " + id.ToString()));
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "view"));
  return LoadViewResultFromJson(j, id);
}

Result<LoadedView> RestCatalog::LoadView(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("GET", ViewPath(id), "", Kind::kRead));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kRead, "loading view " + id.ToString()));
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "view"));
  return LoadViewResultFromJson(j, id);
}

Result<bool> RestCatalog::ViewExists(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("HEAD", ViewPath(id), "", Kind::kRead));
  if (r.status == 204 || r.status == 200) return true;
  if (r.status == 404) return false;
  return std::unexpected(ErrorFor(r, Kind::kRead, "checking view " + id.ToString()));
}

Result<std::vector<TableIdentifier>> RestCatalog::ListViews(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  std::vector<TableIdentifier> out;
  std::string page;
  for (int pages = 0; pages < 100000; ++pages) {
    std::string path = NamespacePath(ns) + "/views" + (page.empty() ? "" : "?pageToken=" + PercentEncode(page));
    FLOE_ASSIGN_OR_RETURN(Reply r, Send("GET", path, "", Kind::kRead));
    if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kRead, "listing views of " + NamespaceToString(ns)));
    FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "view listing"));
    if (!j.contains("identifiers") || !j["identifiers"].is_array()) return Corrupt("view listing has no identifiers");
    for (const auto& item : j["identifiers"]) {
      auto id = TableIdentifierFromJson(item, "identifiers[]");
      if (!id) return Corrupt("view listing: " + id.error().message);
      out.push_back(std::move(*id));
    }
    if (!j.contains("next-page-token") || !j["next-page-token"].is_string()) break;
    page = j["next-page-token"].get<std::string>();
  }
  return out;
}

Status RestCatalog::DropView(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("DELETE", ViewPath(id), "", Kind::kWrite));
  if (r.status != 204 && r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "dropping view " + id.ToString()));
  return Ok();
}

Status RestCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(from));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(to));
  json body{{"source", TableIdentifierJson(from)}, {"destination", TableIdentifierJson(to)}};
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", prefix_ + "/views/rename", body.dump(), Kind::kWrite));
  if (r.status != 204 && r.status != 200) {
    return std::unexpected(ErrorFor(r, Kind::kWrite, "renaming view " + from.ToString() + " to " + to.ToString()));
  }
  return Ok();
}

Result<LoadedView> RestCatalog::RegisterView(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  json body{{"name", id.name}, {"metadata-location", metadata_location}};
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", NamespacePath(id.ns) + "/register-view", body.dump(), Kind::kWrite));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "registering view " + id.ToString()));
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "view"));
  return LoadViewResultFromJson(j, id);
}

Result<LoadedView> RestCatalog::CommitView(const ViewCommit& commit) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(commit.id));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", ViewPath(commit.id), CommitViewJson(commit).dump(), Kind::kCommit));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kCommit, "commit to view " + commit.id.ToString()));
  auto j = ParseBody(r, "view commit answer");
  if (!j) return CommitStateUnknown("commit to view " + commit.id.ToString() + " answered 200 with a bad body");
  auto loaded = LoadViewResultFromJson(*j, commit.id);
  if (!loaded) return CommitStateUnknown("commit to view " + commit.id.ToString() + ": " + loaded.error().message);
  return loaded;
}

}  // namespace floe
