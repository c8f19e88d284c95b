// RestCatalog: the Catalog interface over an Iceberg REST catalog server (floe serve, or any
// server that follows the spec).
//
// Opening it reads GET /v1/config: the server's overrides give the warehouse and the path
// prefix; `idempotency-key-lifetime` says the server honours Idempotency-Key. Then:
//   - every mutating request carries a fresh Idempotency-Key (when advertised), and a request
//     whose answer was lost on the network is sent again with the same key, so the server
//     answers with the first outcome instead of applying it twice;
//   - 409 on a commit is CommitConflict (the commit engine reloads and retries), 404 is
//     NotFound, 400/422 InvalidArgument, and a 5xx or a lost answer on a commit is
//     CommitStateUnknown (the engine reconciles; nothing is cleaned up);
//   - the server writes metadata documents; data and manifest files are written by the client
//     through its own FileIO (local paths: client and server share a file system).
//
// URI: http(s)://host:port[/base]?warehouse=...&token=...&credential=ID:SECRET
//   token       a bearer token (also $FLOE_REST_TOKEN)
//   credential  client_id:client_secret, exchanged at /v1/oauth/tokens (also $FLOE_REST_CREDENTIAL)
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/rest/table_revalidation.h"
#include "table_files/metadata_cache.h"

namespace httplib {
class Client;
}

namespace floe {

class RestCatalog : public Catalog {
 public:
  static Result<std::unique_ptr<RestCatalog>> Open(const std::string& uri, const CatalogOptions& options);
  ~RestCatalog() override;

  std::string name() const override { return name_; }
  // The server swaps (with its own retry, append rebase and group commit) and keeps the
  // intents of the documents it writes; the client's own files are named without one.
  CatalogCapabilities capabilities() override {
    return {.server_orders_commits = true, .multi_table_commits = true, .pointer_store = nullptr, .intent_store = nullptr};
  }
  std::shared_ptr<FileIO> io() const override { return io_; }
  std::string warehouse_location() const override { return warehouse_; }

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const Properties& updates,
                                   const std::vector<std::string>& removals) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<LoadedTable> CreateTable(const TableIdentifier& id, const CreateTableRequest& request) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  // Loads revalidate the copy held from the last load or commit (If-None-Match; a 304 reuses it).
  Result<SharedTable> LoadSharedTable(const TableIdentifier& id) override;
  // The table's current state only: its document with just the snapshots its branches and tags
  // point at (the spec's snapshots=refs), for a caller that reads the current snapshot and
  // never walks history. Smaller to send and parse; a caller that needs history loads again.
  Result<SharedTable> LoadCurrentState(const TableIdentifier& id);
  Result<bool> TableExists(const TableIdentifier& id) override;
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) override;

  // Views over the spec's view routes (rest_views.cc).
  Result<LoadedView> CreateView(const TableIdentifier& id, const CreateViewRequest& request) override;
  Result<LoadedView> LoadView(const TableIdentifier& id) override;
  Result<bool> ViewExists(const TableIdentifier& id) override;
  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Status DropView(const TableIdentifier& id) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedView> RegisterView(const TableIdentifier& id, const std::string& metadata_location) override;
  Result<LoadedView> CommitView(const ViewCommit& commit) override;

  Result<LoadedTable> CommitTable(const TableCommit& commit) override;
  // The answer's document is kept as the copy the next load revalidates.
  Result<SharedTable> CommitSharedTable(const TableCommit& commit) override;
  Result<std::vector<LoadedTable>> CommitTransaction(const std::vector<TableCommit>& commits) override;

  bool idempotency_supported() const { return idempotency_; }

 private:
  RestCatalog() = default;

  struct Reply {
    int status = 0;
    std::string body;
    std::string etag;  // the ETag header, when the server sent one
  };
  enum class Kind { kRead, kWrite, kCommit };
  // Sends one request; transport failures are retried when that is safe (reads, and writes that
  // carry an Idempotency-Key). An HTTP error status is a Reply, not an error.
  Result<Reply> Send(const std::string& method, const std::string& path, const std::string& body, Kind kind,
                     const std::string& content_type = "application/json", const std::string& if_none_match = "");
  // A load-table or commit-table answer's table. The document is parsed reusing the snapshots
  // of the table's last document this client parsed (metadata_reuse.h): a commit's answer
  // repeats the whole history, and only what it added is parsed.
  // `documents` is documents_ or refs_documents_ (a refs-only document shares few snapshots).
  Result<SharedTable> TableFromAnswer(const TableIdentifier& id, const std::string& body, const std::string& what,
                                      MetadataCache& documents);
  // A load-table in either form, revalidating the copy held (table_revalidation.h).
  Result<SharedTable> LoadShared(const TableIdentifier& id, bool refs_only);
  // The Error for a non-2xx reply.
  Error ErrorFor(const Reply& reply, Kind kind, const std::string& what) const;
  Result<nlohmann::json> ParseBody(const Reply& reply, const std::string& what) const;

  std::string NamespacePath(const Namespace& ns) const;
  std::string TablePath(const TableIdentifier& id) const;
  std::string ViewPath(const TableIdentifier& id) const;

  std::string name_;
  std::string uri_;
  std::string base_;    // path before /v1 (usually empty)
  std::string prefix_;  // "/v1/<prefix>" or "/v1"
  std::string warehouse_;
  std::string token_;
  bool idempotency_ = false;
  std::shared_ptr<FileIO> io_;
  std::mutex mu_;
  std::unique_ptr<httplib::Client> http_;
  RestTableCopies copies_;
  // Documents parsed from answers, for reuse: whole ones, and refs-only ones apart.
  std::unique_ptr<MetadataCache> documents_ = std::make_unique<MetadataCache>();
  std::unique_ptr<MetadataCache> refs_documents_ = std::make_unique<MetadataCache>(2);
};

}  // namespace floe
