#include "catalog/rest/rest_catalog.h"

#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "catalog/rest/rest_protocol.h"
#include "io/local_file_io.h"
#include "io/scheme_file_io.h"
#include "meta/json_scan.h"
#include "meta/metadata_json.h"
#include "util/uuid.h"

namespace floe {
namespace {

using nlohmann::json;

constexpr int kAttempts = 3;

struct ParsedRestUri {
  std::string origin;  // scheme://host:port
  std::string base;    // path after the authority, without a trailing '/'
  std::map<std::string, std::string> params;
};

Result<ParsedRestUri> ParseRestUri(const std::string& uri) {
  size_t scheme_end = uri.find("://");
  if (scheme_end == std::string::npos) return InvalidArgument("REST catalog URI '" + uri + "' lacks '://'");
  size_t path_start = uri.find_first_of("/?", scheme_end + 3);
  ParsedRestUri out;
  out.origin = uri.substr(0, path_start);
  if (out.origin.size() == scheme_end + 3) return InvalidArgument("REST catalog URI '" + uri + "' names no host");
  if (path_start == std::string::npos) return out;
  size_t q = uri.find('?', path_start);
  out.base = uri.substr(path_start, q == std::string::npos ? std::string::npos : q - path_start);
  while (!out.base.empty() && out.base.back() == '/') out.base.pop_back();
  if (q != std::string::npos) {
    auto pairs = ParseFormBody(std::string_view(uri).substr(q + 1));
    if (!pairs) return InvalidArgument("REST catalog URI query: " + pairs.error().message);
    for (auto& [k, v] : *pairs) out.params[k] = v;
  }
  return out;
}

std::string JoinNamespace(const Namespace& ns) {
  std::string joined;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i) joined += kNamespaceSeparator;
    joined += ns[i];
  }
  return joined;
}

}  // namespace

RestCatalog::~RestCatalog() = default;

Result<std::unique_ptr<RestCatalog>> RestCatalog::Open(const std::string& uri, const CatalogOptions& options) {
  FLOE_ASSIGN_OR_RETURN(ParsedRestUri parsed, ParseRestUri(uri));
  std::unique_ptr<RestCatalog> c(new RestCatalog());
  c->name_ = options.name;
  c->uri_ = parsed.origin + parsed.base;
  c->base_ = parsed.base;
  // Tables the server keeps on S3 are read with the AWS settings of this process, unless the
  // caller gave a FileIO of its own.
  c->io_ = options.io ? options.io
                      : std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::map<std::string, std::string>{});
  try {
    c->http_ = std::make_unique<httplib::Client>(parsed.origin);
  } catch (const std::exception& e) {
    return InvalidArgument("REST catalog URI '" + parsed.origin + "': " + e.what());
  }
  if (!c->http_->is_valid()) return InvalidArgument("REST catalog URI '" + parsed.origin + "' is not usable");
  c->http_->set_connection_timeout(10, 0);
  c->http_->set_read_timeout(120, 0);
  c->http_->set_write_timeout(120, 0);
  c->http_->set_keep_alive(true);
  // A request goes out as several writes (headers, then body); with Nagle's algorithm on, the
  // body waits for the server's delayed ACK (~40 ms) on every commit.
  c->http_->set_tcp_nodelay(true);

  if (parsed.params.count("token")) {
    c->token_ = parsed.params["token"];
  } else if (const char* env = std::getenv("FLOE_REST_TOKEN")) {
    c->token_ = env;
  }
  std::string credential = parsed.params.count("credential") ? parsed.params["credential"] : "";
  if (credential.empty()) {
    if (const char* env = std::getenv("FLOE_REST_CREDENTIAL")) credential = env;
  }
  if (c->token_.empty() && !credential.empty()) {
    size_t colon = credential.find(':');
    if (colon == std::string::npos) return InvalidArgument("credential must be CLIENT_ID:CLIENT_SECRET");
    std::string form = "grant_type=client_credentials&client_id=" + PercentEncode(credential.substr(0, colon)) +
                       "&client_secret=" + PercentEncode(credential.substr(colon + 1)) + "&scope=catalog";
    FLOE_ASSIGN_OR_RETURN(Reply reply, c->Send("POST", c->base_ + "/v1/oauth/tokens", form, Kind::kRead,
                                               "application/x-www-form-urlencoded"));
    json j = json::parse(reply.body, nullptr, false);
    if (reply.status != 200 || !j.is_object() || !j.contains("access_token") || !j["access_token"].is_string()) {
      return InvalidArgument("REST catalog " + c->uri_ + " refused the credential for client " +
                             credential.substr(0, colon) + ": " + reply.body.substr(0, 200));
    }
    c->token_ = j["access_token"].get<std::string>();
  }

  std::optional<std::string> warehouse = options.warehouse;
  if (!warehouse && parsed.params.count("warehouse")) warehouse = parsed.params["warehouse"];
  std::string config_path = c->base_ + "/v1/config";
  if (warehouse) config_path += "?warehouse=" + PercentEncode(*warehouse);
  FLOE_ASSIGN_OR_RETURN(Reply reply, c->Send("GET", config_path, "", Kind::kRead));
  if (reply.status != 200) return std::unexpected(c->ErrorFor(reply, Kind::kRead, "reading the catalog config"));
  FLOE_ASSIGN_OR_RETURN(json config, c->ParseBody(reply, "catalog config"));
  Properties merged;
  for (const char* section : {"defaults", "overrides"}) {
    if (config.contains(section) && config[section].is_object()) {
      if (std::string(section) == "overrides" && warehouse) merged["warehouse"] = *warehouse;
      for (const auto& [k, v] : config[section].items()) {
        if (v.is_string()) merged[k] = v.get<std::string>();
      }
    }
  }
  if (!merged.count("warehouse") && warehouse) merged["warehouse"] = *warehouse;
  c->warehouse_ = merged.count("warehouse") ? merged["warehouse"] : "";
  if (c->warehouse_.rfind("file://", 0) == 0) c->warehouse_ = c->warehouse_.substr(7);
  c->prefix_ = c->base_ + "/v1";
  if (merged.count("prefix") && !merged["prefix"].empty()) c->prefix_ += "/" + PercentEncode(merged["prefix"]);
  c->idempotency_ = config.contains("idempotency-key-lifetime");
  return c;
}

