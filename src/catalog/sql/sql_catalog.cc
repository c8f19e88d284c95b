#include "catalog/sql/sql_catalog.h"
#include "catalog/found.h"

#include <algorithm>
#include <set>

#include "meta/metadata_builder.h"
#include "table_files/metadata_document.h"
#include "table_files/metadata_location.h"
#include "table_files/purge.h"
#include "util/strings.h"

namespace floe {
namespace {

// The DDL of PyIceberg's SqlCatalog, column for column (see
// fixtures/tables/duckdb-iceberg/data/persistent/partition_timestamp/pyiceberg_catalog.db).
constexpr const char* kCreateTables =
    "CREATE TABLE IF NOT EXISTS iceberg_tables (\n"
    "\tcatalog_name VARCHAR(255) NOT NULL, \n"
    "\ttable_namespace VARCHAR(255) NOT NULL, \n"
    "\ttable_name VARCHAR(255) NOT NULL, \n"
    "\tmetadata_location VARCHAR(1000), \n"
    "\tprevious_metadata_location VARCHAR(1000), \n"
    "\tPRIMARY KEY (catalog_name, table_namespace, table_name)\n"
    ")";
constexpr const char* kCreateNamespaceProperties =
    "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (\n"
    "\tcatalog_name VARCHAR(255) NOT NULL, \n"
    "\tnamespace VARCHAR(255) NOT NULL, \n"
    "\tproperty_key VARCHAR(255) NOT NULL, \n"
    "\tproperty_value VARCHAR(1000) NOT NULL, \n"
    "\tPRIMARY KEY (catalog_name, namespace, property_key)\n"
    ")";

// What PyIceberg and Java write for a namespace created without properties.
constexpr const char* kExistsKey = "exists";

std::vector<std::string> SplitDots(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

bool IsBelow(const std::string& candidate, const std::string& ns) {
  return candidate.size() > ns.size() + 1 && candidate.compare(0, ns.size(), ns) == 0 && candidate[ns.size()] == '.';
}

}  // namespace

SqlCatalog::SqlCatalog(std::unique_ptr<SqlConnection> connection, std::string name, std::string warehouse,
                       std::shared_ptr<FileIO> io)
    : conn_(std::move(connection)), name_(std::move(name)), warehouse_(std::move(warehouse)), io_(std::move(io)) {
  database_ = conn_->description();
  warehouse_ = TrimTrailingSlashes(warehouse_);
}

Result<std::unique_ptr<SqlCatalog>> SqlCatalog::Open(std::unique_ptr<SqlConnection> connection, std::string name,
                                                     std::string warehouse, std::shared_ptr<FileIO> io,
                                                     std::shared_ptr<MetadataCache> metadata_cache) {
  if (name.empty()) return InvalidArgument("catalog name is empty");
  if (!io) return InvalidArgument("SQL catalog " + name + " needs a FileIO");
  std::unique_ptr<SqlCatalog> catalog(new SqlCatalog(std::move(connection), std::move(name), std::move(warehouse), io));
  catalog->metadata_cache_ = metadata_cache ? std::move(metadata_cache) : std::make_shared<MetadataCache>();
  auto& conn = *catalog->conn_;
  // Checking first keeps a catalog that only reads from needing the write lock.
  FLOE_ASSIGN_OR_RETURN(bool have_tables, conn.HasColumn("iceberg_tables", "metadata_location"));
  FLOE_ASSIGN_OR_RETURN(bool have_props, conn.HasColumn("iceberg_namespace_properties", "property_key"));
  if (!have_tables) FLOE_RETURN_IF_ERROR(conn.CreateTableIfAbsent(kCreateTables));
  if (!have_props) FLOE_RETURN_IF_ERROR(conn.CreateTableIfAbsent(kCreateNamespaceProperties));
  FLOE_ASSIGN_OR_RETURN(catalog->has_type_column_, conn.HasColumn("iceberg_tables", "iceberg_type"));
  return catalog;
}

std::string SqlCatalog::TypeFilter() const {
  return has_type_column_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
}

Status SqlCatalog::InWriteTransaction(const std::function<Status()>& body) {
  FLOE_RETURN_IF_ERROR(conn_->BeginWrite());
  auto status = body();
  if (!status) {
    conn_->Rollback();
    return status;
  }
  return conn_->Commit();
}

// ---- namespaces ----

Result<std::vector<std::string>> SqlCatalog::AllNamespacesLocked() {
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT namespace FROM iceberg_namespace_properties WHERE "
                                                "catalog_name = ? UNION SELECT table_namespace FROM iceberg_tables "
                                                "WHERE catalog_name = ?",
                                                {name_, name_}));
  std::vector<std::string> out;
  for (auto& row : rows) {
    if (row[0]) out.push_back(std::move(*row[0]));
  }
  return out;
}

