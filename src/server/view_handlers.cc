#include "server/view_handlers.h"

#include "catalog/rest/rest_protocol.h"
#include "catalog/rest/view_protocol.h"

namespace floe::catalog_routes {
namespace {

using nlohmann::json;

RestReply Json(int status, const json& body) {
  return RestReply{status, body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}
RestReply BadRequest(std::string_view message) { return ErrorReply(400, "BadRequestException", message); }
// A view the rules refuse (a duplicate dialect, an unknown schema, ...): Iceberg's clients raise
// this type as IllegalArgumentException, as their own catalogs do.
RestReply IllegalArgument(std::string_view message) { return ErrorReply(400, "IllegalArgumentException", message); }

std::optional<RestReply> Denied(const RestRequest& request, const Namespace& ns, bool write) {
  if (!request.principal) return std::nullopt;
  if (write ? request.principal->CanWrite(ns) : request.principal->CanRead(ns)) return std::nullopt;
  return ErrorReply(403, "ForbiddenException", "principal " + request.principal->name + " may not " +
                                                   (write ? "write" : "read") + " namespace " + NamespaceToString(ns));
}

// A policy refusal (a confined location, a limit) as a 400 naming it; nullopt when Ok.
std::optional<RestReply> Refusal(const Status& status) {
  if (status) return std::nullopt;
  if (status.error().kind == ErrorKind::kInvalidArgument) return BadRequest(status.error().message);
  return ReplyFor(status.error(), ErrorSubject::kView);
}

#define FLOE_VIEW_CHECK(expr)                 \
  do {                                        \
    if (auto denied = (expr)) return *denied; \
  } while (0)

std::string DefaultViewLocation(Catalog& catalog, const TableIdentifier& id) {
  std::string location = catalog.warehouse_location();
  for (const auto& part : id.ns) location += "/" + part;
  return location + "/" + id.name;
}

// What a view commit may set: bounded properties, a location inside the view's namespace.
Status CheckViewCommit(Catalog& catalog, const ViewCommit& commit, const RequestPolicy& policy) {
  if (commit.updates.size() > policy.limits.max_updates) {
    return InvalidArgument("a view commit of " + std::to_string(commit.updates.size()) + " updates; the limit is " +
                           std::to_string(policy.limits.max_updates));
  }
  for (const auto& update : commit.updates) {
    if (const auto* props = std::get_if<SetProperties>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckPropertyLimits(props->updates, policy.limits));
    }
    if (const auto* location = std::get_if<SetLocation>(&update); location && policy.confinement) {
      FLOE_RETURN_IF_ERROR(policy.confinement->CheckCreateTable(catalog, commit.id, location->location, {}));
    }
  }
  return Ok();
}

}  // namespace

RestReply ListViews(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  FLOE_VIEW_CHECK(Denied(request, request.route.ns, false));
  auto views = catalog.ListViews(request.route.ns);
  if (!views) return ReplyFor(views.error(), ErrorSubject::kNamespace);
  json ids = json::array();
  for (const auto& id : *views) ids.push_back(TableIdentifierJson(id));
  return Json(200, json{{"identifiers", ids}});
}

RestReply CreateView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto parsed = CreateViewFromJson(*body);
  if (!parsed) return BadRequest(parsed.error().message);
  TableIdentifier id{request.route.ns, parsed->name};
  if (auto valid = ValidateIdentifier(id); !valid) return BadRequest(valid.error().message);
  FLOE_VIEW_CHECK(Denied(request, id.ns, true));
  FLOE_VIEW_CHECK(Refusal(CheckPropertyLimits(parsed->request.properties, policy.limits)));
  if (policy.confinement) {
    const std::string location = parsed->request.location.value_or(DefaultViewLocation(catalog, id));
    FLOE_VIEW_CHECK(Refusal(policy.confinement->CheckCreateTable(catalog, id, location, {})));
  }
  auto created = catalog.CreateView(id, parsed->request);
  if (!created) {
    if (created.error().kind == ErrorKind::kInvalidArgument) return IllegalArgument(created.error().message);
    return ReplyFor(created.error(), ErrorSubject::kView);
  }
  return Json(200, LoadViewResultJson(*created));
}

