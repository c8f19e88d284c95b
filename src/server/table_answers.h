// The metadata part of load-table and commit-table answers, serialized once per document.
//
// A table's document grows with its history (about 2 MB at 5,000 snapshots): serializing it per
// request cost more than the commit itself. A document never changes once written (invariant
// 1), so its JSON text is made once, by whoever needs it first, and every later answer for the
// same document (every load until the next commit; every request of a group commit, which all
// answer with the one document the group swapped in) copies those bytes. A document this
// process wrote is answered with the very text it was written with (the metadata cache keeps
// it): the file and the answers hold the same bytes, serialized once.
//
// Which document is current is never decided here: the handler loads the table through the
// catalog, which reads the catalog row every time (so several servers on one database answer
// what the row points at), and only then asks for the text of that document. An entry is used
// only for the very parsed document it was made from (the same object, compared by identity):
// a location whose content could differ (a storage catalog re-creating v1.metadata.json after a
// drop) is a new object and gets a new text.
//
// Two forms per document: every snapshot (the spec's snapshots=all, the default), or only the
// snapshots a branch or tag points at (snapshots=refs, what a client that needs the table's
// current state asks for; everything else, logs included, is kept).
//
// The ETag of an answer names the table (its uuid), the document (its location) and the form,
// so If-None-Match can be answered without any serialization.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "catalog/catalog.h"
#include "table_files/metadata_cache.h"

namespace floe {

enum class SnapshotsMode { kAll, kRefs };

// The `snapshots` query parameter of load-table: "all" (or absent) and "refs"; anything else is
// InvalidArgument naming the parameter.
Result<SnapshotsMode> ParseSnapshotsMode(std::string_view value);

// The strong validator of `table`'s answer in `mode`, quoted as a header carries it.
std::string TableETag(const SharedTable& table, SnapshotsMode mode);

// True when an If-None-Match header value ("*", or a list of quoted tags, weak ones marked W/)
// names `etag`.
bool IfNoneMatchHits(std::string_view header, const std::string& etag);

// The metadata as JSON, in `mode`, with every snapshot but those the refs name left out in refs
// mode. Pure: no cache.
std::string MetadataAnswerJson(const TableMetadata& metadata, SnapshotsMode mode);

class TableAnswers {
 public:
  static constexpr size_t kDefaultMaxEntries = 16;

  // `documents` is the server's metadata cache (its texts of written documents are reused); may
  // be null.
  explicit TableAnswers(std::shared_ptr<MetadataCache> documents, size_t max_entries = kDefaultMaxEntries);

  // The metadata JSON of `table` in `mode`: made once per document and mode, then shared.
  std::shared_ptr<const std::string> MetadataJson(const SharedTable& table, SnapshotsMode mode);

  // Texts serialized here (not found in this cache, nor written by this process), for tests.
  size_t serialized() const;

 private:
  struct Entry {
    std::string location;
    SnapshotsMode mode;
    std::weak_ptr<const TableMetadata> document;  // identity only: never keeps a document alive
    std::shared_ptr<const std::string> text;
  };

  std::shared_ptr<MetadataCache> documents_;
  const size_t max_entries_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first; few entries, so a walk finds one
  size_t serialized_ = 0;
};

}  // namespace floe
