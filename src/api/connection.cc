#include "api/api_internal.h"
#include "api/create_request.h"
#include "contention/contention_scheduler.h"

namespace floe {
namespace {

Result<TableIdentifier> ParseName(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableIdentifier::Parse(name));
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  return id;
}

}  // namespace

Result<Connection> Connection::Open(const std::string& uri, const ConnectionOptions& options) {
  CatalogOptions catalog_options;
  catalog_options.name = options.name;
  catalog_options.warehouse = options.warehouse;
  catalog_options.io = options.file_io;
  // Every connection of the process commits through the process's one contention state, so
  // that its threads' commits to a table take turns and group (contention_scheduler.h).
  catalog_options.commit_scheduler = &ContentionScheduler::Process();
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<Catalog> catalog, OpenCatalog(uri, catalog_options));
  return Connection(std::make_shared<Impl>(Impl{std::shared_ptr<Catalog>(std::move(catalog))}));
}

Status Connection::CreateNamespace(const std::string& name, const std::map<std::string, std::string>& properties) {
  FLOE_ASSIGN_OR_RETURN(Namespace ns, ParseNamespace(name));
  return impl_->catalog->CreateNamespace(ns, properties);
}

Status Connection::DropNamespace(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(Namespace ns, ParseNamespace(name));
  return impl_->catalog->DropNamespace(ns);
}

Status Connection::RenameTable(const std::string& from, const std::string& to) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier from_id, ParseName(from));
  FLOE_ASSIGN_OR_RETURN(TableIdentifier to_id, ParseName(to));
  return impl_->catalog->RenameTable(from_id, to_id);
}

Result<std::string> Connection::CheckNamespaceName(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(Namespace ns, ParseNamespace(name));
  return NamespaceToString(ns);
}

Result<std::vector<std::string>> Connection::ListNamespaces(const std::string& parent) const {
  Namespace ns;
  if (!parent.empty()) {
    FLOE_ASSIGN_OR_RETURN(ns, ParseNamespace(parent));
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Namespace> found, impl_->catalog->ListNamespaces(ns));
  std::vector<std::string> out;
  for (const auto& n : found) out.push_back(NamespaceToString(n));
  return out;
}

Result<Table> Connection::CreateTable(const std::string& name, const TableDefinition& definition) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseName(name));
  DefinitionPart part;
  FLOE_ASSIGN_OR_RETURN(CreateTableRequest request, CreateRequestFor(definition, &part));
  FLOE_RETURN_IF_ERROR(impl_->catalog->CreateTable(id, request));
  return Table(std::make_shared<Table::Impl>(Table::Impl{impl_->catalog, id, id.ToString()}));
}

Result<Table> Connection::LoadTable(const std::string& name) const {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseName(name));
  FLOE_ASSIGN_OR_RETURN(bool exists, impl_->catalog->TableExists(id));
  if (!exists) return NotFound("table " + id.ToString() + " does not exist");
  return Table(std::make_shared<Table::Impl>(Table::Impl{impl_->catalog, id, id.ToString()}));
}

Result<Table> Connection::GetTable(const std::string& name) const {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseName(name));
  return Table(std::make_shared<Table::Impl>(Table::Impl{impl_->catalog, id, id.ToString()}));
}

Result<std::string> Connection::CheckTableName(const std::string& name) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseName(name));
  return id.ToString();
}

Result<std::vector<std::string>> Connection::ListTables(const std::string& ns) const {
  FLOE_ASSIGN_OR_RETURN(Namespace parsed, ParseNamespace(ns));
  FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> found, impl_->catalog->ListTables(parsed));
  std::vector<std::string> out;
  for (const auto& id : found) out.push_back(id.ToString());
  return out;
}

Status Connection::DropTable(const std::string& name, bool purge) {
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, ParseName(name));
  return impl_->catalog->DropTable(id, purge);
}

}  // namespace floe