Result<RestCatalog::Reply> RestCatalog::Send(const std::string& method, const std::string& path,
                                             const std::string& body, Kind kind, const std::string& content_type,
                                             const std::string& if_none_match) {
  httplib::Headers headers;
  if (!if_none_match.empty()) headers.emplace("If-None-Match", if_none_match);
  if (!token_.empty()) headers.emplace("Authorization", "Bearer " + token_);
  const bool mutating = method == "POST" || method == "DELETE";
  const bool keyed = mutating && idempotency_;
  if (keyed) headers.emplace("Idempotency-Key", RandomUuidString());
  // Resending is safe for reads, and for writes the server deduplicates by key.
  const int attempts = (!mutating || keyed) ? kAttempts : 1;
  std::string last_error;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50 << attempt));
    httplib::Result res{nullptr, httplib::Error::Unknown};
    {
      std::lock_guard lock(mu_);
      if (method == "GET") res = http_->Get(path, headers);
      else if (method == "HEAD") res = http_->Head(path, headers);
      else if (method == "DELETE") res = http_->Delete(path, headers);
      else res = http_->Post(path, headers, body, content_type);
    }
    if (res) {
      Reply reply{res->status, res->body, res->get_header_value("ETag")};
      // A retried commit answered 409 may have lost to its own first attempt.
      if (attempt > 0 && kind == Kind::kCommit && reply.status == 409) {
        return CommitStateUnknown(method + " " + path + ": the first attempt's answer was lost (" + last_error +
                                  ") and the retry found the table changed; it may be this commit");
      }
      return reply;
    }
    last_error = httplib::to_string(res.error());
  }
  std::string message = method + " " + uri_ + path.substr(base_.size()) + " failed: " + last_error;
  if (kind == Kind::kCommit) return CommitStateUnknown(message + "; the commit may or may not have happened");
  if (mutating) return CommitStateUnknown(message + "; the change may or may not have happened");
  return Unavailable(message);
}

