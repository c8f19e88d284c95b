// The server's routes: ONE table (rest_routes.cc) of every path and method `floe serve` answers,
// with the route's name in logs and metrics, the grant it needs before its body is read, what
// answers it, and whether GET /v1/config advertises it. Adding a route is one row there (plus its
// handler); the parser, the 405's Allow header, the grant check, the dispatch and the config's
// endpoint list all read the table.
//
// A request path, still percent-encoded, is matched segment by segment: each segment is decoded
// on its own, so an encoded '/' (%2F) stays inside its segment and is then refused as part of a
// name; no '..' or '.' segment is ever resolved. Paths may carry the catalog's prefix
// (/v1/{prefix}/namespaces) or not (/v1/namespaces).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace httplib {
struct Request;
}

namespace floe {

struct RestReply;
struct RestRequest;
struct RequestPolicy;
class ServerEndpoints;

// Who may call a route, checked after authentication and before the body is read.
enum class RouteAccess {
  kPublic,          // no token (the token endpoint)
  kAuthenticated,   // any authenticated caller: the handler checks the namespaces its body names
  kReadNamespace,   // read on the namespace in the path
  kWriteNamespace,  // write on the namespace in the path
};

// Answered over a catalog leased for the request (Idempotency-Key applies to POST and DELETE).
using CatalogHandler = RestReply (*)(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
// Answered by the server itself (its configuration, tokens, metrics, the web view).
using ServerHandler = RestReply (ServerEndpoints::*)(const httplib::Request& http, const RestRequest& request);

struct RouteSpec {
  std::string_view method;  // GET, HEAD, POST, DELETE
  // Segments; {prefix} is the catalog's optional prefix, {namespace} and {table} are captured,
  // a final ** takes any rest (the web view parses its own pages).
  std::string_view path;
  std::string_view name;  // in logs and metrics: "load-table", "commit-table", ...
  RouteAccess access;
  CatalogHandler catalog = nullptr;  // exactly one of the two handlers is set
  ServerHandler server = nullptr;
  bool advertised = false;  // listed in GET /v1/config's endpoints
};

// A request path matched against the table's paths.
struct Route {
  std::string_view path;  // the table's path it matched; empty before (or without) a match
  Namespace ns;           // for paths with {namespace}
  std::string table;      // for paths with {table} or {view}
};

// NotFound for a path that names no route (or another prefix); InvalidArgument for a bad
// escape or a bad namespace or table name.
Result<Route> ParseRoute(std::string_view raw_path, const std::string& prefix);

// The row for a matched path and a method; nullptr when the path takes no such method.
const RouteSpec* FindRoute(const Route& route, std::string_view method);

// The methods a matched path takes, for a 405's Allow header ("GET, HEAD, POST").
std::string AllowedMethods(const Route& route);

// True when every method of the path needs no token.
bool IsPublicRoute(const Route& route);

// The route's name in logs and metrics ("config", "load-table", ...); "no-route" when the path
// or the method matched no row.
std::string RouteName(const Route& route, std::string_view method);

// The spec's endpoint strings this server supports, for GET /v1/config.
std::vector<std::string> SupportedEndpoints();

}  // namespace floe
