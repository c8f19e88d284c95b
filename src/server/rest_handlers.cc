#include "server/rest_handlers.h"

#include <cctype>
#include <set>

#include "catalog/rest/rest_protocol.h"
#include "meta/metadata_builder.h"
#include "meta/metadata_json.h"
#include "meta/table_properties.h"
#include "table_files/metadata_document.h"
#include "server/table_commit_service.h"
#include "util/clock.h"

namespace floe {
namespace {

using nlohmann::json;

RestReply Json(int status, const json& body) {
  return RestReply{status, body.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}
RestReply NoContent() { return RestReply{204, "", {}}; }
RestReply BadRequest(std::string_view message) { return ErrorReply(400, "BadRequestException", message); }

RestReply Forbidden(const RestRequest& request, std::string_view what, const Namespace& ns) {
  return ErrorReply(403, "ForbiddenException",
                    "principal " + request.principal->name + " may not " + std::string(what) + " namespace " +
                        NamespaceToString(ns));
}

// nullopt when allowed; the 403 reply otherwise. No principal: authentication is off.
std::optional<RestReply> NeedRead(const RestRequest& request, const Namespace& ns) {
  if (request.principal && !request.principal->CanRead(ns)) return Forbidden(request, "read", ns);
  return std::nullopt;
}
std::optional<RestReply> NeedWrite(const RestRequest& request, const Namespace& ns) {
  if (request.principal && !request.principal->CanWrite(ns)) return Forbidden(request, "write", ns);
  return std::nullopt;
}

std::string QueryParam(const RestRequest& request, const std::string& name) {
  auto it = request.query.find(name);
  return it == request.query.end() ? "" : it->second;
}

#define FLOE_REST_CHECK(expr)           \
  do {                                  \
    if (auto denied = (expr)) return *denied; \
  } while (0)

// A policy refusal (a confined location, a commit limit) as a 400 naming it; nullopt when Ok.
std::optional<RestReply> Refusal(const Status& status) {
  if (status) return std::nullopt;
  if (status.error().kind == ErrorKind::kInvalidArgument) return BadRequest(status.error().message);
  return ReplyFor(status.error(), ErrorSubject::kTable);
}

// A load-table (with_config) or commit-table answer: the document's JSON comes from the
// server's answers cache when it has one (made once per document), spliced in as text.
RestReply TableAnswer(const SharedTable& table, SnapshotsMode mode, const RequestPolicy& policy, bool with_config) {
  std::shared_ptr<const std::string> metadata =
      policy.answers ? policy.answers->MetadataJson(table, mode)
                     : std::make_shared<const std::string>(MetadataAnswerJson(*table.metadata, mode));
  const std::string location = json(table.metadata_location).dump(-1, ' ', false, json::error_handler_t::replace);
  std::string body;
  body.reserve(metadata->size() + location.size() + 64);
  body += "{\"metadata-location\":";
  body += location;
  body += ",\"metadata\":";
  body += *metadata;
  if (with_config) body += ",\"config\":{}";
  body += "}";
  return RestReply{200, std::move(body), {}};
}

// A namespace's properties as a request sets them: bounded, and a location confined.
Status CheckNamespaceProperties(const Namespace& ns, const Properties& properties, const RequestPolicy& policy) {
  FLOE_RETURN_IF_ERROR(CheckPropertyLimits(properties, policy.limits));
  auto location = properties.find("location");
  if (policy.confinement && location != properties.end()) {
    return policy.confinement->CheckNamespaceLocation(ns, location->second);
  }
  return Ok();
}

// Room for one more namespace. Concurrent creates may pass the limit by a few: it bounds the
// cost of listing, it is not an exact quota.
Status CheckNamespaceCount(Catalog& catalog, const CommitLimits& limits) {
  FLOE_ASSIGN_OR_RETURN(size_t count, catalog.CountNamespaces(limits.max_namespaces));
  if (count >= limits.max_namespaces) {
    return InvalidArgument("the catalog already holds " + std::to_string(count) + " namespaces; the limit is " +
                           std::to_string(limits.max_namespaces) + " namespaces per catalog (floe serve --max-namespaces)");
  }
  return Ok();
}

// What a commit may set: within the limits, every location inside the table.
Status CheckCommit(Catalog& catalog, const TableCommit& commit, const RequestPolicy& policy) {
  FLOE_RETURN_IF_ERROR(CheckCommitLimits(commit, policy.limits));
  if (policy.confinement) return policy.confinement->CheckCommit(catalog, commit);
  return Ok();
}

// Where a table is created when the request names no location (as the SQL catalog chooses).
std::string TableLocation(Catalog& catalog, const TableIdentifier& id, const CreateTableRequest& request) {
  if (request.location) return *request.location;
  std::string location = catalog.warehouse_location();
  for (const auto& part : id.ns) location += "/" + part;
  return location + "/" + id.name;
}

}  // namespace

namespace catalog_routes {

// ---- namespaces ----

RestReply ListNamespaces(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  Namespace parent;
  std::string parent_text = QueryParam(request, "parent");
  if (!parent_text.empty()) {
    auto ns = NamespaceFromDecoded(parent_text);
    if (!ns) return BadRequest("parent: " + ns.error().message);
    parent = std::move(*ns);
    if (request.principal && !request.principal->CanSee(parent)) return Forbidden(request, "list", parent);
  }
  auto namespaces = catalog.ListNamespaces(parent);
  if (!namespaces) return ReplyFor(namespaces.error(), ErrorSubject::kNamespace);
  json out = json::array();
  for (const auto& ns : *namespaces) {
    if (!request.principal || request.principal->CanSee(ns)) out.push_back(NamespaceJson(ns));
  }
  return Json(200, json{{"namespaces", out}});
}

RestReply CreateNamespace(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  if (!body->contains("namespace")) return BadRequest("namespace is missing");
  auto ns = NamespaceFromJson((*body)["namespace"], "namespace");
  if (!ns) return BadRequest(ns.error().message);
  auto props = StringMapFromJson(body->contains("properties") ? (*body)["properties"] : json(), "properties");
  if (!props) return BadRequest(props.error().message);
  FLOE_REST_CHECK(NeedWrite(request, *ns));
  FLOE_REST_CHECK(Refusal(CheckNamespaceProperties(*ns, *props, policy)));
  FLOE_REST_CHECK(Refusal(CheckNamespaceCount(catalog, policy.limits)));
  auto created = catalog.CreateNamespace(*ns, *props);
  if (!created) return ReplyFor(created.error(), ErrorSubject::kNamespace);
  return Json(200, json{{"namespace", NamespaceJson(*ns)}, {"properties", *props}});
}

RestReply LoadNamespace(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  const Namespace& ns = request.route.ns;
  FLOE_REST_CHECK(NeedRead(request, ns));
  if (request.method == "HEAD") {
    auto exists = catalog.NamespaceExists(ns);
    if (!exists) return ReplyFor(exists.error(), ErrorSubject::kNamespace);
    if (!*exists) return ReplyFor(NamespaceNotFound(NamespaceToString(ns)).error(), ErrorSubject::kNamespace);
    return NoContent();
  }
  auto props = catalog.LoadNamespaceProperties(ns);
  if (!props) return ReplyFor(props.error(), ErrorSubject::kNamespace);
  return Json(200, json{{"namespace", NamespaceJson(ns)}, {"properties", *props}});
}

RestReply DropNamespace(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  const Namespace& ns = request.route.ns;
  FLOE_REST_CHECK(NeedWrite(request, ns));
  auto dropped = catalog.DropNamespace(ns);
  if (!dropped) {
    // The name was validated when the route was parsed: a refusal now means "not empty".
    if (dropped.error().kind == ErrorKind::kInvalidArgument) {
      return ErrorReply(409, "NamespaceNotEmptyException", dropped.error().message);
    }
    return ReplyFor(dropped.error(), ErrorSubject::kNamespace);
  }
  return NoContent();
}

RestReply UpdateNamespaceProperties(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  const Namespace& ns = request.route.ns;
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto updates = StringMapFromJson(body->contains("updates") ? (*body)["updates"] : json(), "updates");
  if (!updates) return BadRequest(updates.error().message);
  std::vector<std::string> removals;
  if (body->contains("removals") && !(*body)["removals"].is_null()) {
    const json& r = (*body)["removals"];
    if (!r.is_array()) return BadRequest("removals must be an array of strings");
    for (const auto& key : r) {
      if (!key.is_string()) return BadRequest("removals must be an array of strings");
      removals.push_back(key.get<std::string>());
    }
  }
  for (const auto& key : removals) {
    if (updates->count(key)) {
      return ErrorReply(422, "UnprocessableEntityException", "property " + key + " is both updated and removed");
    }
  }
  FLOE_REST_CHECK(NeedWrite(request, ns));
  FLOE_REST_CHECK(Refusal(CheckNamespaceProperties(ns, *updates, policy)));
  auto before = catalog.LoadNamespaceProperties(ns);
  if (!before) return ReplyFor(before.error(), ErrorSubject::kNamespace);
  auto done = catalog.UpdateNamespaceProperties(ns, *updates, removals);
  if (!done) return ReplyFor(done.error(), ErrorSubject::kNamespace);
  json updated = json::array(), removed = json::array(), missing = json::array();
  for (const auto& [k, v] : *updates) updated.push_back(k);
  for (const auto& k : removals) (before->count(k) ? removed : missing).push_back(k);
  return Json(200, json{{"updated", updated}, {"removed", removed}, {"missing", missing}});
}

// ---- tables ----

RestReply ListTables(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  FLOE_REST_CHECK(NeedRead(request, request.route.ns));
  auto tables = catalog.ListTables(request.route.ns);
  if (!tables) return ReplyFor(tables.error(), ErrorSubject::kNamespace);
  json ids = json::array();
  for (const auto& id : *tables) ids.push_back(TableIdentifierJson(id));
  return Json(200, json{{"identifiers", ids}});
}

namespace {
// stage-create: the metadata a create would write, without writing or registering anything.
// The client commits it later through the table route with assert-create.
RestReply StageCreate(Catalog& catalog, const TableIdentifier& id, const CreateTableRequest& request) {
  auto ns_exists = catalog.NamespaceExists(id.ns);
  if (!ns_exists) return ReplyFor(ns_exists.error(), ErrorSubject::kNamespace);
  if (!*ns_exists) return ReplyFor(NamespaceNotFound(NamespaceToString(id.ns)).error(), ErrorSubject::kNamespace);
  auto exists = catalog.TableExists(id);
  if (!exists) return ReplyFor(exists.error(), ErrorSubject::kTable);
  if (*exists) return ReplyFor(TableAlreadyExists(id.ToString()).error(), ErrorSubject::kTable);
  std::string location = TableLocation(catalog, id, request);
  auto updates = NewTableUpdates(request.schema, request.spec, request.sort_order, location, request.properties,
                                 request.format_version);
  if (!updates) return BadRequest(updates.error().message);
  auto metadata = ApplyCommit(nullptr, "", {AssertCreate{}}, *updates, Clock::System().NowMillis());
  if (!metadata) return BadRequest(metadata.error().message);
  json out{{"metadata", TableMetadataToJson(*metadata)}, {"config", json::object()}};
  return Json(200, out);
}

}  // namespace

RestReply CreateTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto parsed = CreateTableFromJson(*body);
  if (!parsed) return BadRequest(parsed.error().message);
  TableIdentifier id{request.route.ns, parsed->name};
  if (auto valid = ValidateIdentifier(id); !valid) return BadRequest(valid.error().message);
  FLOE_REST_CHECK(NeedWrite(request, id.ns));
  FLOE_REST_CHECK(Refusal(CheckCreateLimits(parsed->request, policy.limits)));
  if (policy.confinement) {
    const std::string location = TableLocation(catalog, id, parsed->request);
    FLOE_REST_CHECK(Refusal(policy.confinement->CheckCreateTable(catalog, id, location, parsed->request.properties)));
  }
  if (parsed->stage_create) return StageCreate(catalog, id, parsed->request);
  auto created = catalog.CreateTable(id, parsed->request);
  if (!created) return ReplyFor(created.error(), ErrorSubject::kTable);
  return Json(200, LoadTableResultJson(*created));
}

RestReply LoadTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  TableIdentifier id{request.route.ns, request.route.table};
  FLOE_REST_CHECK(NeedRead(request, id.ns));
  auto mode = ParseSnapshotsMode(QueryParam(request, "snapshots"));
  if (!mode) return BadRequest(mode.error().message);
  if (request.method == "HEAD") {
    auto exists = catalog.TableExists(id);
    if (!exists) return ReplyFor(exists.error(), ErrorSubject::kTable);
    if (!*exists) return ReplyFor(TableNotFound(id.ToString()).error(), ErrorSubject::kTable);
    return NoContent();
  }
  // Shared, not copied: the catalog reads its row (which document is current) every time, and
  // hands out its parsed copy of that document.
  auto loaded = catalog.LoadSharedTable(id);
  if (!loaded) {
    // A table the catalog knows whose document is missing is not a missing table.
    if (loaded.error().kind == ErrorKind::kNotFound) {
      if (auto known = catalog.TableExists(id); known && *known) {
        return ErrorReply(404, "NotFoundException", loaded.error().message);
      }
    }
    return ReplyFor(loaded.error(), ErrorSubject::kTable);
  }
  // The document may come from the catalog's cache of parsed documents. One deleted behind the
  // catalog's back is not served from there: the table is broken, and says so now (404, as
  // Iceberg's catalogs do) rather than at the next restart. One stat (a HEAD on S3) per load.
  auto present = catalog.io()->Exists(loaded->metadata_location);
  if (present && !*present) {
    return ErrorReply(404, "NotFoundException", "Failed to open input stream for file: " + loaded->metadata_location);
  }
  std::string etag = TableETag(*loaded, *mode);
  if (!request.if_none_match.empty() && IfNoneMatchHits(request.if_none_match, etag)) {
    return RestReply{304, "", {{"ETag", etag}}};
  }
  RestReply reply = TableAnswer(*loaded, *mode, policy, /*with_config=*/true);
  reply.headers.emplace_back("ETag", std::move(etag));
  return reply;
}

namespace {
std::string CommitOperation(const TableCommit& commit) {
  for (const auto& u : commit.updates) {
    if (auto* add = std::get_if<AddSnapshot>(&u)) {
      std::string op = add->snapshot.operation();
      return op.empty() ? "unknown" : op;
    }
  }
  return "metadata";
}

std::string CommitOutcome(const RestReply& reply) {
  if (reply.status < 300) return "landed";
  if (reply.status == 409) return "conflict";
  if (reply.status < 500) return "refused";
  return reply.body.find("CommitStateUnknownException") != std::string::npos ? "unknown" : "error";
}

}  // namespace

RestReply CommitTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  TableIdentifier id{request.route.ns, request.route.table};
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto commit = CommitTableFromJson(*body, id);
  if (!commit) return BadRequest(commit.error().message);
  FLOE_REST_CHECK(NeedWrite(request, id.ns));
  ServerCommitReport report;
  RestReply reply = [&] {
    FLOE_REST_CHECK(Refusal(CheckCommit(catalog, *commit, policy)));
    auto committed = CommitTableOnServer(catalog, *commit, policy.commit, &report);
    if (!committed) return ReplyFor(committed.error(), ErrorSubject::kTable);
    RestReply answer = TableAnswer(*committed, SnapshotsMode::kAll, policy, /*with_config=*/false);
    answer.headers.emplace_back("ETag", TableETag(*committed, SnapshotsMode::kAll));
    // A table that deletes its old documents after commits may delete this one while its key
    // lives: its answer is kept whole.
    const auto& properties = committed->metadata->properties;
    auto deletes = properties.find(props::kMetadataDeleteAfterCommit);
    const bool may_delete = deletes != properties.end() && deletes->second.size() == 4 &&
                            std::tolower(static_cast<unsigned char>(deletes->second[0])) == 't';
    if (!may_delete) answer.answer_document = committed->metadata_location;
    return answer;
  }();
  reply.commit = CommitNote{id.ToString(), CommitOperation(*commit), CommitOutcome(reply), report.attempts,
                            report.rebased, report.group_size};
  return reply;
}