Result<bool> SqlCatalog::NamespaceExistsLocked(const std::string& ns) {
  FLOE_ASSIGN_OR_RETURN(auto props, conn_->Query("SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? "
                                                 "AND namespace = ? LIMIT 1",
                                                 {name_, ns}));
  if (!props.empty()) return true;
  FLOE_ASSIGN_OR_RETURN(auto tables, conn_->Query("SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND "
                                                  "table_namespace = ? LIMIT 1",
                                                  {name_, ns}));
  if (!tables.empty()) return true;
  // A namespace with only deeper namespaces below it exists too (it is listed as their parent).
  FLOE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
  return std::any_of(all.begin(), all.end(), [&](const std::string& c) { return IsBelow(c, ns); });
}

Result<bool> SqlCatalog::NamespaceExists(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  std::lock_guard lock(mu_);
  return NamespaceExistsLocked(NamespaceToString(ns));
}

Status SqlCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  const std::string key = NamespaceToString(ns);
  Properties rows = properties.empty() ? Properties{{kExistsKey, "true"}} : properties;
  std::lock_guard lock(mu_);
  return InWriteTransaction([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(key));
    if (exists) return NamespaceAlreadyExists(key);
    for (const auto& [k, v] : rows) {
      FLOE_RETURN_IF_ERROR(conn_->Execute("INSERT INTO iceberg_namespace_properties (catalog_name, namespace, "
                                          "property_key, property_value) VALUES (?, ?, ?, ?)",
                                          {name_, key, k, v}));
    }
    return Ok();
  });
}

Result<std::vector<Namespace>> SqlCatalog::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(ValidateNamespace(parent));
  std::lock_guard lock(mu_);
  const std::string parent_key = NamespaceToString(parent);
  if (!parent.empty()) {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(parent_key));
    if (!exists) return NamespaceNotFound(parent_key);
  }
  FLOE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
  std::set<Namespace> children;
  for (const auto& candidate : all) {
    if (!parent.empty() && !IsBelow(candidate, parent_key)) continue;
    auto parts = SplitDots(candidate);
    if (parts.size() <= parent.size()) continue;
    parts.resize(parent.size() + 1);  // only the direct children of parent
    children.insert(std::move(parts));
  }
  return std::vector<Namespace>(children.begin(), children.end());
}

Result<std::vector<Namespace>> SqlCatalog::ListNamespacesBelow(const Namespace& parent) {
  if (!parent.empty()) FLOE_RETURN_IF_ERROR(ValidateNamespace(parent));
  std::lock_guard lock(mu_);
  const std::string parent_key = NamespaceToString(parent);
  if (!parent.empty()) {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(parent_key));
    if (!exists) return NotFound("namespace " + parent_key + " does not exist in catalog " + name_);
  }
  FLOE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
  std::set<Namespace> below;
  for (const auto& candidate : all) {
    if (!parent.empty() && !IsBelow(candidate, parent_key)) continue;
    auto parts = SplitDots(candidate);
    for (size_t depth = parent.size() + 1; depth <= parts.size(); ++depth) {
      below.insert(Namespace(parts.begin(), parts.begin() + static_cast<long>(depth)));
    }
  }
  return std::vector<Namespace>(below.begin(), below.end());
}

Result<size_t> SqlCatalog::CountNamespaces(size_t /*stop_after*/) {
  // One counting query: the namespaces created and those holding a table (implied parents are
  // not rows, and the depth limit bounds how many each row implies).
  std::lock_guard lock(mu_);
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT COUNT(*) FROM (SELECT namespace FROM iceberg_namespace_properties "
                                                "WHERE catalog_name = ? UNION SELECT table_namespace FROM iceberg_tables "
                                                "WHERE catalog_name = ?) AS found",
                                                {name_, name_}));
  if (rows.empty() || rows[0].empty() || !rows[0][0]) return Corrupt("counting namespaces returned no row");
  return static_cast<size_t>(std::stoull(*rows[0][0]));
}

