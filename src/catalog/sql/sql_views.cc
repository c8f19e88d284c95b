// The SQL catalog's views: rows of iceberg_tables with iceberg_type = 'VIEW', as Java's
// JdbcCatalog (schema V1) writes them, so Java, PyIceberg and floe share one database. A view's
// row and a table's row have the same key, so the database itself keeps one name per
// namespace: whichever insert comes second fails.
#include <optional>

#include "catalog/sql/sql_catalog.h"
#include "catalog/found.h"
#include "table_files/metadata_document.h"
#include "util/strings.h"

namespace floe {
namespace {

constexpr const char* kAddTypeColumn = "ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)";

}  // namespace

Status SqlCatalog::RefreshTypeColumnLocked() {
  if (has_type_column_) return Ok();
  FLOE_ASSIGN_OR_RETURN(has_type_column_, conn_->HasColumn("iceberg_tables", "iceberg_type"));
  return Ok();
}

Status SqlCatalog::EnsureTypeColumnLocked() {
  FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
  if (has_type_column_) return Ok();
  auto added = conn_->Execute(kAddTypeColumn);
  // Another process may have added it between our check and our ALTER: its column serves.
  FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
  if (!has_type_column_) {
    return added ? Corrupt("iceberg_tables has no iceberg_type column after adding it")
                 : Status(std::unexpected(added.error()));
  }
  return Ok();
}

Result<std::optional<std::string>> SqlCatalog::NameTakenByLocked(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query(std::string("SELECT ") + (has_type_column_ ? "iceberg_type" : "NULL") +
                                                    " FROM iceberg_tables WHERE catalog_name = ? AND "
                                                    "table_namespace = ? AND table_name = ?",
                                                {name_, NamespaceToString(id.ns), id.name}));
  if (rows.empty()) return std::optional<std::string>();
  if (rows[0][0] && *rows[0][0] == "VIEW") return std::optional<std::string>("VIEW");
  return std::optional<std::string>("TABLE");
}

Result<std::string> SqlCatalog::CurrentViewLocation(const TableIdentifier& id) {
  std::lock_guard lock(mu_);
  FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
  if (!has_type_column_) return ViewNotFound(id.ToString());
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? "
                                                "AND table_namespace = ? AND table_name = ? AND iceberg_type = 'VIEW'",
                                                {name_, NamespaceToString(id.ns), id.name}));
  if (rows.empty()) return ViewNotFound(id.ToString());
  if (!rows[0][0] || rows[0][0]->empty()) {
    return Corrupt("view " + id.ToString() + " in catalog " + name_ + " has no metadata_location");
  }
  return *rows[0][0];
}

Result<std::string> SqlCatalog::NewViewLocation(const TableIdentifier&, const ViewMetadata& next,
                                                const std::string& base_location) {
  return VersionedViewLocation(next, base_location);
}

Status SqlCatalog::SwapViewPointer(const PointerSwap& swap) {
  const std::string ns = NamespaceToString(swap.id.ns);
  std::lock_guard lock(mu_);
  if (swap.base_location.empty()) {
    FLOE_RETURN_IF_ERROR(EnsureTypeColumnLocked());
    auto inserted = conn_->Execute("INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                                   "metadata_location, previous_metadata_location, iceberg_type) VALUES (?, ?, ?, ?, "
                                   "NULL, 'VIEW')",
                                   {name_, ns, swap.id.name, swap.new_location});
    if (!inserted && inserted.error().kind == ErrorKind::kAlreadyExists) {
      FLOE_ASSIGN_OR_RETURN(auto taken, NameTakenByLocked(swap.id));
      if (taken == "TABLE") return TableWithSameNameExists(swap.id.ToString());
      return CommitConflict("View already exists: " + swap.id.ToString());
    }
    return inserted ? Ok() : Status(std::unexpected(inserted.error()));
  }
  FLOE_ASSIGN_OR_RETURN(int64_t changed,
                        conn_->Execute("UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = "
                                       "? WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND "
                                       "metadata_location = ? AND iceberg_type = 'VIEW'",
                                       {swap.new_location, swap.base_location, name_, ns, swap.id.name,
                                        swap.base_location}));
  if (changed == 1) return Ok();
  if (changed == 0) {
    return CommitConflict("commit to view " + swap.id.ToString() + " lost: its metadata pointer is no longer " +
                          swap.base_location + " (another commit won, or the view was dropped or renamed)");
  }
  return CommitStateUnknown("commit to view " + swap.id.ToString() + " changed " + std::to_string(changed) +
                            " rows of iceberg_tables; the key is not unique");
}

