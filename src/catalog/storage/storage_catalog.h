// The storage catalog: no catalog service, only the warehouse's files (Iceberg's "Hadoop" layout).
//
//   <warehouse>/<ns part>/.../<table>/metadata/v<N>.metadata.json   the table's versions
//   <warehouse>/<ns part>/.../<table>/metadata/version-hint.text    a hint for other engines
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
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "catalog/commit.h"
#include "catalog/intent_store.h"

namespace floe {

class StorageCatalog : public Catalog, public PointerStore, public IntentStore {
 public:
  StorageCatalog(std::string name, std::string warehouse, std::shared_ptr<FileIO> io);

  std::string name() const override { return name_; }
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
  // One table only: several tables cannot be committed atomically without a catalog service.
  Result<std::vector<LoadedTable>> CommitTransaction(const std::vector<TableCommit>& commits) override;

  // PointerStore.
  Result<std::string> CurrentMetadataLocation(const TableIdentifier& id) override;
  Result<std::string> NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                          const std::string& base_location) override;
  bool DocumentIsPointer() const override { return true; }
  Status SwapPointer(const PointerSwap& swap) override;
  Status SwapPointers(const std::vector<PointerSwap>& swaps) override;

  // IntentStore (storage_intents.cc): objects under <metadata folder>/floe-intents/.
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

  std::string name_;
  std::string warehouse_;
  std::shared_ptr<FileIO> io_;
  std::atomic<int64_t> intent_requests_ = 0;
};

}  // namespace floe