Result<Properties> SqlCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  const std::string key = NamespaceToString(ns);
  std::lock_guard lock(mu_);
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(key));
  if (!exists) return NamespaceNotFound(key);
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT property_key, property_value FROM "
                                                "iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?",
                                                {name_, key}));
  Properties out;
  for (auto& row : rows) {
    if (row[0] && row[1]) out[*row[0]] = *row[1];
  }
  return out;
}

Status SqlCatalog::UpdateNamespaceProperties(const Namespace& ns, const Properties& updates,
                                             const std::vector<std::string>& removals) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  for (const auto& r : removals) {
    if (updates.count(r)) return InvalidArgument("namespace property " + r + " is both updated and removed");
  }
  const std::string key = NamespaceToString(ns);
  std::lock_guard lock(mu_);
  return InWriteTransaction([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(key));
    if (!exists) return NamespaceNotFound(key);
    for (const auto& r : removals) {
      FLOE_RETURN_IF_ERROR(conn_->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                                          "namespace = ? AND property_key = ?",
                                          {name_, key, r}));
    }
    for (const auto& [k, v] : updates) {
      FLOE_ASSIGN_OR_RETURN(int64_t changed,
                            conn_->Execute("UPDATE iceberg_namespace_properties SET property_value = ? WHERE "
                                           "catalog_name = ? AND namespace = ? AND property_key = ?",
                                           {v, name_, key, k}));
      if (changed == 0) {
        FLOE_RETURN_IF_ERROR(conn_->Execute("INSERT INTO iceberg_namespace_properties (catalog_name, namespace, "
                                            "property_key, property_value) VALUES (?, ?, ?, ?)",
                                            {name_, key, k, v}));
      }
    }
    return Ok();
  });
}

Status SqlCatalog::DropNamespace(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  const std::string key = NamespaceToString(ns);
  std::lock_guard lock(mu_);
  return InWriteTransaction([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(key));
    if (!exists) return NamespaceNotFound(key);
    FLOE_ASSIGN_OR_RETURN(auto tables, conn_->Query("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? "
                                                    "AND table_namespace = ? LIMIT 1",
                                                    {name_, key}));
    if (!tables.empty()) {
      return InvalidArgument("namespace " + key + " is not empty: it holds table " + key + "." +
                             tables[0][0].value_or(""));
    }
    FLOE_ASSIGN_OR_RETURN(auto all, AllNamespacesLocked());
    for (const auto& c : all) {
      if (IsBelow(c, key)) return InvalidArgument("namespace " + key + " is not empty: it holds namespace " + c);
    }
    FLOE_RETURN_IF_ERROR(conn_->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                                        "namespace = ?",
                                        {name_, key}));
    return Ok();
  });
}

// ---- tables ----

Result<std::string> SqlCatalog::CurrentMetadataLocation(const TableIdentifier& id) {
  std::lock_guard lock(mu_);
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? "
                                                "AND table_namespace = ? AND table_name = ?" +
                                                    TypeFilter(),
                                                {name_, NamespaceToString(id.ns), id.name}));
  if (rows.empty()) return TableNotFound(id.ToString());
  if (!rows[0][0] || rows[0][0]->empty()) {
    return Corrupt("table " + id.ToString() + " in catalog " + name_ + " has no metadata_location");
  }
  return *rows[0][0];
}

Result<std::string> SqlCatalog::NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                                    const std::string& base_location) {
  int64_t version = 0;
  if (!base_location.empty()) {
    int64_t base_version = ParseMetadataVersion(base_location);
    // A registered document may have a name without a version; its successor numbers by history.
    version = base_version >= 0 ? base_version + 1 : static_cast<int64_t>(next.metadata_log.size());
  }
  return VersionedMetadataLocation(MetadataFolder(next), version);
}

