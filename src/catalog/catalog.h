// The Catalog: namespaces, tables, and the compare-and-swap that makes a commit.
//
// The catalog holds each table's pointer to its current metadata document. CommitTable checks
// the commit's requirements against the current metadata, writes the new metadata document
// (a new, uniquely named file), and swaps the pointer from the old document to the new one as
// its last step. Outcomes:
//   ok                 the pointer now names the new document;
//   CommitConflict     the pointer moved or a requirement failed: nothing changed;
//   CommitStateUnknown the swap may or may not have happened (lost answer): reconcile by
//                      reloading; never delete the new document blindly.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"
#include "meta/table_update.h"
#include "meta/view_metadata.h"
#include "meta/view_update.h"

namespace floe {

using Namespace = std::vector<std::string>;  // multi-level: {"a", "b"} prints as "a.b"
using Properties = std::map<std::string, std::string>;

std::string NamespaceToString(const Namespace& ns);
Result<Namespace> ParseNamespace(std::string_view text);  // "a.b"; refuses empty parts, '/', "..", control chars

class MetadataCache;
class PointerStore;  // catalog/commit.h
class IntentStore;   // catalog/intent_store.h
class CommitScheduler;  // commit/commit_scheduler.h: carried for the commit engine, never called here

struct TableIdentifier {
  Namespace ns;
  std::string name;
  std::string ToString() const;  // "ns.table"
  static Result<TableIdentifier> Parse(std::string_view text);  // "ns.table" (last dot splits)
  friend bool operator==(const TableIdentifier&, const TableIdentifier&) = default;
  friend auto operator<=>(const TableIdentifier&, const TableIdentifier&) = default;
};

// The longest namespace level or table name, in bytes: each is one path component, and 255 is
// the longest file name common file systems (ext4, xfs, APFS, NTFS) and S3 tools allow.
inline constexpr size_t kMaxNameBytes = 255;
// The most levels a namespace may have. Every level is a folder under the warehouse and a
// parent the catalog lists, so depth bounds both the paths and the cost of listing.
inline constexpr size_t kMaxNamespaceDepth = 16;

// Checks a namespace part or table name before it becomes part of a path.
Status ValidateName(std::string_view name, std::string_view what);
// Every part of a namespace (at least one; no part may hold '.', which separates levels).
Status ValidateNamespace(const Namespace& ns);
Status ValidateIdentifier(const TableIdentifier& id);

// The errors every catalog gives for a missing or taken name, worded as Iceberg's own catalogs
// word them ("Table does not exist: ns.tbl"): REST clients and Iceberg's compatibility kit
// match on these messages, so every catalog and the REST server use only these.
std::unexpected<Error> NamespaceNotFound(std::string_view ns);
std::unexpected<Error> NamespaceAlreadyExists(std::string_view ns);
std::unexpected<Error> TableNotFound(std::string_view table);
std::unexpected<Error> TableAlreadyExists(std::string_view table);
// Views share their namespace's names with tables (Iceberg's wording for both clashes).
std::unexpected<Error> ViewNotFound(std::string_view view);
std::unexpected<Error> ViewAlreadyExists(std::string_view view);
std::unexpected<Error> TableWithSameNameExists(std::string_view name);  // a view may not take a table's name
std::unexpected<Error> ViewWithSameNameExists(std::string_view name);   // a table may not take a view's name
// True for an error made by NamespaceNotFound.
bool IsNamespaceNotFound(const Error& error);

struct LoadedTable {
  TableIdentifier id;
  std::string metadata_location;
  TableMetadata metadata;
};

// A loaded table whose metadata is shared, not copied: a catalog that caches parsed documents
// hands out the cached one. Copying (and later freeing) 10,000 snapshots takes milliseconds,
// more than a commit's own I/O, so the commit loop loads and commits through this form.
struct SharedTable {
  TableIdentifier id;
  std::string metadata_location;
  std::shared_ptr<const TableMetadata> metadata;
};

struct CreateTableRequest {
  Schema schema;
  PartitionSpec spec = PartitionSpec::Unpartitioned();
  SortOrder sort_order = SortOrder::Unsorted();
  std::optional<std::string> location = std::nullopt;  // default: <warehouse>/<ns>/<table>
  Properties properties = {};
  int format_version = 2;
};

struct TableCommit {
  TableIdentifier id;
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
  // Set when files the updates point to may still be being written (the commit loop writes a
  // snapshot's manifest list while the catalog writes the metadata document): every catalog
  // calls it, at most once, after its own writes and before the swap (before sending, for a
  // remote catalog), and does not swap unless it returns Ok. Not part of the commit's JSON.
  std::function<Status()> await_files = nullptr;
};

struct LoadedView {
  TableIdentifier id;
  std::string metadata_location;
  ViewMetadata metadata;
};

// A new view: its first version (schema id and version id are assigned by the catalog).
struct CreateViewRequest {
  Schema schema = Schema(0, {});  // a query's columns; none is a valid (if unhelpful) schema
  ViewVersion version;
  std::optional<std::string> location = std::nullopt;  // default: <warehouse>/<ns>/<view>
  Properties properties = {};
};

// One view's commit: the requirement checked against the current view, the updates applied
// with ViewMetadataBuilder, one compare-and-swap of the view's pointer.
struct ViewCommit {
  TableIdentifier id;
  std::vector<ViewRequirement> requirements;
  std::vector<ViewUpdate> updates;
};

// What a catalog can do beyond the Catalog interface. Each backend declares its own: callers
// decide by these answers, never by finding out which class a catalog is.
struct CatalogCapabilities {
  // A REST server commits for this catalog: it retries a lost swap, rebases appends and groups
  // the commits arriving together for a table itself, so a client neither paces its threads'
  // commits by what its own loads see, nor makes them take turns, nor groups them.
  bool server_orders_commits = false;
  // CommitTransaction swaps several tables' pointers at once (else NotSupported for several).
  bool multi_table_commits = false;
  // The store of the pointers this catalog swaps, for callers that steer its swap (where a
  // reload starts, which document names are taken); null when the swap happens elsewhere (a
  // REST server) or behind a wrapper that must see every commit (fault injection).
  PointerStore* pointer_store = nullptr;
  // Where the catalog records write intents (invariant 10); null when it keeps none.
  IntentStore* intent_store = nullptr;
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  virtual CatalogCapabilities capabilities() = 0;