Result<LoadedView> SqlCatalog::CreateView(const TableIdentifier& id, const CreateViewRequest& request) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  {
    std::lock_guard lock(mu_);
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsLocked(NamespaceToString(id.ns)));
    if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
    FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
    FLOE_ASSIGN_OR_RETURN(auto taken, NameTakenByLocked(id));
    if (taken == "TABLE") return TableWithSameNameExists(id.ToString());
    if (taken) return ViewAlreadyExists(id.ToString());
  }
  std::string location = request.location ? TrimTrailingSlashes(*request.location) : warehouse_;
  if (!request.location) {
    for (const auto& part : id.ns) location += "/" + part;
    location += "/" + id.name;
  }
  return CommitViewVia(*this, *io_, ViewCommit{id, {}, NewViewUpdates(request, location)}, /*create=*/true);
}

Result<LoadedView> SqlCatalog::LoadView(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  return LoadViewVia(*this, *io_, id);
}

Result<bool> SqlCatalog::ViewExists(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  return FoundOrAbsent(CurrentViewLocation(id));
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListViews(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  const std::string key = NamespaceToString(ns);
  std::lock_guard lock(mu_);
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(key));
  if (!exists) return NamespaceNotFound(key);
  FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
  std::vector<TableIdentifier> out;
  if (!has_type_column_) return out;
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
                                                "table_namespace = ? AND iceberg_type = 'VIEW' ORDER BY table_name",
                                                {name_, key}));
  for (auto& row : rows) {
    if (row[0]) out.push_back(TableIdentifier{ns, *row[0]});
  }
  return out;
}

Status SqlCatalog::DropView(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  std::lock_guard lock(mu_);
  FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
  if (!has_type_column_) return ViewNotFound(id.ToString());
  FLOE_ASSIGN_OR_RETURN(int64_t dropped, conn_->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                                        "table_namespace = ? AND table_name = ? AND iceberg_type = "
                                                        "'VIEW'",
                                                        {name_, NamespaceToString(id.ns), id.name}));
  if (dropped == 0) return ViewNotFound(id.ToString());
  return Ok();
}

Status SqlCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(from));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(to));
  std::lock_guard lock(mu_);
  FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
  if (!has_type_column_) return ViewNotFound(from.ToString());
  return InWriteTransaction([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto source, NameTakenByLocked(from));
    if (source != "VIEW") return ViewNotFound(from.ToString());
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsLocked(NamespaceToString(to.ns)));
    if (!ns_exists) return NamespaceNotFound(NamespaceToString(to.ns));
    FLOE_ASSIGN_OR_RETURN(auto taken, NameTakenByLocked(to));
    if (taken) {
      return AlreadyExists("Cannot rename " + from.ToString() + " to " + to.ToString() + ". " +
                           (*taken == "VIEW" ? "View" : "Table") + " already exists");
    }
    FLOE_ASSIGN_OR_RETURN(int64_t changed,
                          conn_->Execute("UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE "
                                         "catalog_name = ? AND table_namespace = ? AND table_name = ? AND "
                                         "iceberg_type = 'VIEW'",
                                         {NamespaceToString(to.ns), to.name, name_, NamespaceToString(from.ns),
                                          from.name}));
    if (changed == 0) return ViewNotFound(from.ToString());
    return Ok();
  });
}

Result<LoadedView> SqlCatalog::RegisterView(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  // The document must be a readable view document before anything points at it.
  FLOE_ASSIGN_OR_RETURN(ViewMetadata metadata, ReadViewMetadataFile(*io_, metadata_location));
  {
    std::lock_guard lock(mu_);
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsLocked(NamespaceToString(id.ns)));
    if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
  }
  auto inserted = SwapViewPointer(PointerSwap{id, "", metadata_location});
  if (!inserted && inserted.error().kind == ErrorKind::kCommitConflict) return ViewAlreadyExists(id.ToString());
  FLOE_RETURN_IF_ERROR(inserted);
  return LoadedView{id, metadata_location, std::move(metadata)};
}

Result<LoadedView> SqlCatalog::CommitView(const ViewCommit& commit) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(commit.id));
  return CommitViewVia(*this, *io_, commit, /*create=*/false);
}

}  // namespace floe