Status SqlCatalog::RunSwapLocked(const PointerSwap& swap) {
  const std::string ns = NamespaceToString(swap.id.ns);
  if (swap.base_location.empty()) {
    // Asked before the insert: inside a transaction a failed statement ends what PostgreSQL
    // will answer. A view created between the two still loses the key to the insert.
    if (has_type_column_) {
      FLOE_ASSIGN_OR_RETURN(auto taken, NameTakenByLocked(swap.id));
      if (taken == "VIEW") return ViewWithSameNameExists(swap.id.ToString());
    }
    auto inserted =
        has_type_column_
            ? conn_->Execute("INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                             "metadata_location, previous_metadata_location, iceberg_type) VALUES (?, ?, ?, ?, NULL, "
                             "'TABLE')",
                             {name_, ns, swap.id.name, swap.new_location})
            : conn_->Execute("INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                             "metadata_location, previous_metadata_location) VALUES (?, ?, ?, ?, NULL)",
                             {name_, ns, swap.id.name, swap.new_location});
    if (!inserted && inserted.error().kind == ErrorKind::kAlreadyExists) {
      return CommitConflict("Table already exists: " + swap.id.ToString());
    }
    if (!inserted) return std::unexpected(inserted.error());
    return Ok();
  }
  FLOE_ASSIGN_OR_RETURN(int64_t changed,
                        conn_->Execute("UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = "
                                       "? WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND "
                                       "metadata_location = ?",
                                       {swap.new_location, swap.base_location, name_, ns, swap.id.name,
                                        swap.base_location}));
  if (changed == 1) return Ok();
  if (changed == 0) {
    return CommitConflict("commit to " + swap.id.ToString() + " lost: its metadata pointer is no longer " +
                          swap.base_location + " (another commit won, or the table was dropped or renamed)");
  }
  // More than one row per key cannot happen with the primary key; a catalog without it is broken.
  return CommitStateUnknown("commit to " + swap.id.ToString() + " changed " + std::to_string(changed) +
                            " rows of iceberg_tables; the table's key is not unique");
}

Status SqlCatalog::SwapPointer(const PointerSwap& swap) {
  std::lock_guard lock(mu_);
  return RunSwapLocked(swap);  // one statement, its own transaction
}

Status SqlCatalog::SwapPointers(const std::vector<PointerSwap>& swaps) {
  // A fixed order keeps two transactions over the same tables from deadlocking.
  std::vector<PointerSwap> ordered = swaps;
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  std::lock_guard lock(mu_);
  return InWriteTransaction([&]() -> Status {
    for (const auto& swap : ordered) FLOE_RETURN_IF_ERROR(RunSwapLocked(swap));
    return Ok();
  });
}

Result<bool> SqlCatalog::TableRowExistsLocked(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND "
                                                "table_namespace = ? AND table_name = ?",
                                                {name_, NamespaceToString(id.ns), id.name}));
  return !rows.empty();
}

Result<LoadedTable> SqlCatalog::CreateTable(const TableIdentifier& id, const CreateTableRequest& request) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  {
    std::lock_guard lock(mu_);
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsLocked(NamespaceToString(id.ns)));
    if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
    FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
    FLOE_ASSIGN_OR_RETURN(auto taken, NameTakenByLocked(id));
    if (taken == "VIEW") return ViewWithSameNameExists(id.ToString());
    if (taken) return TableAlreadyExists(id.ToString());
  }
  std::string location = request.location.value_or(warehouse_);
  if (!request.location) {
    for (const auto& part : id.ns) location += "/" + part;
    location += "/" + id.name;
  }
  FLOE_ASSIGN_OR_RETURN(auto updates, NewTableUpdates(request.schema, request.spec, request.sort_order, location,
                                                      request.properties, request.format_version));
  auto created = CommitTableVia(*this, *io_, TableCommit{id, {AssertCreate{}}, std::move(updates)});
  if (!created && created.error().kind == ErrorKind::kCommitConflict) {
    return TableAlreadyExists(id.ToString());
  }
  return created;
}

Result<LoadedTable> SqlCatalog::LoadTable(const TableIdentifier& id) { return LoadTableVia(*this, *io_, id); }

