// OpenCatalog: a catalog chosen by URI.
//
// Where the warehouse comes from (the catalog property every new table's location derives
// from), first match wins:
//   1. CatalogOptions::warehouse;
//   2. the URI's ?warehouse= parameter;
//   3. SQLite: the folder holding the database file; storage: the URI's folder itself;
//      PostgreSQL: none, so it is an error (a server has no natural local folder).
// The warehouse is not written into the shared tables: Java and PyIceberg read every row of
// iceberg_namespace_properties as a namespace, so a reserved row would show up as one.
// An s3://BUCKET/PREFIX URI opens the storage catalog on S3, and ?warehouse=s3://BUCKET/PREFIX
// puts a SQL catalog's tables on S3; the URI's s3.* parameters (PyIceberg's names) and the AWS
// variables and profiles configure S3 (io/s3_config.h). Every catalog's FileIO routes s3://
// locations to S3 and the rest to the local disk (io/scheme_file_io.h).
// A local warehouse path is made absolute (against base_dir when given), so the locations
// written into metadata mean the same thing from any working directory.
#include "catalog/catalog.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "catalog/catalog_uri.h"
#include "catalog/rest/rest_catalog.h"
#include "catalog/sql/postgres_connection.h"
#include "catalog/sql/sql_catalog.h"
#include "catalog/sql/sqlite_connection.h"
#include "catalog/storage/storage_catalog.h"
#include "io/local_file_io.h"
#include "io/local_path.h"
#include "io/s3_client.h"
#include "io/scheme_file_io.h"
#include "table_files/rebased_file_io.h"
#include "util/strings.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultDatabase = "./warehouse/catalog.db";
constexpr const char* kDefaultWarehouse = "./warehouse";

std::string Absolute(const std::string& path, const CatalogOptions& options) {
  fs::path p(path);
  if (p.is_absolute()) return p.lexically_normal().string();
  fs::path base = options.base_dir ? fs::path(*options.base_dir) : fs::current_path();
  return TrimTrailingSlashes((base / p).lexically_normal().string());
}

// The warehouse as locations will be written: local paths absolute, URIs unchanged.
Result<std::string> NormalizeWarehouse(const std::string& warehouse, const CatalogOptions& options) {
  if (warehouse.empty()) return InvalidArgument("warehouse location is empty");
  if (IsS3Uri(warehouse)) {
    FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(warehouse));
    if (location.key.find("//") != std::string::npos) {
      return InvalidArgument("S3 warehouse '" + warehouse + "' has an empty folder name ('//')");
    }
    std::string out = location.Uri();
    while (out.back() == '/') out.pop_back();
    return out;
  }
  if (HasUriScheme(warehouse)) {
    if (options.io) return warehouse;  // the program's FileIO knows its own URIs
    FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(warehouse));  // only file: URIs have a FileIO yet
    return Absolute(local, options);
  }
  return Absolute(warehouse, options);
}

// Local paths and s3:// locations alike; the S3 settings are the URI's s3.* parameters over the
// AWS environment. A FileIO the caller gives (CatalogOptions::io) is used as it is.
std::shared_ptr<FileIO> MakeIO(const CatalogOptions& options, const std::map<std::string, std::string>& params) {
  if (options.io) return options.io;
  std::map<std::string, std::string> s3;
  for (const auto& [key, value] : params) {
    if (IsS3Property(key)) s3[key] = value;
  }
  std::shared_ptr<FileIO> io = std::make_shared<SchemeFileIO>(std::make_shared<LocalFileIO>(), std::move(s3));
  if (options.base_dir) io = std::make_shared<RebasedFileIO>(io, *options.base_dir);
  return io;
}

Status CreateFolder(const std::string& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return IOError("cannot create folder " + folder + ": " + ec.message());
  return Ok();
}

Result<std::unique_ptr<Catalog>> OpenSqlite(const std::string& db_path, const std::optional<std::string>& warehouse,
                                            const std::string& name, const CatalogOptions& options,
                                            const std::map<std::string, std::string>& params) {
  const bool in_memory = db_path == ":memory:";
  std::string path = in_memory ? db_path : Absolute(db_path, options);
  std::string wh;
  if (warehouse) {
    FLOE_ASSIGN_OR_RETURN(wh, NormalizeWarehouse(*warehouse, options));
  } else if (in_memory) {
    return InvalidArgument("an in-memory SQLite catalog needs a warehouse: add ?warehouse=/path");
  } else {
    wh = fs::path(path).parent_path().string();
  }
  if (!in_memory) FLOE_RETURN_IF_ERROR(CreateFolder(fs::path(path).parent_path().string()));
  FLOE_ASSIGN_OR_RETURN(auto conn, SqliteConnection::Open(path));
  FLOE_ASSIGN_OR_RETURN(auto catalog, SqlCatalog::Open(std::move(conn), name, wh, MakeIO(options, params), options.metadata_cache));
  return std::unique_ptr<Catalog>(std::move(catalog));
}

SharedTable Share(LoadedTable&& table) {
  return SharedTable{std::move(table.id), std::move(table.metadata_location),
                     std::make_shared<TableMetadata>(std::move(table.metadata))};
}

}  // namespace

namespace {
std::unexpected<Error> NoViews(const Catalog& catalog) {
  return NotSupported("catalog " + catalog.name() + " keeps no views");
}
}  // namespace

