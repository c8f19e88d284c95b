// The SQL catalog: table pointers in a SQL database, shared with Iceberg's JDBC catalog and
// PyIceberg's SqlCatalog (same tables, same columns, same meaning of each row).
//
//   iceberg_tables(catalog_name, table_namespace, table_name, metadata_location,
//                  previous_metadata_location [, iceberg_type])
//   iceberg_namespace_properties(catalog_name, namespace, property_key, property_value)
//
// A namespace is stored as its parts joined by '.'. It exists when it has a property row (a
// namespace created with no properties gets the row exists=true, as PyIceberg and Java write)
// or holds a table, or when a namespace below it does. The commit's swap is
//   UPDATE iceberg_tables SET metadata_location = new, previous_metadata_location = old
//   WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = old
// and it wins only if exactly one row changed. A multi-table commit runs all its swaps in one
// database transaction.
//
// The iceberg_type column (Java's JDBC catalog schema V1) tells tables ('TABLE', or NULL in rows
// written before the column existed) from views ('VIEW'). A database without it holds only
// tables; the first view created adds it (ALTER TABLE iceberg_tables ADD COLUMN iceberg_type
// VARCHAR(5), Java's own V0-to-V1 step). Tables and views share one name per namespace (the
// primary key): a view may not take a table's name, nor the reverse (sql_views.cc).
#pragma once

#include <atomic>
#include <memory>
#include <functional>
#include <mutex>
#include <string>

#include "catalog/catalog.h"
#include "catalog/commit.h"
#include "catalog/intent_store.h"
#include "catalog/sql/sql_connection.h"
#include "catalog/view_commit.h"

namespace floe {

class SqlCatalog : public Catalog, public PointerStore, public IntentStore, public ViewPointerStore {
 public:
  // Creates the two tables if they are absent (with the DDL PyIceberg uses) and checks for the
  // optional iceberg_type column.
  static Result<std::unique_ptr<SqlCatalog>> Open(std::unique_ptr<SqlConnection> connection, std::string name,
                                                  std::string warehouse, std::shared_ptr<FileIO> io,
                                                  std::shared_ptr<MetadataCache> metadata_cache = nullptr);

  std::string name() const override { return name_; }
  CatalogCapabilities capabilities() override {
    return {.server_orders_commits = false, .multi_table_commits = true, .pointer_store = this, .intent_store = this};
  }
  std::shared_ptr<FileIO> io() const override { return io_; }
  std::string warehouse_location() const override { return warehouse_; }

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<size_t> CountNamespaces(size_t stop_after) override;
  Result<std::vector<Namespace>> ListNamespacesBelow(const Namespace& parent) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Status UpdateNamespaceProperties(const Namespace& ns, const Properties& updates,
                                   const std::vector<std::string>& removals) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<LoadedTable> CreateTable(const TableIdentifier& id, const CreateTableRequest& request) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  Result<bool> TableExists(const TableIdentifier& id) override;
  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, const std::string& metadata_location) override;

  Result<LoadedTable> CommitTable(const TableCommit& commit) override;
  Result<std::vector<LoadedTable>> CommitTransaction(const std::vector<TableCommit>& commits) override;
  Result<SharedTable> LoadSharedTable(const TableIdentifier& id) override;
  Result<SharedTable> CommitSharedTable(const TableCommit& commit) override;

  // Views (sql_views.cc).
  Result<LoadedView> CreateView(const TableIdentifier& id, const CreateViewRequest& request) override;
  Result<LoadedView> LoadView(const TableIdentifier& id) override;
  Result<bool> ViewExists(const TableIdentifier& id) override;
  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Status DropView(const TableIdentifier& id) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Result<LoadedView> RegisterView(const TableIdentifier& id, const std::string& metadata_location) override;
  Result<LoadedView> CommitView(const ViewCommit& commit) override;
  // ViewPointerStore.
  Result<std::string> CurrentViewLocation(const TableIdentifier& id) override;
  Result<std::string> NewViewLocation(const TableIdentifier& id, const ViewMetadata& next,
                                      const std::string& base_location) override;
  Status SwapViewPointer(const PointerSwap& swap) override;

  // PointerStore: used by the shared commit routine; public so benchmarks can time the bare swap.
  Result<std::string> CurrentMetadataLocation(const TableIdentifier& id) override;
  Result<std::string> NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                          const std::string& base_location) override;
  Status SwapPointer(const PointerSwap& swap) override;
  Status SwapPointers(const std::vector<PointerSwap>& swaps) override;
  // Documents are named <version>-<uuid>.metadata.json, never reused: safe to cache.
  MetadataCache* metadata_cache() override { return metadata_cache_.get(); }

  // Clears the intents whose clear was deferred (sql_intents.cc), best effort.
  ~SqlCatalog() override;

  // IntentStore (sql_intents.cc): rows of floe_write_intents. A clear is deferred: its DELETE
  // runs in the transaction of the next record (one durable write then covers a write's
  // record and the previous write's clear), before the next listing, once 64 are waiting, or
  // when the catalog is closed. A deferred clear is never needed for safety: an intent whose
  // files are referenced or deleted reclaims nothing.
  Status RecordIntent(const TableIdentifier& id, const std::string& metadata_folder, const std::string& attempt_id,
                      int64_t batch_number, const std::vector<std::string>& paths) override;
  Status ClearIntent(const TableIdentifier& id, const std::string& metadata_folder, const std::string& attempt_id,
                     int64_t batches) override;
  Status ClearIntents(const TableIdentifier& id, const std::string& metadata_folder,
                      const std::vector<std::pair<std::string, int64_t>>& attempts) override;
  Result<std::vector<WriteIntentBatch>> ListIntents(const TableIdentifier& id,
                                                    const std::string& metadata_folder) override;
  int64_t intent_requests() const override { return intent_requests_; }

  const std::string& database() const { return database_; }

 private:
  SqlCatalog(std::unique_ptr<SqlConnection> connection, std::string name, std::string warehouse,
             std::shared_ptr<FileIO> io);

  // The helpers below expect mu_ to be held.
  Result<std::vector<std::string>> AllNamespacesLocked();
  Result<bool> NamespaceExistsLocked(const std::string& ns);
  Result<bool> TableRowExistsLocked(const TableIdentifier& id);
  // What holds the name `id`: nullopt (nothing), "TABLE" or "VIEW".
  Result<std::optional<std::string>> NameTakenByLocked(const TableIdentifier& id);
  // Adds the iceberg_type column when the database lacks it (another process may have).
  Status EnsureTypeColumnLocked();
  // Re-reads whether the column exists, when it was absent at Open.
  Status RefreshTypeColumnLocked();
  Status RunSwapLocked(const PointerSwap& swap);
  // Runs `body` inside a write transaction; rolls back when it fails.
  Status InWriteTransaction(const std::function<Status()>& body);

  std::string TypeFilter() const;
  // Creates floe_write_intents on first use (mu_ held).
  Status EnsureIntentTableLocked();

  std::mutex mu_;  // one statement at a time on the connection
  std::unique_ptr<SqlConnection> conn_;
  std::string name_;
  std::string warehouse_;
  std::shared_ptr<FileIO> io_;
  std::string database_;
  bool has_type_column_ = false;
  std::shared_ptr<MetadataCache> metadata_cache_;
  bool intent_table_ready_ = false;
  std::vector<std::string> deferred_clears_;  // attempt ids (mu_)
  // Deletes the rows of deferred_clears_ (mu_ held, inside a transaction or not).
  Status DeleteDeferredClearsLocked();
  std::atomic<int64_t> intent_requests_ = 0;
};

}  // namespace floe
