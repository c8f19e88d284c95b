#include "server/rest_routes.h"

#include <algorithm>
#include <set>

#include "catalog/rest/rest_protocol.h"
#include "server/rest_handlers.h"
#include "server/view_handlers.h"

namespace floe {
namespace {

using A = RouteAccess;
using E = ServerEndpoints;
namespace h = catalog_routes;

constexpr std::string_view kNs = "/v1/{prefix}/namespaces/{namespace}";
constexpr std::string_view kTable = "/v1/{prefix}/namespaces/{namespace}/tables/{table}";
constexpr std::string_view kView = "/v1/{prefix}/namespaces/{namespace}/views/{view}";

// Every route of `floe serve`. Rows of one path keep the order an Allow header lists them in;
// the advertised rows, in this order, are GET /v1/config's endpoints.
const RouteSpec kRoutes[] = {
    // method  path                                          name                           access             catalog handler                 server handler          advertised
    {"GET",    "/v1/config",                                 "config",                      A::kAuthenticated, nullptr,                        &E::Config},
    {"HEAD",   "/v1/config",                                 "config",                      A::kAuthenticated, nullptr,                        &E::Config},
    {"POST",   "/v1/oauth/tokens",                           "oauth-tokens",                A::kPublic,        nullptr,                        &E::IssueToken},
    {"GET",    "/v1/{prefix}/namespaces",                    "list-namespaces",             A::kAuthenticated, h::ListNamespaces,              nullptr,                true},
    {"HEAD",   "/v1/{prefix}/namespaces",                    "list-namespaces",             A::kAuthenticated, h::ListNamespaces},
    {"POST",   "/v1/{prefix}/namespaces",                    "create-namespace",            A::kAuthenticated, h::CreateNamespace,             nullptr,                true},
    {"GET",    kNs,                                          "load-namespace",              A::kReadNamespace, h::LoadNamespace,               nullptr,                true},
    {"HEAD",   kNs,                                          "load-namespace",              A::kReadNamespace, h::LoadNamespace,               nullptr,                true},
    {"DELETE", kNs,                                          "drop-namespace",              A::kWriteNamespace, h::DropNamespace,              nullptr,                true},
    {"POST",   "/v1/{prefix}/namespaces/{namespace}/properties", "update-namespace-properties", A::kWriteNamespace, h::UpdateNamespaceProperties, nullptr,         true},
    {"GET",    "/v1/{prefix}/namespaces/{namespace}/tables", "list-tables",                 A::kReadNamespace, h::ListTables,                  nullptr,                true},
    {"HEAD",   "/v1/{prefix}/namespaces/{namespace}/tables", "list-tables",                 A::kReadNamespace, h::ListTables},
    {"POST",   "/v1/{prefix}/namespaces/{namespace}/tables", "create-table",                A::kWriteNamespace, h::CreateTable,                nullptr,                true},
    {"GET",    kTable,                                       "load-table",                  A::kReadNamespace, h::LoadTable,                   nullptr,                true},
    {"HEAD",   kTable,                                       "load-table",                  A::kReadNamespace, h::LoadTable,                   nullptr,                true},
    {"POST",   kTable,                                       "commit-table",                A::kWriteNamespace, h::CommitTable,                nullptr,                true},
    {"DELETE", kTable,                                       "drop-table",                  A::kWriteNamespace, h::DropTable,                  nullptr,                true},
    {"POST",   "/v1/{prefix}/namespaces/{namespace}/register", "register-table",            A::kWriteNamespace, h::RegisterTable,              nullptr,                true},
    {"POST",   "/v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics", "report-metrics", A::kReadNamespace, h::ReportMetrics,            nullptr,                true},
    {"POST",   "/v1/{prefix}/tables/rename",                 "rename-table",                A::kAuthenticated, h::RenameTable,                 nullptr,                true},
    {"POST",   "/v1/{prefix}/transactions/commit",           "commit-transaction",          A::kAuthenticated, h::CommitTransaction,           nullptr,                true},
    {"GET",    "/v1/{prefix}/namespaces/{namespace}/views",  "list-views",                  A::kReadNamespace, h::ListViews,                   nullptr,                true},
    {"HEAD",   "/v1/{prefix}/namespaces/{namespace}/views",  "list-views",                  A::kReadNamespace, h::ListViews},
    {"POST",   "/v1/{prefix}/namespaces/{namespace}/views",  "create-view",                 A::kWriteNamespace, h::CreateView,                 nullptr,                true},
    {"GET",    kView,                                        "load-view",                   A::kReadNamespace, h::LoadView,                    nullptr,                true},
    {"HEAD",   kView,                                        "load-view",                   A::kReadNamespace, h::LoadView,                    nullptr,                true},
    {"POST",   kView,                                        "replace-view",                A::kWriteNamespace, h::ReplaceView,                nullptr,                true},
    {"DELETE", kView,                                        "drop-view",                   A::kWriteNamespace, h::DropView,                   nullptr,                true},
    {"POST",   "/v1/{prefix}/namespaces/{namespace}/register-view", "register-view",       A::kWriteNamespace, h::RegisterView,               nullptr,                true},
    {"POST",   "/v1/{prefix}/views/rename",                  "rename-view",                 A::kAuthenticated, h::RenameView,                  nullptr,                true},
    // Prometheus text (server/metrics.h): every authenticated caller, who sees the tables it may read.
    {"GET",    "/metrics",                                   "metrics",                     A::kAuthenticated, nullptr,                        &E::Metrics},
    {"HEAD",   "/metrics",                                   "metrics",                     A::kAuthenticated, nullptr,                        &E::Metrics},
    // The web view: its handler picks the page (server/ui_routes.h) and checks its namespace.
    {"GET",    "/ui/**",                                     "ui",                          A::kAuthenticated, nullptr,                        &E::Ui},
    {"HEAD",   "/ui/**",                                     "ui",                          A::kAuthenticated, nullptr,                        &E::Ui},
};

constexpr std::string_view kPrefix = "{prefix}";

std::vector<std::string_view> SplitPattern(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 1;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

// The distinct paths of the table, in its order.
const std::vector<std::string_view>& Paths() {
  static const std::vector<std::string_view> paths = [] {
    std::vector<std::string_view> out;
    for (const auto& spec : kRoutes) {
      if (std::find(out.begin(), out.end(), spec.path) == out.end()) out.push_back(spec.path);
    }
    return out;
  }();
  return paths;
}

bool HasPrefix(std::string_view path) { return path.find(kPrefix) != std::string_view::npos; }

// `segments` (decoded, without the prefix) against a path's segments (without {prefix}):
// nullopt when the shape differs; the route (or a bad name's error) when it has this shape.
std::optional<Result<Route>> Match(const std::vector<std::string>& segments, std::string_view path) {
  std::vector<std::string_view> pattern = SplitPattern(path);
  std::erase(pattern, kPrefix);
  if (pattern.size() != segments.size()) return std::nullopt;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (!pattern[i].starts_with('{') && pattern[i] != segments[i]) return std::nullopt;
  }
  Route route;
  route.path = path;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == "{namespace}") {
      auto ns = NamespaceFromDecoded(segments[i]);
      if (!ns) return Result<Route>(std::unexpected(ns.error()));
      route.ns = std::move(*ns);
    } else if (pattern[i] == "{table}" || pattern[i] == "{view}") {
      if (auto valid = ValidateName(segments[i], pattern[i] == "{view}" ? "view" : "table"); !valid) return Result<Route>(std::unexpected(valid.error()));
      route.table = segments[i];
    }
  }
  return Result<Route>(std::move(route));
}

}  // namespace

