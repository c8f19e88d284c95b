// Write intents in a catalog: where a catalog keeps the intent log of each write
// (table_files/intent_log.h has the interface and the order of events), and how maintenance
// reads them back. The catalogs implement IntentStore; CatalogIntentLog (intent_store.cc) turns
// one write's records into calls on it.
//
//   SQL catalogs (SQLite, PostgreSQL): rows of floe_write_intents in the catalog database,
//     (catalog_name, table_namespace, table_name, attempt_id, batch_number, created_ms, paths),
//     one row per recorded batch, paths one a line. Java's JDBC catalog and PyIceberg read only
//     iceberg_tables and iceberg_namespace_properties: they ignore it. The table is created
//     the first time a write records an intent.
//   The storage catalog: one object per batch, <metadata folder>/floe-intents/<attempt>-<batch>.txt
//     (a first line "floe-write-intent 1", then "created-ms <ms>", then one path a line),
//     written create-if-absent. Finding them lists that folder only, never the table's data.
//
// An intent is keyed by table and attempt id (a random UUID per write). Renaming a table
// leaves its intents under the old name, where only a sweep of that name finds them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "table_files/file_namer.h"
#include "table_files/intent_log.h"

namespace floe {

class IntentStore {
 public:
  virtual ~IntentStore() = default;
  // Durable when it returns Ok. `metadata_folder` is the table's
  // (table_files/metadata_location.h, MetadataFolder): the storage catalog keeps its objects below it.
  virtual Status RecordIntent(const TableIdentifier& id, const std::string& metadata_folder,
                              const std::string& attempt_id, int64_t batch_number,
                              const std::vector<std::string>& paths) = 0;
  // Removes batches [0, batches) of the attempt; a batch already gone is not an error. Called
  // only once the attempt landed or its files are deleted, so a store may defer the removal
  // (both catalogs do: SQL into the transaction of its next record, the storage catalog into
  // one DeleteFiles for many clears): until then the intent is stale, and the reclamation
  // drops it deleting nothing but names never used. Ok once the clear is accepted.
  virtual Status ClearIntent(const TableIdentifier& id, const std::string& metadata_folder,
                             const std::string& attempt_id, int64_t batches) = 0;
  // ClearIntent for several attempts, (attempt id, batches) each: the SQL catalog does it in
  // one transaction.
  virtual Status ClearIntents(const TableIdentifier& id, const std::string& metadata_folder,
                              const std::vector<std::pair<std::string, int64_t>>& attempts) {
    for (const auto& [attempt_id, batches] : attempts)
      FLOE_RETURN_IF_ERROR(ClearIntent(id, metadata_folder, attempt_id, batches));
    return Ok();
  }
  // Every batch recorded for the table. A batch that cannot be read (a corrupt object) is an
  // error naming it.
  virtual Result<std::vector<WriteIntentBatch>> ListIntents(const TableIdentifier& id,
                                                            const std::string& metadata_folder) = 0;
  // Storage requests made for intents so far (records, clears, listings, reads), for figures.
  virtual int64_t intent_requests() const { return 0; }
};

// The catalog's intent store, or nullptr when it keeps none (REST client, wrappers).
IntentStore* IntentStoreOf(Catalog& catalog);

// A namer for one new write to table `id`: recording into the catalog's intent store under a
// fresh attempt id, or not recording when the catalog keeps none or the table turned them off.
// Its first record also reserves the names of the commit's manifests and manifest list.
std::unique_ptr<FileNamer> NewWriteNamer(Catalog& catalog, const TableIdentifier& id, const TableMetadata& table);
// The same without those reservations: for a writer that names only files of its own (a group
// commit naming the manifest lists it rebases).
std::unique_ptr<FileNamer> NewIntentNamer(Catalog& catalog, const TableIdentifier& id, const TableMetadata& table);

}  // namespace floe