Result<bool> SqlCatalog::TableExists(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  return FoundOrAbsent(CurrentMetadataLocation(id));
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListTables(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  const std::string key = NamespaceToString(ns);
  std::lock_guard lock(mu_);
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExistsLocked(key));
  if (!exists) return NamespaceNotFound(key);
  FLOE_ASSIGN_OR_RETURN(auto rows, conn_->Query("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
                                                "table_namespace = ?" +
                                                    TypeFilter() + " ORDER BY table_name",
                                                {name_, key}));
  std::vector<TableIdentifier> out;
  for (auto& row : rows) {
    if (row[0]) out.push_back(TableIdentifier{ns, *row[0]});
  }
  return out;
}

Status SqlCatalog::DropTable(const TableIdentifier& id, bool purge) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  std::optional<LoadedTable> table;
  std::optional<PurgePlan> plan;
  if (purge) {
    FLOE_ASSIGN_OR_RETURN(table, LoadTable(id));
    // Planned before the drop: a purge that would reach outside the table is refused while
    // the table is still there.
    FLOE_ASSIGN_OR_RETURN(plan, PlanPurge(*io_, table->metadata, table->metadata_location));
  }
  {
    std::lock_guard lock(mu_);
    // With purge, only the version we read may be dropped: files of a newer one would stay.
    auto dropped =
        table ? conn_->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND "
                               "table_name = ? AND metadata_location = ?",
                               {name_, NamespaceToString(id.ns), id.name, table->metadata_location})
              : conn_->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND "
                               "table_name = ?" + TypeFilter(),
                               {name_, NamespaceToString(id.ns), id.name});
    FLOE_RETURN_IF_ERROR(dropped);
    if (*dropped == 0) {
      if (table) return CommitConflict("table " + id.ToString() + " changed while being dropped; try again");
      return TableNotFound(id.ToString());
    }
  }
  if (plan) return DeletePurgeFiles(*io_, *plan);
  return Ok();
}

Status SqlCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(from));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(to));
  std::lock_guard lock(mu_);
  return InWriteTransaction([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsLocked(NamespaceToString(to.ns)));
    if (!ns_exists) return NamespaceNotFound(NamespaceToString(to.ns));
    FLOE_RETURN_IF_ERROR(RefreshTypeColumnLocked());
    FLOE_ASSIGN_OR_RETURN(auto taken, NameTakenByLocked(to));
    if (taken == "VIEW") {
      return AlreadyExists("Cannot rename " + from.ToString() + " to " + to.ToString() + ". View already exists");
    }
    if (taken) return TableAlreadyExists(to.ToString());
    FLOE_ASSIGN_OR_RETURN(int64_t changed,
                          conn_->Execute("UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE "
                                         "catalog_name = ? AND table_namespace = ? AND table_name = ?" +
                                             TypeFilter(),
                                         {NamespaceToString(to.ns), to.name, name_, NamespaceToString(from.ns),
                                          from.name}));
    if (changed == 0) return TableNotFound(from.ToString());
    return Ok();
  });
}

Result<LoadedTable> SqlCatalog::RegisterTable(const TableIdentifier& id, const std::string& metadata_location) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  // The document must be a readable table metadata document before anything points at it.
  FLOE_ASSIGN_OR_RETURN(TableMetadata metadata, ReadMetadataFile(*io_, metadata_location));
  std::lock_guard lock(mu_);
  auto registered = InWriteTransaction([&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExistsLocked(NamespaceToString(id.ns)));
    if (!ns_exists) return NamespaceNotFound(NamespaceToString(id.ns));
    auto inserted = RunSwapLocked(PointerSwap{id, "", metadata_location});
    if (!inserted && inserted.error().kind == ErrorKind::kCommitConflict) {
      return TableAlreadyExists(id.ToString());
    }
    return inserted;
  });
  FLOE_RETURN_IF_ERROR(registered);
  return LoadedTable{id, metadata_location, std::move(metadata)};
}

Result<LoadedTable> SqlCatalog::CommitTable(const TableCommit& commit) { return CommitTableVia(*this, *io_, commit); }

Result<SharedTable> SqlCatalog::LoadSharedTable(const TableIdentifier& id) { return LoadSharedTableVia(*this, *io_, id); }

Result<SharedTable> SqlCatalog::CommitSharedTable(const TableCommit& commit) {
  return CommitSharedTableVia(*this, *io_, commit);
}

Result<std::vector<LoadedTable>> SqlCatalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  return CommitTransactionVia(*this, *io_, commits);
}

}  // namespace floe
