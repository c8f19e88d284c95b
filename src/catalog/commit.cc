#include "catalog/commit.h"

#include <set>

#include "catalog/document_namer.h"
#include "meta/metadata_builder.h"
#include "meta/metadata_writer.h"
#include "meta/table_properties.h"
#include "table_files/metadata_document.h"
#include "table_files/metadata_location.h"
#include "util/clock.h"

namespace floe {
namespace {

bool RequiresCreate(const std::vector<TableRequirement>& requirements) {
  for (const auto& r : requirements) {
    if (std::holds_alternative<AssertCreate>(r)) return true;
  }
  return false;
}

// A commit prepared up to its swap: the new document is written, nothing points at it yet.
struct Prepared {
  PointerSwap swap;
  std::shared_ptr<TableMetadata> metadata;
  std::shared_ptr<const MetadataText> document;
  // Documents the new metadata log no longer lists, deleted once the swap landed when the
  // table asks for it (write.metadata.delete-after-commit.enabled, as Iceberg's writers do).
  std::vector<std::string> dropped_documents;
};

// The base's logged documents when the table may delete dropped ones after a commit.
std::vector<std::string> LoggedDocuments(const TableMetadata* base) {
  std::vector<std::string> out;
  if (!base || !base->properties.contains(props::kMetadataDeleteAfterCommit)) return out;
  for (const auto& e : base->metadata_log) out.push_back(e.metadata_file);
  return out;
}

std::vector<std::string> DroppedDocuments(const std::vector<std::string>& logged, const TableMetadata& next) {
  if (logged.empty() || !next.BooleanProperty(props::kMetadataDeleteAfterCommit, false).value_or(false)) return {};
  std::set<std::string> kept;
  for (const auto& e : next.metadata_log) kept.insert(e.metadata_file);
  std::vector<std::string> out;
  for (const auto& path : logged)
    if (!kept.contains(path)) out.push_back(path);
  return out;
}

// The base document as the commit's own copy. When only the cache and this commit hold it, it
// leaves the cache and is moved, not copied: a long history costs milliseconds to copy and as
// many to free, and the commit's document takes its place in the cache when it lands.
TableMetadata OwnedBase(PointerStore& store, const std::string& location, std::shared_ptr<const TableMetadata> base) {
  MetadataCache* cache = store.metadata_cache();
  if (base.use_count() == 1 || (cache && cache->TakeIfUnshared(location, base))) {
    // Sole owner; the document was created non-const (see ReadMetadataShared and Landed).
    return std::move(const_cast<TableMetadata&>(*base));
  }
  return *base;
}

// Steps 1-3 of a commit: load, apply, write the new document.
Result<Prepared> Prepare(PointerStore& store, FileIO& io, const TableCommit& commit) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(commit.id));
  std::string base_location;
  std::shared_ptr<const TableMetadata> base;
  auto current = store.CommitBaseLocation(commit.id);
  if (current) {
    base_location = *current;
    FLOE_ASSIGN_OR_RETURN(base, ReadMetadataShared(io, store.metadata_cache(), base_location));
  } else if (current.error().kind != ErrorKind::kNotFound || !RequiresCreate(commit.requirements)) {
    return std::unexpected(current.error());
  }

  for (const auto& r : commit.requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, base.get()));
  // The base's text, when this process wrote it: the new document copies its snapshots.
  std::vector<std::string> logged = LoggedDocuments(base.get());
  std::shared_ptr<const MetadataText> base_text;
  if (MetadataCache* cache = store.metadata_cache(); cache && base) base_text = cache->FindText(base_location);
  Result<TableMetadata> applied = base ? ApplyCommit(OwnedBase(store, base_location, std::move(base)), base_location,
                                                     {}, commit.updates, NowMillis())
                                       : ApplyCommit(nullptr, base_location, {}, commit.updates, NowMillis());
  FLOE_ASSIGN_OR_RETURN(TableMetadata next, std::move(applied));
  FLOE_ASSIGN_OR_RETURN(std::string new_location, store.NewMetadataLocation(commit.id, next, base_location));
  // A document written before a separate swap is named in the commit's write intent first
  // (catalog/document_namer.h): the same folder and version, a recorded uuid.
  FileNamer* names = store.DocumentIsPointer() ? nullptr : DocumentNamerFor(commit.id);
  const int64_t version = ParseMetadataVersion(new_location);
  const size_t slash = new_location.rfind('/');
  if (names && version >= 0 && slash != std::string::npos) {
    FLOE_ASSIGN_OR_RETURN(new_location,
                          names->NewPath(new_location.substr(0, slash), VersionedMetadataPrefix(version), kMetadataSuffix));
  }

  std::shared_ptr<const MetadataText> document = WriteTableMetadataText(next, base_text.get());
  // Where creating the document is the swap, the files it points to must be complete first.
  if (store.DocumentIsPointer() && commit.await_files) FLOE_RETURN_IF_ERROR(commit.await_files());
  auto written = io.CreateIfAbsent(new_location, document->text);
  if (!written) {
    const Error& e = written.error();
    if (e.kind == ErrorKind::kAlreadyExists) {
      // Someone else's document has this name. It is not ours to delete.
      store.DocumentTaken(commit.id, new_location);
      return CommitConflict("commit to " + commit.id.ToString() + " lost: " + new_location +
                            " was created by another commit first");
    }
    if (store.DocumentIsPointer()) {
      return CommitStateUnknown("commit to " + commit.id.ToString() + ": writing " + new_location +
                                " failed and it may or may not exist: " + e.message);
    }
    return std::unexpected(e.WithContext("writing table metadata for " + commit.id.ToString()));
  }
  std::vector<std::string> dropped = DroppedDocuments(logged, next);
  return Prepared{PointerSwap{commit.id, base_location, new_location},
                  std::make_shared<TableMetadata>(std::move(next)), std::move(document), std::move(dropped)};
}