Error RestCatalog::ErrorFor(const Reply& reply, Kind kind, const std::string& what) const {
  RestErrorInfo info = ParseErrorModel(reply.status, reply.body);
  std::string message = what + ": " + info.message + (info.type.empty() ? "" : " (" + info.type + ")");
  const int s = reply.status;
  if (s == 404) return Error{ErrorKind::kNotFound, message};
  if (s == 409) {
    if (info.type == "AlreadyExistsException") return Error{ErrorKind::kAlreadyExists, message};
    if (info.type == "NamespaceNotEmptyException") return Error{ErrorKind::kInvalidArgument, message};
    if (kind == Kind::kCommit || info.type == "CommitFailedException") return Error{ErrorKind::kCommitConflict, message};
    return Error{ErrorKind::kAlreadyExists, message};
  }
  if (s == 400 || s == 422 || s == 401 || s == 403 || s == 413 || s == 405) {
    return Error{ErrorKind::kInvalidArgument, message};
  }
  if (s == 406) return Error{ErrorKind::kNotSupported, message};
  if (s >= 500 && kind == Kind::kCommit) {
    return Error{ErrorKind::kCommitStateUnknown, message + "; the commit may or may not have happened"};
  }
  if (s == 503) return Error{ErrorKind::kUnavailable, message};
  return Error{ErrorKind::kIOError, message};
}

Result<json> RestCatalog::ParseBody(const Reply& reply, const std::string& what) const {
  json j = json::parse(reply.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Corrupt(what + " from " + uri_ + ": the answer is not a JSON object");
  }
  return j;
}

std::string RestCatalog::NamespacePath(const Namespace& ns) const {
  return prefix_ + "/namespaces/" + NamespaceToPathSegment(ns);
}

std::string RestCatalog::TablePath(const TableIdentifier& id) const {
  return NamespacePath(id.ns) + "/tables/" + PercentEncode(id.name);
}

Status RestCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  json body{{"namespace", NamespaceJson(ns)}, {"properties", properties}};
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", prefix_ + "/namespaces", body.dump(), Kind::kWrite));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "creating namespace " + NamespaceToString(ns)));
  return Ok();
}

Result<std::vector<Namespace>> RestCatalog::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(ValidateNamespace(parent));
  std::vector<Namespace> out;
  std::string page;
  for (int pages = 0; pages < 100000; ++pages) {
    std::string path = prefix_ + "/namespaces";
    std::string sep = "?";
    if (!parent.empty()) {
      path += "?parent=" + PercentEncode(JoinNamespace(parent));
      sep = "&";
    }
    if (!page.empty()) path += sep + "pageToken=" + PercentEncode(page);
    FLOE_ASSIGN_OR_RETURN(Reply r, Send("GET", path, "", Kind::kRead));
    if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kRead, "listing namespaces"));
    FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "namespace listing"));
    if (!j.contains("namespaces") || !j["namespaces"].is_array()) return Corrupt("namespace listing has no namespaces");
    for (const auto& ns : j["namespaces"]) {
      auto parsed = NamespaceFromJson(ns, "namespaces[]");
      if (!parsed) return Corrupt("namespace listing: " + parsed.error().message);
      out.push_back(std::move(*parsed));
    }
    if (!j.contains("next-page-token") || !j["next-page-token"].is_string()) break;
    page = j["next-page-token"].get<std::string>();
  }
  return out;
}

Result<Properties> RestCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("GET", NamespacePath(ns), "", Kind::kRead));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kRead, "loading namespace " + NamespaceToString(ns)));
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "namespace"));
  auto props = StringMapFromJson(j.contains("properties") ? j["properties"] : json(), "properties");
  if (!props) return Corrupt("namespace " + NamespaceToString(ns) + ": " + props.error().message);
  return *props;
}

Status RestCatalog::UpdateNamespaceProperties(const Namespace& ns, const Properties& updates,
                                              const std::vector<std::string>& removals) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  json body{{"updates", updates}, {"removals", removals}};
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", NamespacePath(ns) + "/properties", body.dump(), Kind::kWrite));
  if (r.status != 200) {
    return std::unexpected(ErrorFor(r, Kind::kWrite, "updating properties of namespace " + NamespaceToString(ns)));
  }
  return Ok();
}

Result<bool> RestCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("HEAD", NamespacePath(ns), "", Kind::kRead));
  if (r.status == 204 || r.status == 200) return true;
  if (r.status == 404) return false;
  return std::unexpected(ErrorFor(r, Kind::kRead, "checking namespace " + NamespaceToString(ns)));
}

