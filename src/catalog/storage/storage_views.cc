// The storage catalog's views: <view>/metadata/v<N>.view.json, the highest N current, a commit
// the create-if-absent of v<N+1> (the same compare-and-swap as a table's, storage_catalog.h).
#include <algorithm>

#include "catalog/storage/storage_catalog.h"
#include "catalog/storage/storage_layout.h"
#include "catalog/found.h"

namespace floe {

Result<std::string> StorageCatalog::CurrentViewLocation(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(TableFolder(id) + "/metadata/v"));
  int64_t best = -1;
  std::string location;
  for (const auto& f : files) {
    int64_t v = ViewVersionOf(BaseName(f.path));
    if (v > best) {
      best = v;
      location = f.path;
    }
  }
  if (best < 0) return ViewNotFound(id.ToString());
  return location;
}

Result<std::string> StorageCatalog::NewViewLocation(const TableIdentifier& id, const ViewMetadata&,
                                                    const std::string& base_location) {
  int64_t next = 1;
  if (!base_location.empty()) {
    int64_t base = ViewVersionOf(BaseName(base_location));
    if (base < 0) return Corrupt("view " + id.ToString() + ": " + base_location + " is not a v<N>.view.json name");
    next = base + 1;
  }
  return TableFolder(id) + "/metadata/v" + std::to_string(next) + kViewVersionSuffix;
}

Result<LoadedView> StorageCatalog::CreateView(const TableIdentifier& id, const CreateViewRequest& request) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  const std::string folder = TableFolder(id);
  if (request.location && *request.location != folder && *request.location != folder + "/") {
    return InvalidArgument("a storage catalog keeps view " + id.ToString() + " at " + folder + ", not at " +
                           *request.location);
  }
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExists(id.ns));
  if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
  FLOE_ASSIGN_OR_RETURN(bool table_exists, TableExists(id));
  if (table_exists) return TableWithSameNameExists(id.ToString());
  return CommitViewVia(*this, *io_, ViewCommit{id, {}, NewViewUpdates(request, folder)}, /*create=*/true);
}

Result<LoadedView> StorageCatalog::LoadView(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  return LoadViewVia(*this, *io_, id);
}

Result<bool> StorageCatalog::ViewExists(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  return FoundOrAbsent(CurrentViewLocation(id));
}

Result<std::vector<TableIdentifier>> StorageCatalog::ListViews(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(CheckName(ns, nullptr));
  FLOE_ASSIGN_OR_RETURN(auto listing, Scan(ns));
  if (listing.namespaces.empty()) return NamespaceNotFound(NamespaceToString(ns));
  std::vector<TableIdentifier> out;
  for (const auto& v : listing.views) {
    if (v.ns == ns) out.push_back(v);
  }
  return out;
}

Status StorageCatalog::DropView(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  FLOE_ASSIGN_OR_RETURN(auto files, io_->ListPrefix(TableFolder(id) + "/metadata/v"));
  std::vector<std::pair<int64_t, std::string>> versions;
  for (const auto& f : files) {
    int64_t v = ViewVersionOf(BaseName(f.path));
    if (v >= 0) versions.emplace_back(v, f.path);
  }
  if (versions.empty()) return ViewNotFound(id.ToString());
  // Oldest first: until the last goes, a reader finds the newest version, never an older one.
  std::sort(versions.begin(), versions.end());
  for (const auto& [v, path] : versions) FLOE_RETURN_IF_ERROR(io_->Delete(path));
  return Ok();
}

Status StorageCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(CheckName(from.ns, &from.name));
  FLOE_RETURN_IF_ERROR(CheckName(to.ns, &to.name));
  return NotSupported("a storage catalog cannot rename view " + from.ToString() + " to " + to.ToString() +
                      ": a view is its folder, and moving a folder is not atomic");
}

Result<LoadedView> StorageCatalog::RegisterView(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(CheckName(id.ns, &id.name));
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExists(id.ns));
  if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
  FLOE_ASSIGN_OR_RETURN(bool table_exists, TableExists(id));
  if (table_exists) return TableWithSameNameExists(id.ToString());
  FLOE_ASSIGN_OR_RETURN(ViewMetadata metadata, ReadViewMetadataFile(*io_, metadata_location));
  FLOE_ASSIGN_OR_RETURN(std::string bytes, io_->ReadAll(metadata_location));
  std::string location = TableFolder(id) + "/metadata/v1" + kViewVersionSuffix;
  auto created = io_->CreateIfAbsent(location, bytes);
  if (!created && created.error().kind == ErrorKind::kAlreadyExists) return ViewAlreadyExists(id.ToString());
  FLOE_RETURN_IF_ERROR(created);
  return LoadedView{id, location, std::move(metadata)};
}

Result<LoadedView> StorageCatalog::CommitView(const ViewCommit& commit) {
  FLOE_RETURN_IF_ERROR(CheckName(commit.id.ns, &commit.id.name));
  return CommitViewVia(*this, *io_, commit, /*create=*/false);
}

}  // namespace floe
