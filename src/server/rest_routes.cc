#include "server/rest_routes.h"

#include "catalog/rest/rest_protocol.h"

namespace floe {

Result<Route> ParseRoute(std::string_view raw_path, const std::string& prefix) {
  auto unknown = [&] { return NotFound("no such route: " + std::string(raw_path.substr(0, 300))); };
  if (raw_path.empty() || raw_path[0] != '/') return unknown();
  if (raw_path == "/metrics") return Route{RouteKind::kMetrics, {}, ""};
  if (raw_path == "/ui" || raw_path.starts_with("/ui/")) return Route{RouteKind::kUi, {}, ""};  // ui_routes.h parses the rest
  std::vector<std::string> segments;
  size_t start = 1;
  while (true) {
    size_t slash = raw_path.find('/', start);
    std::string_view raw = raw_path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (raw.empty()) return unknown();  // "//" or a trailing '/'
    FLOE_ASSIGN_OR_RETURN(std::string decoded, PercentDecode(raw));
    segments.push_back(std::move(decoded));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (segments.size() < 2 || segments[0] != "v1") return unknown();
  if (segments.size() == 2 && segments[1] == "config") return Route{RouteKind::kConfig, {}, ""};
  if (segments.size() == 3 && segments[1] == "oauth" && segments[2] == "tokens") {
    return Route{RouteKind::kOAuthTokens, {}, ""};
  }
  size_t i = 1;
  const std::string& first = segments[1];
  if (first != "namespaces" && first != "tables" && first != "transactions") {
    if (first != prefix) return NotFound("no such catalog prefix '" + first + "': this server's prefix is '" + prefix + "'");
    i = 2;
  }
  std::vector<std::string> rest(segments.begin() + static_cast<long>(i), segments.end());
  if (rest.size() == 2 && rest[0] == "tables" && rest[1] == "rename") return Route{RouteKind::kRename, {}, ""};
  if (rest.size() == 2 && rest[0] == "transactions" && rest[1] == "commit") {
    return Route{RouteKind::kTransactionsCommit, {}, ""};
  }
  if (rest.empty() || rest[0] != "namespaces") return unknown();
  if (rest.size() == 1) return Route{RouteKind::kNamespaces, {}, ""};
  Route route;
  FLOE_ASSIGN_OR_RETURN(route.ns, NamespaceFromDecoded(rest[1]));
  if (rest.size() == 2) {
    route.kind = RouteKind::kNamespace;
    return route;
  }
  if (rest.size() == 3) {
    if (rest[2] == "properties") route.kind = RouteKind::kNamespaceProperties;
    else if (rest[2] == "tables") route.kind = RouteKind::kTables;
    else if (rest[2] == "register") route.kind = RouteKind::kRegister;
    else return unknown();
    return route;
  }
  if (rest[2] != "tables" || rest.size() > 5) return unknown();
  route.table = rest[3];
  FLOE_RETURN_IF_ERROR(ValidateName(route.table, "table"));
  if (rest.size() == 4) {
    route.kind = RouteKind::kTable;
    return route;
  }
  if (rest[4] != "metrics") return unknown();
  route.kind = RouteKind::kTableMetrics;
  return route;
}

std::string RouteName(const Route& route, std::string_view method) {
  const bool get = method == "GET" || method == "HEAD";
  switch (route.kind) {
    case RouteKind::kConfig: return "config";
    case RouteKind::kOAuthTokens: return "oauth-tokens";
    case RouteKind::kNamespaces: return get ? "list-namespaces" : "create-namespace";
    case RouteKind::kNamespace: return get ? "load-namespace" : "drop-namespace";
    case RouteKind::kNamespaceProperties: return "update-namespace-properties";
    case RouteKind::kTables: return get ? "list-tables" : "create-table";
    case RouteKind::kRegister: return "register-table";
    case RouteKind::kTable:
      if (get) return "load-table";
      return method == "DELETE" ? "drop-table" : "commit-table";
    case RouteKind::kTableMetrics: return "report-metrics";
    case RouteKind::kRename: return "rename-table";
    case RouteKind::kTransactionsCommit: return "commit-transaction";
    case RouteKind::kUi: return "ui";
    case RouteKind::kMetrics: return "metrics";
  }
  return "unknown";
}

std::vector<std::string> SupportedEndpoints() {
  return {
      "GET /v1/{prefix}/namespaces",
      "POST /v1/{prefix}/namespaces",
      "GET /v1/{prefix}/namespaces/{namespace}",
      "HEAD /v1/{prefix}/namespaces/{namespace}",
      "DELETE /v1/{prefix}/namespaces/{namespace}",
      "POST /v1/{prefix}/namespaces/{namespace}/properties",
      "GET /v1/{prefix}/namespaces/{namespace}/tables",
      "POST /v1/{prefix}/namespaces/{namespace}/tables",
      "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
      "POST /v1/{prefix}/namespaces/{namespace}/register",
      "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
      "POST /v1/{prefix}/tables/rename",
      "POST /v1/{prefix}/transactions/commit",
  };
}

}  // namespace floe