RestReply DropTable(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  TableIdentifier id{request.route.ns, request.route.table};
  // Any case, as Iceberg's own server reads it (PyIceberg sends Python's "True" / "False").
  std::string purge_text = QueryParam(request, "purgeRequested");
  std::string purge_lower = purge_text;
  for (char& c : purge_lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!purge_lower.empty() && purge_lower != "true" && purge_lower != "false") {
    return BadRequest("purgeRequested must be true or false, not '" + purge_text + "'");
  }
  FLOE_REST_CHECK(NeedWrite(request, id.ns));
  auto dropped = catalog.DropTable(id, purge_lower == "true");
  if (!dropped) return ReplyFor(dropped.error(), ErrorSubject::kTable);
  return NoContent();
}

RestReply RegisterTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  if (!body->contains("name") || !(*body)["name"].is_string()) return BadRequest("name must be a string");
  if (!body->contains("metadata-location") || !(*body)["metadata-location"].is_string()) {
    return BadRequest("metadata-location must be a string");
  }
  if (body->contains("overwrite") && !(*body)["overwrite"].is_null()) {
    if (!(*body)["overwrite"].is_boolean()) return BadRequest("overwrite must be a boolean");
    if ((*body)["overwrite"].get<bool>()) {
      return ErrorReply(406, "UnsupportedOperationException", "register with overwrite=true is not supported");
    }
  }
  TableIdentifier id{request.route.ns, (*body)["name"].get<std::string>()};
  if (auto valid = ValidateIdentifier(id); !valid) return BadRequest(valid.error().message);
  FLOE_REST_CHECK(NeedWrite(request, id.ns));
  const std::string location = (*body)["metadata-location"].get<std::string>();
  if (policy.confinement) FLOE_REST_CHECK(Refusal(policy.confinement->CheckRegister(catalog, id, location)));
  auto registered = catalog.RegisterTable(id, location);
  if (!registered) {
    const Error& e = registered.error();
    if (IsNamespaceNotFound(e) || e.kind == ErrorKind::kAlreadyExists || e.kind == ErrorKind::kUnavailable ||
        e.kind == ErrorKind::kCommitStateUnknown) {
      return ReplyFor(e, ErrorSubject::kTable);
    }
    // The document is unusable; the reader's message may quote its bytes, so it is not passed on.
    return BadRequest("cannot register " + id.ToString() + ": metadata-location is not a readable table metadata document");
  }
  return Json(200, LoadTableResultJson(*registered));
}

