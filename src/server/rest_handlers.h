// The REST catalog's operations on a floe Catalog: one function per route and method (the route
// table, server/rest_routes.cc, says which), each turning a parsed request into the spec's
// response (or its ErrorModel).
//
// Status codes follow the spec: 400 for a malformed body or bad name, 404 NoSuchNamespace /
// NoSuchTable, 409 AlreadyExists / CommitFailedException (naming the failed requirement) /
// NamespaceNotEmpty, 406 for what floe does not support, 500 CommitStateUnknownException when a
// commit's outcome is truly unknown, 503 when the database was unavailable.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "server/auth.h"
#include "server/commit_limits.h"
#include "server/location_confinement.h"
#include "server/rest_routes.h"
#include "server/table_answers.h"
#include "server/table_commit_service.h"

namespace floe {

// What a table commit did, for the server's metrics and access log (set by the commit route).
struct CommitNote {
  std::string table;      // ns.table
  std::string operation;  // the new snapshot's operation ("append", ...), else "metadata"
  // landed, conflict (409: a requirement failed or the race was lost), refused (4xx), unknown
  // (the outcome could not be learned), error (any other 5xx), replayed (Idempotency-Key)
  std::string outcome;
  int attempts = 0;
  bool rebased = false;
  size_t group_size = 0;
};

struct RestReply {
  int status = 200;
  std::string body;  // JSON text, or what a Content-Type header names; empty for 204
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<CommitNote> commit;
  // A commit-table answer is its document, named by location: an idempotency record may keep
  // only this and rebuild the answer from the document on replay (documents never change,
  // invariant 1). Empty when the answer must be kept whole.
  std::string answer_document;
};

struct RestRequest {
  std::string method;  // GET, HEAD, POST, DELETE
  Route route;
  std::multimap<std::string, std::string> query;  // decoded query parameters
  std::string body;
  const Principal* principal = nullptr;  // nullptr: authentication is off (loopback only)
  std::string if_none_match;             // the If-None-Match header (load-table answers 304)
};

struct ServerInfo {
  std::string catalog_name;
  std::string prefix;
  std::string warehouse;
  std::string idempotency_lifetime;  // ISO-8601, e.g. "PT30M"; empty: keys not supported
};

// What the server enforces beyond grants: where locations may point, how much a commit adds.
struct RequestPolicy {
  const LocationConfinement* confinement = nullptr;  // nullptr: locations are not confined
  CommitLimits limits;
  // Table documents' JSON, made once per document (server/table_answers.h); nullptr: per answer.
  TableAnswers* answers = nullptr;
  // How a table commit runs on this server (server/table_commit_service.h).
  ServerCommitOptions commit;
};

// What an error kind means on the wire. `subject` picks NoSuchNamespace vs NoSuchTable for 404.
enum class ErrorSubject { kNamespace, kTable, kView };
// The commit-table answer that was the document at `location` (RestReply::answer_document), made
// again for a replayed Idempotency-Key: the same metadata-location and metadata, and its ETag. A
// document that can no longer be read is a 500 naming it (the commit did happen; only its answer
// is lost).
RestReply ReplayTableAnswer(Catalog& catalog, MetadataCache* documents, const std::string& location,
                            const RequestPolicy& policy);
RestReply ErrorReply(int status, std::string_view type, std::string_view message);
RestReply ReplyFor(const Error& error, ErrorSubject subject);

// GET /v1/config (needs no catalog).
RestReply HandleConfig(const RestRequest& request, const ServerInfo& info);

// The grant `spec` needs for the namespace in the request's path, checked before the body is
// read; nullopt when allowed or when the route names no namespace in its path (those check the
// namespaces in their body).
std::optional<RestReply> AuthorizeRoute(const RouteSpec& spec, const RestRequest& request);

// The routes answered over a catalog (rest_routes.cc says which path and method each takes).
// The principal's grants are checked in each too, where the namespaces a request touches are
// known (some are only in its body).
namespace catalog_routes {
RestReply ListNamespaces(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply CreateNamespace(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply LoadNamespace(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply DropNamespace(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply UpdateNamespaceProperties(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply ListTables(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply CreateTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply LoadTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply CommitTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply DropTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply RegisterTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply ReportMetrics(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply RenameTable(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply CommitTransaction(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
}  // namespace catalog_routes

// The routes the server answers itself, from its own state (RestServer implements them).
class ServerEndpoints {
 public:
  virtual ~ServerEndpoints() = default;
  virtual RestReply Config(const httplib::Request& http, const RestRequest& request) = 0;
  virtual RestReply IssueToken(const httplib::Request& http, const RestRequest& request) = 0;
  virtual RestReply Metrics(const httplib::Request& http, const RestRequest& request) = 0;
  virtual RestReply Ui(const httplib::Request& http, const RestRequest& request) = 0;
};

}  // namespace floe
