// The storage catalog: no catalog service, only the warehouse's files (Iceberg's "Hadoop" layout).
//
//   <warehouse>/<ns part>/.../<table>/metadata/v<N>.metadata.json   the table's versions
//   <warehouse>/<ns part>/.../<table>/metadata/version-hint.text    a hint for other engines
//   <warehouse>/<ns part>/.../<view>/metadata/v<N>.view.json       a view's versions (storage_views.cc)
//   <warehouse>/<ns part>/.../.namespace/v<N>.json                  a namespace's properties
//
// The table's current version is the highest N present; the pointer *is* the set of names, so
// a commit is the create-if-absent of v<N+1>.metadata.json: of two writers that started from
// v<N>, the file system (or S3's PUT If-None-Match: *) lets exactly one create it.
// version-hint.text is rewritten after a commit. floe takes it only as a place to start
// looking, never as the answer: a load reads the hint N, asks whether v<N> and v<N+1> exist
// (together), walks forward while versions exist, and lists metadata/ only when the hint is
// missing or names a missing version. On S3 a load is then a GET and two parallel HEADs, where a
// listing would grow with the table's history.
//
// On S3 the catalog also remembers, per table, the last version it committed or found and that
// object's ETag, and keeps the parsed documents (a MetadataCache; storage_versions.cc):
//   - a load asks only whether v<N> still has that ETag and whether v<N+1> exists (two HEADs in
//     parallel, one round trip); unchanged and not followed, the cached document is the table;
//     the names v<N> come back after a drop, so a changed ETag drops the cached document;
//   - a commit starts from the remembered version without asking (CommitBaseLocation): the PUT
//     If-None-Match of v<N+1> fails if anyone moved the table, and the conflict makes the next
//     attempt ask;
//   - a commit that lost v<N+1> to another writer remembers that v<N+1> exists: the next load
//     GETs it at once with a HEAD of v<N+2> (one round trip, no hint read);
//   - the hint is replaced by one plain PUT (atomic on S3) in the background, after the commit
//     landed, off the commit's path; the next hint write or the catalog's end waits for it.
//
// A namespace exists when it has a properties file or holds a table or a namespace below it.
// Its properties are versioned the same way (create-if-absent of v<N+1>.json), so concurrent
// property updates never lose one another. Names beginning with '.' are refused (they would
// collide with ".namespace" and with temporary files).
//
// What this catalog cannot do is listed in docs/catalogs.md: no atomic multi-table commit,
// no rename, listing costs a walk of the warehouse, a drop racing a commit can leave a table
// behind.
#pragma once

#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/catalog.h"
#include "catalog/commit.h"
#include "catalog/intent_store.h"
#include "catalog/view_commit.h"
#include "table_files/metadata_cache.h"

namespace floe {

class S3FileIO;

class StorageCatalog : public Catalog, public PointerStore, public IntentStore, public ViewPointerStore {
 public:
  StorageCatalog(std::string name, std::string warehouse, std::shared_ptr<FileIO> io);
  ~StorageCatalog() override;

  std::string name() const override { return name_; }
  // One pointer object per table: no swap of several at once.
  CatalogCapabilities capabilities() override {
    return {.server_orders_commits = false, .multi_table_commits = false, .pointer_store = this, .intent_store = this};
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
  Result<SharedTable> LoadSharedTable(const TableIdentifier& id) override;
  Result<bool> TableExists(const TableIdentifier& id) override;
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  // Without purge: deletes the version documents and the hint (the table's catalog entry);
  // manifests and data stay. With purge: also everything the metadata reaches.
  Status DropTable(const TableIdentifier& id, bool purge) override;
  // NotSupported: a table is its folder, and moving a folder is neither atomic on object
  // stores nor safe against a commit landing in the old folder meanwhile.
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  // Copies the document to <table>/metadata/v1.metadata.json (create-if-absent).
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) override;

  Result<LoadedTable> CommitTable(const TableCommit& commit) override;
  Result<SharedTable> CommitSharedTable(const TableCommit& commit) override;
  // One table only: several tables cannot be committed atomically without a catalog service.
  Result<std::vector<LoadedTable>> CommitTransaction(const std::vector<TableCommit>& commits) override;

  // Views (storage_views.cc): committed as tables are, by the create-if-absent of v<N+1>. A
  // view and a table of one name would share a folder: each creation checks for the other
  // first (a creation racing the other kind's can still land both; a SQL catalog cannot).
  Result<LoadedView> CreateView(const TableIdentifier& id, const CreateViewRequest& request) override;
  Result<LoadedView> LoadView(const TableIdentifier& id) override;
  Result<bool> ViewExists(const TableIdentifier& id) override;
  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Status DropView(const TableIdentifier& id) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;  // NotSupported, as tables
  Result<LoadedView> RegisterView(const TableIdentifier& id, const std::string& metadata_location) override;
  Result<LoadedView> CommitView(const ViewCommit& commit) override;
  Result<std::string> CurrentViewLocation(const TableIdentifier& id) override;
  Result<std::string> NewViewLocation(const TableIdentifier& id, const ViewMetadata& next,
                                      const std::string& base_location) override;
  bool ViewDocumentIsPointer() const override { return true; }
  Status SwapViewPointer(const PointerSwap&) override { return Ok(); }  // the document's creation was the swap