RestReply ReportMetrics(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  TableIdentifier id{request.route.ns, request.route.table};
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  FLOE_REST_CHECK(NeedRead(request, id.ns));
  auto exists = catalog.TableExists(id);
  if (!exists) return ReplyFor(exists.error(), ErrorSubject::kTable);
  if (!*exists) return ReplyFor(TableNotFound(id.ToString()).error(), ErrorSubject::kTable);
  return NoContent();  // accepted; floe keeps no metrics store
}

RestReply RenameTable(Catalog& catalog, const RestRequest& request, const RequestPolicy&) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  auto from = TableIdentifierFromJson(body->value("source", json()), "source");
  if (!from) return BadRequest(from.error().message);
  auto to = TableIdentifierFromJson(body->value("destination", json()), "destination");
  if (!to) return BadRequest(to.error().message);
  FLOE_REST_CHECK(NeedWrite(request, from->ns));
  FLOE_REST_CHECK(NeedWrite(request, to->ns));
  auto renamed = catalog.RenameTable(*from, *to);
  if (!renamed) return ReplyFor(renamed.error(), ErrorSubject::kTable);
  return NoContent();
}

RestReply CommitTransaction(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy) {
  auto body = ParseJsonObject(request.body);
  if (!body) return BadRequest(body.error().message);
  if (!body->contains("table-changes") || !(*body)["table-changes"].is_array()) {
    return BadRequest("table-changes must be an array");
  }
  if ((*body)["table-changes"].size() > policy.limits.max_table_changes) {
    return BadRequest("too many table-changes in one transaction: " + std::to_string((*body)["table-changes"].size()) +
                      " (the limit is " + std::to_string(policy.limits.max_table_changes) + ")");
  }
  std::vector<TableCommit> commits;
  std::set<TableIdentifier> seen;
  for (const auto& change : (*body)["table-changes"]) {
    auto commit = CommitTableFromJson(change, std::nullopt);
    if (!commit) return BadRequest("table-changes: " + commit.error().message);
    if (!seen.insert(commit->id).second) return BadRequest("table-changes names " + commit->id.ToString() + " twice");
    FLOE_REST_CHECK(NeedWrite(request, commit->id.ns));
    FLOE_REST_CHECK(Refusal(CheckCommit(catalog, *commit, policy)));
    commits.push_back(std::move(*commit));
  }
  if (commits.empty()) return BadRequest("table-changes is empty");
  auto committed = catalog.CommitTransaction(commits);
  if (!committed) return ReplyFor(committed.error(), ErrorSubject::kTable);
  return NoContent();
}

}  // namespace catalog_routes