RestReply LoadView(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  TableIdentifier id{request.route.ns, request.route.table};
  FLOE_VIEW_CHECK(Denied(request, id.ns, false));
  if (request.method == "HEAD") {
    auto exists = catalog.ViewExists(id);
    if (!exists) return ReplyFor(exists.error(), ErrorSubject::kView);
    if (!*exists) return ReplyFor(ViewNotFound(id.ToString()).error(), ErrorSubject::kView);
    return RestReply{204, "", {}};
  }
  auto loaded = catalog.LoadView(id);
  if (!loaded) return ReplyFor(loaded.error(), ErrorSubject::kView);
  return Json(200, LoadViewResultJson(*loaded));
}

RestReply ReplaceView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  TableIdentifier id{request.route.ns, request.route.table};
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto commit = CommitViewFromJson(*body, id);
  if (!commit) return BadRequest(commit.error().message);
  FLOE_VIEW_CHECK(Denied(request, id.ns, true));
  FLOE_VIEW_CHECK(Refusal(CheckViewCommit(catalog, *commit, policy)));
  auto committed = catalog.CommitView(*commit);
  if (!committed) {
    if (committed.error().kind == ErrorKind::kInvalidArgument) return IllegalArgument(committed.error().message);
    return ReplyFor(committed.error(), ErrorSubject::kView);
  }
  return Json(200, LoadViewResultJson(*committed));
}

RestReply DropView(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  TableIdentifier id{request.route.ns, request.route.table};
  FLOE_VIEW_CHECK(Denied(request, id.ns, true));
  auto dropped = catalog.DropView(id);
  if (!dropped) return ReplyFor(dropped.error(), ErrorSubject::kView);
  return RestReply{204, "", {}};
}

RestReply RenameView(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto from = TableIdentifierFromJson(body->value("source", json()), "source");
  if (!from) return BadRequest(from.error().message);
  auto to = TableIdentifierFromJson(body->value("destination", json()), "destination");
  if (!to) return BadRequest(to.error().message);
  FLOE_VIEW_CHECK(Denied(request, from->ns, true));
  FLOE_VIEW_CHECK(Denied(request, to->ns, true));
  auto renamed = catalog.RenameView(*from, *to);
  if (!renamed) return ReplyFor(renamed.error(), ErrorSubject::kView);
  return RestReply{204, "", {}};
}

RestReply RegisterView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  if (!body->contains("name") || !(*body)["name"].is_string()) return BadRequest("name must be a string");
  if (!body->contains("metadata-location") || !(*body)["metadata-location"].is_string()) {
    return BadRequest("metadata-location must be a string");
  }
  TableIdentifier id{request.route.ns, (*body)["name"].get<std::string>()};
  if (auto valid = ValidateIdentifier(id); !valid) return BadRequest(valid.error().message);
  FLOE_VIEW_CHECK(Denied(request, id.ns, true));
  const std::string location = (*body)["metadata-location"].get<std::string>();
  if (policy.confinement) {
    FLOE_VIEW_CHECK(Refusal(policy.confinement->CheckCreateTable(catalog, id, location, {})));
  }
  auto registered = catalog.RegisterView(id, location);
  if (!registered) {
    const Error& e = registered.error();
    if (IsNamespaceNotFound(e) || e.kind == ErrorKind::kAlreadyExists || e.kind == ErrorKind::kUnavailable) {
      return ReplyFor(e, ErrorSubject::kView);
    }
    // The parser's own field-level finding is passed on; any other reader message may quote
    // the document's bytes, so it is not.
    std::string why = "metadata-location is not a readable view metadata document";
    if (e.kind == ErrorKind::kCorrupt) {
      size_t at = e.message.find("view metadata: ");
      if (at != std::string::npos && e.message.find("parse", at) == std::string::npos) why += " (" + e.message.substr(at) + ")";
    }
    return BadRequest("cannot register view " + id.ToString() + ": " + why);
  }
  return Json(200, LoadViewResultJson(*registered));
}

}  // namespace floe::catalog_routes