Result<Route> ParseRoute(std::string_view raw_path, const std::string& prefix) {
  auto unknown = [&] { return NotFound("no such route: " + std::string(raw_path.substr(0, 300))); };
  if (raw_path.empty() || raw_path[0] != '/') return unknown();
  for (std::string_view path : Paths()) {
    if (!path.ends_with("/**")) continue;
    std::string_view base = path.substr(0, path.size() - 3);
    if (raw_path == base || (raw_path.starts_with(base) && raw_path[base.size()] == '/')) return Route{path, {}, ""};
  }
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
  for (std::string_view path : Paths()) {
    if (HasPrefix(path) || path.ends_with("/**")) continue;
    if (auto matched = Match(segments, path)) return std::move(*matched);
  }
  // The paths under /v1/{prefix}/: the segment after v1 is the prefix unless it begins a path.
  if (segments.size() < 2 || segments[0] != "v1") return unknown();
  static const std::set<std::string_view> first_after_prefix = [] {
    std::set<std::string_view> out;
    for (std::string_view path : Paths()) {
      if (!HasPrefix(path)) continue;
      std::vector<std::string_view> pattern = SplitPattern(path);
      auto at = std::find(pattern.begin(), pattern.end(), kPrefix);
      if (at + 1 != pattern.end()) out.insert(*(at + 1));
    }
    return out;
  }();
  if (!first_after_prefix.contains(segments[1])) {
    if (segments[1] != prefix) {
      return NotFound("no such catalog prefix '" + segments[1] + "': this server's prefix is '" + prefix + "'");
    }
    segments.erase(segments.begin() + 1);
  }
  for (std::string_view path : Paths()) {
    if (!HasPrefix(path)) continue;
    if (auto matched = Match(segments, path)) return std::move(*matched);
  }
  return unknown();
}

const RouteSpec* FindRoute(const Route& route, std::string_view method) {
  for (const auto& spec : kRoutes) {
    if (spec.path == route.path && spec.method == method) return &spec;
  }
  return nullptr;
}

std::string AllowedMethods(const Route& route) {
  std::string out;
  for (const auto& spec : kRoutes) {
    if (spec.path != route.path) continue;
    if (!out.empty()) out += ", ";
    out += spec.method;
  }
  return out;
}

bool IsPublicRoute(const Route& route) {
  bool any = false;
  for (const auto& spec : kRoutes) {
    if (spec.path != route.path) continue;
    if (spec.access != RouteAccess::kPublic) return false;
    any = true;
  }
  return any;
}

std::string RouteName(const Route& route, std::string_view method) {
  const RouteSpec* spec = route.path.empty() ? nullptr : FindRoute(route, method);
  return spec ? std::string(spec->name) : "no-route";
}

std::vector<std::string> SupportedEndpoints() {
  std::vector<std::string> out;
  for (const auto& spec : kRoutes) {
    if (spec.advertised) out.push_back(std::string(spec.method) + " " + std::string(spec.path));
  }
  return out;
}

}  // namespace floe
