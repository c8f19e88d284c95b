// The commit routine every catalog backend shares, and the one thing a backend must supply for
// it: where the table's pointer lives and how to swap it.
//
// A commit, in this one place for SQLite, PostgreSQL and the storage catalog:
//   1. load the current pointer and the metadata document it names (none for a create);
//   2. ApplyCommit: check the requirements against that document and apply the updates;
//   3. write the new document under a new name with create-if-absent;
//   4. the backend's compare-and-swap from the old location to the new one.
// If the swap reports that the pointer moved, the new document is deleted (that attempt
// certainly failed) and the result is CommitConflict. If the backend cannot tell whether the
// swap happened, the result is CommitStateUnknown and the document stays: it may be live.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "floe/file_io.h"
#include "table_files/metadata_cache.h"

namespace floe {

struct PointerSwap {
  TableIdentifier id;
  std::string base_location;  // empty: the table is being created
  std::string new_location;
};

class PointerStore {
 public:
  virtual ~PointerStore() = default;

  // The location of the table's current metadata document; NotFound when there is no table.
  virtual Result<std::string> CurrentMetadataLocation(const TableIdentifier& id) = 0;

  // The location a commit starts from. By default the current one; a store whose swap itself
  // fails when the pointer moved (DocumentIsPointer) may answer with the last location it saw,
  // without asking storage: a stale base only costs a CommitConflict, after which it must ask.
  virtual Result<std::string> CommitBaseLocation(const TableIdentifier& id) { return CurrentMetadataLocation(id); }

  // The name of the document that will follow `base_location` (empty for a new table).
  virtual Result<std::string> NewMetadataLocation(const TableIdentifier& id, const TableMetadata& next,
                                                  const std::string& base_location) = 0;

  // True when writing the new document is itself the swap (the storage catalog: the name
  // v<N+1> can be created once). A failed write whose outcome is not known then leaves the
  // commit's state unknown, and a document that already exists means another commit won.
  virtual bool DocumentIsPointer() const { return false; }

  // Called when a commit's new document could not be created because another commit's
  // document already has its name (a store whose document is the pointer: that version
  // exists, and the store may start the table's next load from it). The commit fails with
  // CommitConflict.
  virtual void DocumentTaken(const TableIdentifier& /*id*/, const std::string& /*location*/) {}

  // Moves the pointer from swap.base_location to swap.new_location (creates it when the base is
  // empty). CommitConflict: the pointer was not at the base (or the table exists already, for a
  // create), nothing changed. CommitStateUnknown: the swap may have happened. Any other error:
  // nothing changed.
  virtual Status SwapPointer(const PointerSwap& swap) = 0;

  // All swaps or none. Backends without multi-table atomicity return NotSupported.
  virtual Status SwapPointers(const std::vector<PointerSwap>& swaps) = 0;

  // Where documents this store's tables point at are cached once parsed or written; nullptr
  // (the default) parses every load. Only a store whose document names are never reused may
  // have one (see metadata_cache.h).
  virtual MetadataCache* metadata_cache() { return nullptr; }
};

// The table as the pointer names it now.
Result<LoadedTable> LoadTableVia(PointerStore& store, FileIO& io, const TableIdentifier& id);
Result<SharedTable> LoadSharedTableVia(PointerStore& store, FileIO& io, const TableIdentifier& id);

// One table's commit (see the top of this file). Requirements holding AssertCreate on a table
// with no pointer create it. A document that won its swap enters the store's cache.
Result<LoadedTable> CommitTableVia(PointerStore& store, FileIO& io, const TableCommit& commit);
Result<SharedTable> CommitSharedTableVia(PointerStore& store, FileIO& io, const TableCommit& commit);

// Several tables' commits with one SwapPointers: all land or none does.
Result<std::vector<LoadedTable>> CommitTransactionVia(PointerStore& store, FileIO& io,
                                                      const std::vector<TableCommit>& commits);

}  // namespace floe