RestReply ReplayTableAnswer(Catalog& catalog, MetadataCache* documents, const std::string& location,
                            const RequestPolicy& policy) {
  auto io = catalog.io();
  auto metadata = ReadMetadataShared(*io, documents, location);
  if (!metadata) {
    return ErrorReply(500, "InternalServerError",
                      "the first answer to this Idempotency-Key was the table metadata " + location +
                          ", which can no longer be read (" + metadata.error().message +
                          "); the commit was made: load the table to see its state");
  }
  SharedTable table{TableIdentifier{}, location, std::move(*metadata)};
  RestReply answer = TableAnswer(table, SnapshotsMode::kAll, policy, /*with_config=*/false);
  answer.headers.emplace_back("ETag", TableETag(table, SnapshotsMode::kAll));
  return answer;
}

RestReply ErrorReply(int status, std::string_view type, std::string_view message) {
  return RestReply{status, ErrorModelJson(status, type, message).dump(), {}};
}

RestReply ReplyFor(const Error& error, ErrorSubject subject) {
  const std::string& m = error.message;
  switch (error.kind) {
    case ErrorKind::kInvalidArgument: return ErrorReply(400, "BadRequestException", m);
    case ErrorKind::kNotFound: {
      bool ns = subject == ErrorSubject::kNamespace || IsNamespaceNotFound(error) || m.starts_with("namespace");
      if (ns) return ErrorReply(404, "NoSuchNamespaceException", m);
      return ErrorReply(404, subject == ErrorSubject::kView ? "NoSuchViewException" : "NoSuchTableException", m);
    }
    case ErrorKind::kAlreadyExists: return ErrorReply(409, "AlreadyExistsException", m);
    case ErrorKind::kCommitConflict:
    case ErrorKind::kValidationFailed: return ErrorReply(409, "CommitFailedException", m);
    case ErrorKind::kCommitStateUnknown: return ErrorReply(500, "CommitStateUnknownException", m);
    case ErrorKind::kUnavailable: {
      RestReply reply = ErrorReply(503, "ServiceUnavailableException", m);
      reply.headers.emplace_back("Retry-After", "1");
      return reply;
    }
    case ErrorKind::kNotSupported: return ErrorReply(406, "UnsupportedOperationException", m);
    case ErrorKind::kCorrupt:
    case ErrorKind::kIOError: return ErrorReply(500, "InternalServerError", m);
  }
  return ErrorReply(500, "InternalServerError", m);
}

RestReply HandleConfig(const RestRequest& request, const ServerInfo& info) {
  std::string warehouse = QueryParam(request, "warehouse");
  if (!warehouse.empty() && warehouse != info.warehouse && warehouse != info.catalog_name) {
    return ErrorReply(404, "NoSuchWarehouseException",
                      "warehouse '" + warehouse + "' is not served here; this server serves " + info.warehouse);
  }
  json out{{"defaults", json::object()},
           {"overrides", {{"warehouse", info.warehouse}, {"prefix", info.prefix}}},
           {"endpoints", SupportedEndpoints()}};
  if (!info.idempotency_lifetime.empty()) out["idempotency-key-lifetime"] = info.idempotency_lifetime;
  return Json(200, out);
}

std::optional<RestReply> AuthorizeRoute(const RouteSpec& spec, const RestRequest& request) {
  switch (spec.access) {
    case RouteAccess::kReadNamespace: return NeedRead(request, request.route.ns);
    case RouteAccess::kWriteNamespace: return NeedWrite(request, request.route.ns);
    case RouteAccess::kPublic:
    case RouteAccess::kAuthenticated: break;
  }
  return std::nullopt;
}

}  // namespace floe