// A swapped document is the table's current state: the next load and the next commit's base.
SharedTable Landed(PointerStore& store, FileIO& io, Prepared& prepared) {
  for (const auto& path : prepared.dropped_documents) (void)io.Delete(path);
  std::shared_ptr<const TableMetadata> metadata = std::move(prepared.metadata);
  if (MetadataCache* cache = store.metadata_cache()) {
    cache->Insert(prepared.swap.new_location, metadata, prepared.document->text.size(), prepared.document);
  }
  return SharedTable{prepared.swap.id, prepared.swap.new_location, std::move(metadata)};
}

// A LoadedTable owns its metadata: copy it unless nothing else holds it.
LoadedTable Unshare(SharedTable&& table) {
  LoadedTable out{std::move(table.id), std::move(table.metadata_location), {}};
  if (table.metadata.use_count() == 1) {
    // Sole owner: the object was created non-const (make_shared<TableMetadata>) or parsed for
    // this call alone, so moving out of it is safe.
    out.metadata = std::move(const_cast<TableMetadata&>(*table.metadata));
  } else {
    out.metadata = *table.metadata;
  }
  return out;
}

// After a swap that certainly did not happen, the new documents are garbage.
void DeleteQuietly(FileIO& io, const std::vector<Prepared>& prepared) {
  for (const auto& p : prepared) (void)io.Delete(p.swap.new_location);
}

// The commit's files that may still be in flight, before a swap by pointer (a store whose
// document is the pointer awaited them in Prepare, before creating it).
Status AwaitFiles(PointerStore& store, const TableCommit& commit) {
  if (!commit.await_files || store.DocumentIsPointer()) return Ok();
  return commit.await_files();
}

// What a failed swap means for the documents written for it. A lost document holds the same
// history as the winner's, but for its own change: the cache keeps it so that the reload
// parses only what the winner added (metadata_reuse.h).
Error FinishFailedSwap(PointerStore& store, FileIO& io, std::vector<Prepared>& prepared, const Error& error) {
  if (error.kind == ErrorKind::kCommitStateUnknown) return error;  // they may be live: keep them
  DeleteQuietly(io, prepared);
  if (MetadataCache* cache = store.metadata_cache()) {
    for (Prepared& p : prepared) cache->KeepLostAttempt(p.swap.new_location, std::move(p.metadata), p.document);
  }
  return error;
}

}  // namespace

Result<SharedTable> LoadSharedTableVia(PointerStore& store, FileIO& io, const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateIdentifier(id));
  FLOE_ASSIGN_OR_RETURN(std::string location, store.CurrentMetadataLocation(id));
  FLOE_ASSIGN_OR_RETURN(auto metadata, ReadMetadataShared(io, store.metadata_cache(), location));
  return SharedTable{id, std::move(location), std::move(metadata)};
}

Result<LoadedTable> LoadTableVia(PointerStore& store, FileIO& io, const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(SharedTable table, LoadSharedTableVia(store, io, id));
  return Unshare(std::move(table));
}

Result<SharedTable> CommitSharedTableVia(PointerStore& store, FileIO& io, const TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(Prepared prepared, Prepare(store, io, commit));
  if (Status files = AwaitFiles(store, commit); !files) {
    DeleteQuietly(io, {prepared});
    return std::unexpected(files.error());
  }
  auto swapped = store.SwapPointer(prepared.swap);
  if (!swapped) {
    std::vector<Prepared> lost{std::move(prepared)};
    return std::unexpected(FinishFailedSwap(store, io, lost, swapped.error()));
  }
  return Landed(store, io, prepared);
}

Result<LoadedTable> CommitTableVia(PointerStore& store, FileIO& io, const TableCommit& commit) {
  FLOE_ASSIGN_OR_RETURN(SharedTable table, CommitSharedTableVia(store, io, commit));
  return Unshare(std::move(table));
}

Result<std::vector<LoadedTable>> CommitTransactionVia(PointerStore& store, FileIO& io,
                                                      const std::vector<TableCommit>& commits) {
  if (commits.empty()) return std::vector<LoadedTable>{};
  std::set<TableIdentifier> seen;
  for (const auto& c : commits) {
    if (!seen.insert(c.id).second) {
      return InvalidArgument("transaction names table " + c.id.ToString() + " twice; merge its changes into one commit");
    }
  }
  std::vector<Prepared> prepared;
  for (const auto& c : commits) {
    auto p = Prepare(store, io, c);
    if (!p) {
      DeleteQuietly(io, prepared);
      return std::unexpected(p.error());
    }
    prepared.push_back(std::move(*p));
  }
  for (const auto& c : commits) {
    if (Status files = AwaitFiles(store, c); !files) {
      DeleteQuietly(io, prepared);
      return std::unexpected(files.error());
    }
  }
  std::vector<PointerSwap> swaps;
  for (const auto& p : prepared) swaps.push_back(p.swap);
  auto swapped = store.SwapPointers(swaps);
  if (!swapped) return std::unexpected(FinishFailedSwap(store, io, prepared, swapped.error()));
  std::vector<LoadedTable> out;
  for (auto& p : prepared) out.push_back(Unshare(Landed(store, io, p)));
  return out;
}

}  // namespace floe
