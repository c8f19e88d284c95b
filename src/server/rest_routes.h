// The REST catalog's routes: a request path, still percent-encoded, into what it names.
//
// Each path segment is decoded on its own, so an encoded '/' (%2F) stays inside its segment and
// is then refused as part of a name; no '..' or '.' segment is ever resolved. Paths may carry
// the catalog's prefix (/v1/{prefix}/namespaces) or not (/v1/namespaces).
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog.h"

namespace floe {

enum class RouteKind {
  kConfig,               // /v1/config
  kOAuthTokens,          // /v1/oauth/tokens
  kNamespaces,           // /v1/{prefix}/namespaces
  kNamespace,            // /v1/{prefix}/namespaces/{ns}
  kNamespaceProperties,  // /v1/{prefix}/namespaces/{ns}/properties
  kTables,               // /v1/{prefix}/namespaces/{ns}/tables
  kRegister,             // /v1/{prefix}/namespaces/{ns}/register
  kTable,                // /v1/{prefix}/namespaces/{ns}/tables/{table}
  kTableMetrics,         // /v1/{prefix}/namespaces/{ns}/tables/{table}/metrics
  kRename,               // /v1/{prefix}/tables/rename
  kTransactionsCommit,   // /v1/{prefix}/transactions/commit
  kUi,                   // /ui and below: the web view (server/ui_routes.h)
  kMetrics,              // /metrics: Prometheus text (server/metrics.h)
};

struct Route {
  RouteKind kind = RouteKind::kConfig;
  Namespace ns;       // for routes under /namespaces/{ns}
  std::string table;  // for routes under /tables/{table}
};

// The route's name in logs and metrics ("config", "load-table", "commit-table", ...).
std::string RouteName(const Route& route, std::string_view method);

// NotFound for a path that names no route (or another prefix); InvalidArgument for a bad
// escape or a bad namespace or table name.
Result<Route> ParseRoute(std::string_view raw_path, const std::string& prefix);

// The spec's endpoint strings this server supports, for GET /v1/config.
std::vector<std::string> SupportedEndpoints();

}  // namespace floe
