// Connection: a program's handle on an Iceberg catalog, the root of floe's public API.
//
//   FLOE_ASSIGN_OR_RETURN(floe::Connection catalog, floe::Connection::Open("sqlite:///tmp/w/catalog.db"));
//   FLOE_RETURN_IF_ERROR(catalog.CreateNamespace("sales"));
//   FLOE_ASSIGN_OR_RETURN(floe::Table orders, catalog.CreateTable("sales.orders", {.schema = "id long not null"}));
//
// Catalog URIs:
//   sqlite:///path/catalog.db        SQLite (embedded; the warehouse defaults to the file's folder)
//   postgresql://user@host:port/db   PostgreSQL (needs ?warehouse=/path or options.warehouse)
//   file:///path/warehouse           no catalog service: the pointer is the newest metadata file
//   http(s)://host:port[/prefix]     an Iceberg REST catalog (floe serve, or any other)
//
// Threads: a Connection and the Tables and transactions it hands out may be used from several
// threads at once (calls on one connection are serialized where its backend needs it). For
// writers racing on purpose, give each its own Connection: each then commits independently,
// exactly as separate processes would.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "floe/result.h"
#include "floe/table.h"
#include "floe/table_definition.h"

namespace floe {

struct ConnectionOptions {
  // Overrides the URI's warehouse (the folder new tables go under).
  std::optional<std::string> warehouse;
  // A catalog name inside a SQL catalog database ("default").
  std::string name = "default";
  // The storage that data, manifest and metadata files go through. Unset: the local file
  // system. A program's own FileIO (floe/file_io.h) must keep its rules: create-if-absent,
  // nothing overwritten, safe from several threads. Not used by a REST catalog for metadata.
  std::shared_ptr<FileIO> file_io;
};

// Connection::RegisterTable: how a metadata file becomes a table.
struct RegisterTableOptions {
  // A table that was copied or moved (its metadata records another location, and its manifest
  // list is not there) is refused unless this is set. Set: its manifest lists, manifests and
  // position delete files are first rewritten beside it with paths under the folder it lies
  // in, and that new metadata file is registered.
  bool allow_moved_paths = false;
};

class Connection {
 public:
  // InvalidArgument: a URI floe does not know or a bad option; Unavailable/IOError: the
  // catalog cannot be reached or its database opened.
  static Result<Connection> Open(const std::string& uri, const ConnectionOptions& options = {});

  // "a" or "a.b". AlreadyExists; InvalidArgument: an empty part or a name with '/', or a
  // property the catalog refuses.
  Status CreateNamespace(const std::string& name, const std::map<std::string, std::string>& properties = {});
  // NotFound: no such namespace; InvalidArgument: it still holds tables or namespaces.
  Status DropNamespace(const std::string& name);
  // Namespaces directly under `parent` ("" for the top level). NotFound: no such parent.
  Result<std::vector<std::string>> ListNamespaces(const std::string& parent = "") const;

  // "namespace.table" (floe/table_definition.h). AlreadyExists; NotFound: the namespace does
  // not exist, or the sample file (schema_like); InvalidArgument: a schema, identifier column,
  // partition, format version or property that cannot be used (the message names it).
  Result<Table> CreateTable(const std::string& name, const TableDefinition& definition);
  // Registers the metadata file `metadata_file` (a path or URI) as table `name`; returns the
  // metadata file registered (for a moved table, the rewritten one). A local or s3:// file is
  // read first: a moved table is refused (NotFound naming the missing manifest list and
  // allow_moved_paths) unless options.allow_moved_paths. AlreadyExists: `name` is taken (with
  // allow_moved_paths, checked before anything is rewritten; what was rewritten is deleted
  // again if registering fails). NotFound: no such metadata file (with allow_moved_paths, one
  // that cannot be read here).
  Result<std::string> RegisterTable(const std::string& name, const std::string& metadata_file,
                                    const RegisterTableOptions& options = {});
  // NotFound when there is no such table.
  Result<Table> LoadTable(const std::string& name) const;
  // A handle on table `name` without asking the catalog whether it exists (every call of a
  // Table loads it, and returns NotFound then). InvalidArgument: not "namespace.table".
  Result<Table> GetTable(const std::string& name) const;
  // Renames a table (both "namespace.table"). NotFound: no such table or target namespace;
  // AlreadyExists: the new name is taken.
  Status RenameTable(const std::string& from, const std::string& to);

  // The name as floe spells it, or InvalidArgument saying why `name` is not a table name
  // "namespace.table" (or a namespace name "a.b"). They ask no catalog: a program checks its
  // arguments before it connects.
  static Result<std::string> CheckTableName(const std::string& name);
  static Result<std::string> CheckNamespaceName(const std::string& name);
  // Tables of a namespace, as "namespace.table". NotFound: no such namespace.
  Result<std::vector<std::string>> ListTables(const std::string& ns) const;
  // Removes the table from the catalog; `purge` also deletes every file its metadata
  // references. NotFound when there is no such table.
  Status DropTable(const std::string& name, bool purge = false);

  struct Impl;

 private:
  friend class Views;  // floe/view.h: views in this connection's catalog
  explicit Connection(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace floe
