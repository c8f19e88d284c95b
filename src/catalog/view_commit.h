// The view commit every catalog backend shares, and what a backend supplies for it: where a
// view's pointer lives and how to swap it.
//
// A view commit has the steps of a table's (catalog/commit.h): load the pointer and the document
// it names (none for a create), check the requirement and apply the updates
// (ViewMetadataBuilder), create the new document under a fresh name (create-if-absent), and
// compare-and-swap the pointer. A lost swap deletes the new document and is CommitConflict; a
// swap of unknown outcome keeps it (it may be live) and is CommitStateUnknown. There is no
// retry here: a view's only requirement is its uuid, so a caller that lost a race re-reads the
// view and decides again (a replace made on the new version is a new decision).
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/commit.h"
#include "floe/file_io.h"

namespace floe {

class ViewPointerStore {
 public:
  virtual ~ViewPointerStore() = default;
  // The location of the view's current document; ViewNotFound when there is no view.
  virtual Result<std::string> CurrentViewLocation(const TableIdentifier& id) = 0;
  // The name the document following `base_location` (empty: a new view) takes.
  virtual Result<std::string> NewViewLocation(const TableIdentifier& id, const ViewMetadata& next,
                                              const std::string& base_location) = 0;
  // True when creating the document is itself the swap (the storage catalog's v<N>).
  virtual bool ViewDocumentIsPointer() const { return false; }
  // Moves the pointer from swap.base_location (empty: creates the view) to swap.new_location.
  // CommitConflict when the pointer was elsewhere or the name is taken; nothing changed.
  virtual Status SwapViewPointer(const PointerSwap& swap) = 0;
};

// The updates that make a new view of `request` at `location`.
std::vector<ViewUpdate> NewViewUpdates(const CreateViewRequest& request, const std::string& location);

// Reads and parses the view document at `location` (plain or gzip JSON).
Result<ViewMetadata> ReadViewMetadataFile(FileIO& io, const std::string& location);

Result<LoadedView> LoadViewVia(ViewPointerStore& store, FileIO& io, const TableIdentifier& id);
// `create`: the view must not exist (ViewAlreadyExists otherwise); else it must.
Result<LoadedView> CommitViewVia(ViewPointerStore& store, FileIO& io, const ViewCommit& commit, bool create);

// "<location>/metadata/<NNNNN>-<uuid>.metadata.json", numbered after `base_location`: the names
// Java's catalogs give view documents.
std::string VersionedViewLocation(const ViewMetadata& next, const std::string& base_location);

}  // namespace floe