Result<LoadedView> Catalog::CreateView(const TableIdentifier&, const CreateViewRequest&) { return NoViews(*this); }
Result<LoadedView> Catalog::LoadView(const TableIdentifier&) { return NoViews(*this); }
Result<bool> Catalog::ViewExists(const TableIdentifier&) { return NoViews(*this); }
Result<std::vector<TableIdentifier>> Catalog::ListViews(const Namespace&) { return NoViews(*this); }
Status Catalog::DropView(const TableIdentifier&) { return NoViews(*this); }
Status Catalog::RenameView(const TableIdentifier&, const TableIdentifier&) { return NoViews(*this); }
Result<LoadedView> Catalog::RegisterView(const TableIdentifier&, const std::string&) { return NoViews(*this); }
Result<LoadedView> Catalog::CommitView(const ViewCommit&) { return NoViews(*this); }

Result<SharedTable> Catalog::LoadSharedTable(const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, LoadTable(id));
  return Share(std::move(table));
}

Result<size_t> Catalog::CountNamespaces(size_t stop_after) {
  size_t count = 0;
  std::vector<Namespace> pending{Namespace{}};
  while (!pending.empty() && count <= stop_after) {
    Namespace parent = std::move(pending.back());
    pending.pop_back();
    FLOE_ASSIGN_OR_RETURN(auto children, ListNamespaces(parent));
    for (auto& child : children) {
      if (child.size() <= parent.size()) continue;  // a catalog that lists a namespace as its own child
      ++count;
      pending.push_back(std::move(child));
    }
  }
  return count;
}

Result<std::vector<Namespace>> Catalog::ListNamespacesBelow(const Namespace& parent) {
  std::vector<Namespace> out;
  std::vector<Namespace> pending{parent};
  while (!pending.empty()) {
    Namespace next = std::move(pending.back());
    pending.pop_back();
    FLOE_ASSIGN_OR_RETURN(auto children, ListNamespaces(next));
    for (auto& child : children) {
      if (child.size() <= next.size()) continue;
      out.push_back(child);
      pending.push_back(std::move(child));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<SharedTable> Catalog::CommitSharedTable(const TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, CommitTable(commit));
  return Share(std::move(table));
}

namespace {

Result<std::unique_ptr<Catalog>> OpenBackend(const std::string& uri, const CatalogOptions& options) {
  try {
    if (uri.empty()) {
      // The default catalog: SQLite in ./warehouse, created on first use.
      std::optional<std::string> wh = options.warehouse ? options.warehouse : std::optional<std::string>(kDefaultWarehouse);
      return OpenSqlite(kDefaultDatabase, wh, options.name, options, {});
    }
    FLOE_ASSIGN_OR_RETURN(CatalogUri parsed, ParseCatalogUri(uri));
    std::string name = options.name;
    if (name == "default" && parsed.floe_params.count("catalog")) name = parsed.floe_params["catalog"];
    std::optional<std::string> warehouse = options.warehouse;
    if (!warehouse && parsed.floe_params.count("warehouse")) warehouse = parsed.floe_params["warehouse"];

    if (parsed.scheme == "sqlite") return OpenSqlite(parsed.path, warehouse, name, options, parsed.floe_params);

    if (parsed.scheme == "postgresql") {
      if (!warehouse) {
        return InvalidArgument("PostgreSQL catalog " + parsed.backend_uri +
                               " needs a warehouse: add ?warehouse=/path/to/warehouse to the URI or set "
                               "CatalogOptions::warehouse");
      }
      FLOE_ASSIGN_OR_RETURN(std::string wh, NormalizeWarehouse(*warehouse, options));
      FLOE_ASSIGN_OR_RETURN(auto conn, PostgresConnection::Open(parsed.backend_uri));
      FLOE_ASSIGN_OR_RETURN(auto catalog, SqlCatalog::Open(std::move(conn), name, wh, MakeIO(options, parsed.floe_params),
                                                           options.metadata_cache));
      return std::unique_ptr<Catalog>(std::move(catalog));
    }

    if (parsed.scheme == "file") {
      FLOE_ASSIGN_OR_RETURN(std::string wh, NormalizeWarehouse(warehouse.value_or(parsed.path), options));
      return std::unique_ptr<Catalog>(std::make_unique<StorageCatalog>(name, wh, MakeIO(options, parsed.floe_params)));
    }

    if (parsed.scheme == "s3" || parsed.scheme == "s3a") {
      FLOE_ASSIGN_OR_RETURN(std::string wh, NormalizeWarehouse(warehouse.value_or(parsed.path), options));
      auto io = MakeIO(options, parsed.floe_params);
      // The settings are checked now, not at the first request: a bad one names itself at open.
      FLOE_RETURN_IF_ERROR(ResolveS3Config(parsed.floe_params));
      return std::unique_ptr<Catalog>(std::make_unique<StorageCatalog>(name, wh, std::move(io)));
    }

    if (parsed.scheme == "http" || parsed.scheme == "https") {
      CatalogOptions rest_options = options;
      rest_options.name = name;
      FLOE_ASSIGN_OR_RETURN(auto catalog, RestCatalog::Open(uri, rest_options));
      return std::unique_ptr<Catalog>(std::move(catalog));
    }
    return InvalidArgument("catalog URI '" + uri + "' has unknown scheme '" + parsed.scheme +
                           "': use sqlite://, postgresql://, file://, s3:// or http(s)://");
  } catch (const std::exception& e) {  // std::filesystem and allocation failures
    return IOError("opening catalog '" + uri + "': " + e.what());
  }
}

}  // namespace

Result<std::unique_ptr<Catalog>> OpenCatalog(const std::string& uri, const CatalogOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<Catalog> catalog, OpenBackend(uri, options));
  catalog->SupplyCommitScheduler(options.commit_scheduler);
  return catalog;
}

}  // namespace floe