  // How the commits made through this catalog meet the other commits of the process (pacing,
  // turns, group commit): supplied by whoever opened the catalog (CatalogOptions::commit_scheduler)
  // and handed by the commit engine to nothing but itself; null: commits run unscheduled. A
  // wrapping catalog answers with the wrapped one's.
  virtual CommitScheduler* commit_scheduler() const { return commit_scheduler_; }
  void SupplyCommitScheduler(CommitScheduler* scheduler) { commit_scheduler_ = scheduler; }

  virtual std::string name() const = 0;
  virtual std::shared_ptr<FileIO> io() const = 0;
  virtual std::string warehouse_location() const = 0;

  // Namespaces.
  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;  // {} = top level
  virtual Result<Properties> LoadNamespaceProperties(const Namespace& ns) = 0;
  virtual Status UpdateNamespaceProperties(const Namespace& ns, const Properties& updates,
                                           const std::vector<std::string>& removals) = 0;
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;
  virtual Status DropNamespace(const Namespace& ns) = 0;  // refuses a non-empty namespace

  // Tables.
  virtual Result<LoadedTable> CreateTable(const TableIdentifier& id, const CreateTableRequest& request) = 0;
  virtual Result<LoadedTable> LoadTable(const TableIdentifier& id) = 0;
  virtual Result<bool> TableExists(const TableIdentifier& id) = 0;
  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  // purge: also delete every file the table's metadata reaches.
  virtual Status DropTable(const TableIdentifier& id, bool purge) = 0;
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  virtual Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) = 0;