Status RestCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("DELETE", NamespacePath(ns), "", Kind::kWrite));
  if (r.status != 204 && r.status != 200) {
    return std::unexpected(ErrorFor(r, Kind::kWrite, "dropping namespace " + NamespaceToString(ns)));
  }
  return Ok();
}

Result<LoadedTable> RestCatalog::CreateTable(const TableIdentifier& id, const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  json body = CreateTableJson(id.name, request);
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", NamespacePath(id.ns) + "/tables", body.dump(), Kind::kWrite));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "creating table " + id.ToString()));
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "created table"));
  return LoadTableResultFromJson(id, j);
}

Result<LoadedTable> RestCatalog::LoadTable(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(SharedTable shared, LoadShared(id, /*refs_only=*/false));
  return LoadedTable{std::move(shared.id), std::move(shared.metadata_location), *shared.metadata};
}

Result<SharedTable> RestCatalog::LoadSharedTable(const TableIdentifier& id) { return LoadShared(id, false); }

Result<SharedTable> RestCatalog::LoadCurrentState(const TableIdentifier& id) { return LoadShared(id, true); }

Result<SharedTable> RestCatalog::TableFromAnswer(const TableIdentifier& id, const std::string& body,
                                                const std::string& what, MetadataCache& documents) {
  // The two members located without parsing the document; anything unusual is parsed in full.
  if (auto members = json_scan::ObjectMembers(body)) {
    const json_scan::Member* location = nullptr;
    const json_scan::Member* metadata = nullptr;
    bool duplicate = false;
    for (const auto& m : *members) {
      const json_scan::Member** slot =
          m.raw_key == "metadata-location" ? &location : m.raw_key == "metadata" ? &metadata : nullptr;
      if (!slot) continue;
      duplicate |= *slot != nullptr;
      *slot = &m;
    }
    if (location && metadata && !duplicate) {
      json where = json::parse(location->value.Of(body), nullptr, false);
      if (where.is_string() && !where.get_ref<const std::string&>().empty()) {
        std::string at = where.get<std::string>();
        auto parsed = documents.ParseAndInsert(at, std::string(metadata->value.Of(body)));
        if (!parsed) return Corrupt(what + " from " + uri_ + " for " + id.ToString() + ": " + parsed.error().message);
        return SharedTable{id, std::move(at), std::move(*parsed)};
      }
    }
  }
  Reply reply{200, body, ""};
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(reply, what));
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, LoadTableResultFromJson(id, j));
  return SharedTable{std::move(loaded.id), std::move(loaded.metadata_location),
                     std::make_shared<const TableMetadata>(std::move(loaded.metadata))};
}

Result<SharedTable> RestCatalog::LoadShared(const TableIdentifier& id, bool refs_only) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  const std::string path = TablePath(id);
  std::optional<RestTableCopies::Copy> held = copies_.Find(path, refs_only);
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("GET", path + (refs_only ? "?snapshots=refs" : ""), "", Kind::kRead,
                                      "application/json", held ? held->etag : ""));
  if (r.status == 304 && held) return std::move(held->table);
  if (r.status != 200) {
    copies_.Forget(path);
    return std::unexpected(ErrorFor(r, Kind::kRead, "loading table " + id.ToString()));
  }
  FLOE_ASSIGN_OR_RETURN(SharedTable shared, TableFromAnswer(id, r.body, "table", refs_only ? *refs_documents_ : *documents_));
  copies_.Remember(path, refs_only, {r.etag, shared});
  return shared;
}

Result<bool> RestCatalog::TableExists(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("HEAD", TablePath(id), "", Kind::kRead));
  if (r.status == 204 || r.status == 200) return true;
  if (r.status == 404) return false;
  return std::unexpected(ErrorFor(r, Kind::kRead, "checking table " + id.ToString()));
}