  // PointerStore.
  Result<std::string> CurrentMetadataLocation(const TableIdentifier& id) override;
  Result<std::string> CommitBaseLocation(const TableIdentifier& id) override;
  Result<std::string> NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                          const std::string& base_location) override;
  bool DocumentIsPointer() const override { return true; }
  // Another commit created `location` first: that version exists, and the next load of the
  // table starts from it (storage_versions.cc).
  void DocumentTaken(const TableIdentifier& id, const std::string& location) override;
  Status SwapPointer(const PointerSwap& swap) override;
  Status SwapPointers(const std::vector<PointerSwap>& swaps) override;
  MetadataCache* metadata_cache() override;

  // Returns once the version hint of this catalog's last commit is written (a creation waits
  // for it itself, so that a table is complete when CreateTable returns).
  void WaitForHintWrite();

  // IntentStore (storage_intents.cc): objects under <metadata folder>/floe-intents/. A clear is
  // deferred: its objects are deleted with later clears in one DeleteFiles (of up to
  // kMaxDeferredIntentObjects), by the next ListIntents or ClearIntents, or when the catalog
  // closes. A clear comes only after its attempt landed or its files were deleted, so an
  // object still there meanwhile (or forever, if the process is killed) is a stale intent
  // whose files are all referenced or gone: the reclamation drops it, deleting nothing.
  static constexpr size_t kMaxDeferredIntentObjects = 64;
  Status RecordIntent(const TableIdentifier& id, const std::string& metadata_folder, const std::string& attempt_id,
                      int64_t batch_number, const std::vector<std::string>& paths) override;
  Status ClearIntent(const TableIdentifier& id, const std::string& metadata_folder, const std::string& attempt_id,
                     int64_t batches) override;
  Status ClearIntents(const TableIdentifier& id, const std::string& metadata_folder,
                      const std::vector<std::pair<std::string, int64_t>>& attempts) override;
  Result<std::vector<WriteIntentBatch>> ListIntents(const TableIdentifier& id,
                                                    const std::string& metadata_folder) override;
  int64_t intent_requests() const override { return intent_requests_; }

  std::string TableFolder(const TableIdentifier& id) const;
  std::string NamespaceFolder(const Namespace& ns) const;

 private:
  struct Listing;
  // Every namespace and table at or below `ns` ({} = the whole warehouse).
  Result<Listing> Scan(const Namespace& ns);
  // The newest properties file of a namespace and its version; version 0 when there is none.
  Result<std::pair<int64_t, std::string>> CurrentPropertiesFile(const Namespace& ns);
  Status CheckName(const Namespace& ns, const std::string* table) const;

  // Version finding (storage_versions.cc).
  // A version of a table's document this catalog wrote or found, and the ETag S3 gave it; ""
  // when only its existence is known (another writer's create took the name, DocumentTaken).
  struct KnownVersion {
    int64_t version = 0;
    std::string location;
    std::string etag;
  };
  // Whether the object at `path` exists, and its ETag on S3 ("" elsewhere); nullopt: missing.
  Result<std::optional<std::string>> Probe(const std::string& path);
  // On S3: the document at `path` read whole and parsed into the cache; its ETag, or nullopt
  // when it is missing.
  Result<std::optional<std::string>> FetchDocument(const std::string& path);
  // The newest version from v<from> on (which exists with `etag`), HEAD by HEAD; nullopt
  // when the walk is longer than a few versions (the listing is cheaper then).
  Result<std::optional<KnownVersion>> WalkForward(const TableIdentifier& id, int64_t from, std::string etag);
  // The version found is the table's: remembered, and its cached document dropped unless it
  // is the one remembered before (same name, same ETag).
  std::string Settle(const TableIdentifier& id, KnownVersion found, const std::optional<KnownVersion>& before);
  std::optional<KnownVersion> Known(const TableIdentifier& id);
  void Forget(const TableIdentifier& id);
  // After a commit: its document is the version to start from next, or (failed) nothing is.
  void AfterCommit(const TableIdentifier& id, const std::string* landed_location);

  std::string name_;
  std::string warehouse_;
  std::shared_ptr<FileIO> io_;
  std::shared_ptr<S3FileIO> s3_;  // the S3 FileIO behind io_ when the warehouse is on S3
  MetadataCache cache_;
  std::mutex known_mu_;
  std::map<TableIdentifier, KnownVersion> known_;
  std::mutex hint_mu_;
  std::future<void> hint_write_;
  std::atomic<int64_t> intent_requests_ = 0;
  // Deletes `objects` and the deferred clears in one DeleteFiles; the deferred ones are kept
  // for a later try when it fails.
  Status DeleteIntentObjects(std::vector<std::string> objects);
  std::mutex intent_mu_;
  std::vector<std::string> deferred_intent_clears_;  // intent objects (intent_mu_)
};

}  // namespace floe