  // One table's commit: requirements checked, updates applied, one compare-and-swap.
  virtual Result<LoadedTable> CommitTable(const TableCommit& commit) = 0;
  // Several tables at once: all or nothing where the backend can (SQL: one transaction).
  virtual Result<std::vector<LoadedTable>> CommitTransaction(const std::vector<TableCommit>& commits) = 0;

  // Views (Iceberg's view spec). Tables and views share one name space per namespace: a view
  // may not take a table's name (TableWithSameNameExists) nor a table a view's. A catalog that
  // keeps no views answers NotSupported (the defaults).
  virtual Result<LoadedView> CreateView(const TableIdentifier& id, const CreateViewRequest& request);
  virtual Result<LoadedView> LoadView(const TableIdentifier& id);
  virtual Result<bool> ViewExists(const TableIdentifier& id);
  virtual Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns);
  virtual Status DropView(const TableIdentifier& id);
  virtual Status RenameView(const TableIdentifier& from, const TableIdentifier& to);
  virtual Result<LoadedView> RegisterView(const TableIdentifier& id, const std::string& metadata_location);
  // CommitConflict when the requirement failed or another commit moved the pointer first.
  virtual Result<LoadedView> CommitView(const ViewCommit& commit);

  // LoadTable and CommitTable without copying the metadata. The defaults call those two and
  // move the result; catalogs with a metadata cache override them.
  virtual Result<SharedTable> LoadSharedTable(const TableIdentifier& id);
  virtual Result<SharedTable> CommitSharedTable(const TableCommit& commit);

  // How many namespaces the catalog holds, counting no further than `stop_after` + 1: enough to
  // tell a limit is reached without a cost that grows with the catalog. The default walks
  // ListNamespaces (implied parents count); a SQL catalog counts its rows in one query.
  virtual Result<size_t> CountNamespaces(size_t stop_after);
  // Every namespace below `parent` at any depth ({}: the whole catalog), implied parents
  // included, sorted (so each comes before those below it). The default walks ListNamespaces,
  // a call per namespace; a SQL catalog reads its rows once.
  virtual Result<std::vector<Namespace>> ListNamespacesBelow(const Namespace& parent);

 private:
  CommitScheduler* commit_scheduler_ = nullptr;
};

struct CatalogOptions {
  std::string name = "default";
  std::optional<std::string> warehouse;  // overrides the URI's default warehouse
  // Relative metadata and data locations (as PyIceberg writes when its warehouse is relative)
  // are resolved against this folder instead of the working directory.
  std::optional<std::string> base_dir;
  // Parsed documents shared by several catalogs opened with the same URI and options (a
  // server's pool of connections); unset, a SQL catalog keeps a cache of its own.
  std::shared_ptr<MetadataCache> metadata_cache;
  // The storage every file goes through (a program's own FileIO); unset, the local file
  // system. With one set, the warehouse may be any URI that FileIO understands.
  std::shared_ptr<FileIO> io;
  // The scheduler of the commits made through the catalog (commit/commit_scheduler.h), which
  // must outlive it: a program passes the one object that holds its process's contention state
  // (contention/contention_scheduler.h) to every catalog it opens, so that their commits meet.
  // Unset: unscheduled commits.
  CommitScheduler* commit_scheduler = nullptr;
};

// Opens a catalog by URI:
//   sqlite:///path/catalog.db        SQL catalog on SQLite (the embedded default)
//   postgresql://user@host:port/db   SQL catalog on PostgreSQL
//   file:///path/warehouse           storage catalog (no catalog service)
//   http(s)://host:port[/prefix]     REST catalog client
// An empty URI means the default: sqlite:///./warehouse/catalog.db with warehouse ./warehouse.
Result<std::unique_ptr<Catalog>> OpenCatalog(const std::string& uri, const CatalogOptions& options = {});

}  // namespace floe