Result<std::vector<TableIdentifier>> RestCatalog::ListTables(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  std::vector<TableIdentifier> out;
  std::string page;
  for (int pages = 0; pages < 100000; ++pages) {
    std::string path = NamespacePath(ns) + "/tables" + (page.empty() ? "" : "?pageToken=" + PercentEncode(page));
    FLOE_ASSIGN_OR_RETURN(Reply r, Send("GET", path, "", Kind::kRead));
    if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kRead, "listing tables of " + NamespaceToString(ns)));
    FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "table listing"));
    if (!j.contains("identifiers") || !j["identifiers"].is_array()) return Corrupt("table listing has no identifiers");
    for (const auto& item : j["identifiers"]) {
      auto id = TableIdentifierFromJson(item, "identifiers[]");
      if (!id) return Corrupt("table listing: " + id.error().message);
      out.push_back(std::move(*id));
    }
    if (!j.contains("next-page-token") || !j["next-page-token"].is_string()) break;
    page = j["next-page-token"].get<std::string>();
  }
  return out;
}

Status RestCatalog::DropTable(const TableIdentifier& id, bool purge) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  std::string path = TablePath(id) + "?purgeRequested=" + (purge ? "true" : "false");
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("DELETE", path, "", Kind::kWrite));
  if (r.status != 204 && r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "dropping table " + id.ToString()));
  return Ok();
}

Status RestCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(from.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(from));
  FLOE_RETURN_IF_ERROR(ValidateNamespace(to.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(to));
  json body{{"source", TableIdentifierJson(from)}, {"destination", TableIdentifierJson(to)}};
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", prefix_ + "/tables/rename", body.dump(), Kind::kWrite));
  if (r.status != 204 && r.status != 200) {
    return std::unexpected(ErrorFor(r, Kind::kWrite, "renaming " + from.ToString() + " to " + to.ToString()));
  }
  return Ok();
}

Result<LoadedTable> RestCatalog::RegisterTable(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  json body{{"name", id.name}, {"metadata-location", metadata_location}};
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", NamespacePath(id.ns) + "/register", body.dump(), Kind::kWrite));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kWrite, "registering table " + id.ToString()));
  FLOE_ASSIGN_OR_RETURN(json j, ParseBody(r, "registered table"));
  return LoadTableResultFromJson(id, j);
}

Result<LoadedTable> RestCatalog::CommitTable(const TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(SharedTable shared, CommitSharedTable(commit));
  return LoadedTable{std::move(shared.id), std::move(shared.metadata_location), *shared.metadata};
}

Result<SharedTable> RestCatalog::CommitSharedTable(const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(commit.id.ns));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(commit.id));
  json body = CommitTableJson(commit, /*with_identifier=*/true);
  if (commit.await_files) FLOE_RETURN_IF_ERROR(commit.await_files());
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", TablePath(commit.id), body.dump(), Kind::kCommit));
  if (r.status != 200) return std::unexpected(ErrorFor(r, Kind::kCommit, "commit to " + commit.id.ToString()));
  auto answered = TableFromAnswer(commit.id, r.body, "commit answer", *documents_);
  if (!answered) return CommitStateUnknown("commit to " + commit.id.ToString() + " answered 200: " + answered.error().message);
  // The answer is the table's new document: the next load revalidates it instead of fetching it.
  SharedTable shared = std::move(*answered);
  copies_.Remember(TablePath(commit.id), false, {r.etag, shared});
  return shared;
}

Result<std::vector<LoadedTable>> RestCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  json changes = json::array();
  for (const auto& c : commits) {
    FLOE_RETURN_IF_ERROR(ValidateNamespace(c.id.ns));
    FLOE_RETURN_IF_ERROR(ValidateIdentifier(c.id));
    changes.push_back(CommitTableJson(c, /*with_identifier=*/true));
  }
  json body{{"table-changes", changes}};
  for (const auto& c : commits) {
    if (c.await_files) FLOE_RETURN_IF_ERROR(c.await_files());
  }
  FLOE_ASSIGN_OR_RETURN(Reply r, Send("POST", prefix_ + "/transactions/commit", body.dump(), Kind::kCommit));
  if (r.status != 204 && r.status != 200) {
    return std::unexpected(ErrorFor(r, Kind::kCommit, "multi-table commit of " + std::to_string(commits.size()) + " tables"));
  }
  // The answer carries no metadata: load each table (a later commit may already show).
  std::vector<LoadedTable> out;
  for (const auto& c : commits) {
    auto loaded = LoadTable(c.id);
    if (!loaded) {
      return IOError("multi-table commit landed, but reloading " + c.id.ToString() + " failed: " +
                     loaded.error().message);
    }
    out.push_back(std::move(*loaded));
  }
  return out;
}

}  // namespace floe
