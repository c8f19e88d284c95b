#include "server/ui_routes.h"

#include <algorithm>

#include "catalog/rest/rest_protocol.h"
#include "scan/table_stats.h"
#include "server/ui_pages.h"

namespace floe {
namespace {

UiReply ErrorPage(int status, const std::string& message) { return UiReply{status, UiErrorPage(status, message)}; }

UiReply FromError(const Error& error) {
  int status = error.kind == ErrorKind::kNotFound          ? 404
               : error.kind == ErrorKind::kInvalidArgument ? 400
               : error.kind == ErrorKind::kUnavailable     ? 503
                                                           : 500;
  return ErrorPage(status, error.message);
}

// Every namespace, depth first, that `principal` may see: one listing of the catalog, not one
// per namespace. (A namespace the principal cannot see has nothing visible below it.)
Result<std::vector<std::string>> VisibleNamespaces(Catalog& catalog, const Namespace& parent,
                                                   const Principal* principal) {
  std::vector<std::string> out;
  FLOE_ASSIGN_OR_RETURN(auto below, catalog.ListNamespacesBelow(parent));
  for (const Namespace& ns : below) {
    if (principal == nullptr || principal->CanSee(ns)) out.push_back(NamespaceToString(ns));
  }
  return out;
}

// The decoded segments after /ui, or an error for a bad escape or an empty segment.
Result<std::vector<std::string>> Segments(std::string_view raw_path) {
  std::vector<std::string> out;
  std::string_view rest = raw_path.substr(3);  // after "/ui"
  while (!rest.empty()) {
    if (rest[0] != '/') return InvalidArgument("bad path");
    rest.remove_prefix(1);
    if (rest.empty()) break;  // a trailing '/'
    size_t slash = rest.find('/');
    std::string_view raw = rest.substr(0, slash);
    if (raw.empty()) return InvalidArgument("bad path: empty segment");
    FLOE_ASSIGN_OR_RETURN(std::string decoded, PercentDecode(raw));
    out.push_back(std::move(decoded));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  return out;
}

UiReply TablePage(Catalog& catalog, const TableIdentifier& id, const TableActivity& activity, int64_t now_ms) {
  auto loaded = catalog.LoadTable(id);
  if (!loaded) return FromError(loaded.error());
  UiTable page;
  page.namespace_name = NamespaceToString(id.ns);
  page.table_name = id.name;
  page.metadata_location = loaded->metadata_location;
  page.metadata = &loaded->metadata;
  auto stats = ComputeTableStats(*catalog.io(), loaded->metadata, {}, id.ToString());
  if (stats) page.stats = &*stats;
  else page.files_error = stats.error().message;
  // The page shows at most this many data files' vectors (the ones with most rows deleted).
  constexpr size_t kShownDeletionVectors = 200;
  Result<UiDeletionVectors> vectors = DeletionVectorsOf(*catalog.io(), loaded->metadata, kShownDeletionVectors);
  if (vectors) page.deletion_vectors = &*vectors;
  else page.deletion_vectors_error = vectors.error().message;
  page.activity = activity.LastHour(id.ToString(), now_ms);
  return UiReply{200, UiTablePage(page)};
}

}  // namespace

bool IsUiPath(std::string_view raw_path) {
  return raw_path == "/ui" || raw_path.rfind("/ui/", 0) == 0;
}

UiReply HandleUi(Catalog& catalog, std::string_view raw_path, const Principal* principal,
                 const TableActivity& activity, int64_t now_ms) {
  auto segments = Segments(raw_path);
  if (!segments) return ErrorPage(400, segments.error().message);
  const auto& s = *segments;
  if (s.empty()) {
    auto namespaces = VisibleNamespaces(catalog, {}, principal);
    if (!namespaces) return FromError(namespaces.error());
    return UiReply{200, UiNamespacesPage(*namespaces)};
  }
  if (s[0] != "namespaces" || s.size() < 2 || s.size() == 3 || s.size() > 4 || (s.size() == 4 && s[2] != "tables")) {
    return ErrorPage(404, "no such page");
  }
  auto ns = ParseNamespace(s[1]);
  if (!ns) return ErrorPage(400, ns.error().message);
  if (principal != nullptr && !principal->CanRead(*ns)) {
    return ErrorPage(403, principal->name + " may not read namespace " + s[1]);
  }
  if (s.size() == 2) {
    auto tables = catalog.ListTables(*ns);
    if (!tables) return FromError(tables.error());
    std::vector<std::string> names;
    for (const auto& t : *tables) names.push_back(t.name);
    std::sort(names.begin(), names.end());
    std::vector<std::string> view_names;
    // A catalog that keeps no views (NotSupported) shows none.
    if (auto views = catalog.ListViews(*ns)) {
      for (const auto& v : *views) view_names.push_back(v.name);
    } else if (views.error().kind != ErrorKind::kNotSupported) {
      return FromError(views.error());
    }
    std::sort(view_names.begin(), view_names.end());
    return UiReply{200, UiTablesPage(s[1], names, view_names)};
  }
  if (auto valid = ValidateName(s[3], "table"); !valid) return ErrorPage(400, valid.error().message);
  return TablePage(catalog, TableIdentifier{*ns, s[3]}, activity, now_ms);
}

}  // namespace floe
