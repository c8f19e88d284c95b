// Parsed metadata documents by location, so that a document is parsed at most once.
//
// A metadata document never changes once written (DESIGN.md invariant 1: no file is
// overwritten, and floe names each document with a fresh UUID), so its location identifies
// its content for good. The document a commit just wrote is the base of the next commit's
// load and of its refresh: without the cache each of those re-parses a document that grows
// with history (about 4 MB at 10,000 snapshots, a tenth of a second to parse).
//
// One cache serves one catalog, and so one FileIO: the same location under two FileIOs (two
// in-memory stores, two folders a relative path was rebased against) may be two different
// files. Catalogs whose document names can be reused (the storage catalog's v<N> names come
// back after a table is dropped and re-created) do not use one.
//
// A document is parsed reusing the latest cached document of its table (metadata_reuse.h):
// another writer's new document repeats the history we already parsed, so only what it added
// is parsed. For that the cache keeps each document's text with its snapshots' spans, also for
// documents it parsed, and also a commit's document that lost its swap (it is never found by
// location: it only serves as the previous document of the winner's parse).
//
// Bounded by entry count and by the total size of the documents' text (a fair proxy for the
// memory a parsed document takes; an entry that keeps its text counts it twice); the least
// recently used entry goes first. Thread-safe: entries are immutable and shared, so a reader
// holds one safely after it is evicted.
#pragma once

#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "meta/metadata_reuse.h"
#include "meta/metadata_writer.h"
#include "meta/table_metadata.h"

namespace floe {

class MetadataCache {
 public:
  static constexpr size_t kDefaultMaxEntries = 8;
  static constexpr size_t kDefaultMaxBytes = size_t{128} << 20;

  explicit MetadataCache(size_t max_entries = kDefaultMaxEntries, size_t max_bytes = kDefaultMaxBytes);

  // The document at `location`, or nullptr when it is not cached.
  std::shared_ptr<const TableMetadata> Find(const std::string& location);

  // Remembers the document at `location`, whose text is `document_bytes` long, and for a
  // document this process wrote, that text (its successor reuses it: metadata_writer.h). A
  // document larger than the whole budget is not kept.
  void Insert(const std::string& location, std::shared_ptr<const TableMetadata> metadata, size_t document_bytes,
              std::shared_ptr<const MetadataText> text = nullptr);

  // Parses `text`, the document at `location`, reusing the latest cached document of the same
  // table, and remembers it with its text. The result and errors are ParseTableMetadata's.
  Result<std::shared_ptr<const TableMetadata>> ParseAndInsert(const std::string& location, std::string text);

  // Keeps a document a commit wrote but did not swap in (and deleted) as its table's latest
  // document for ParseAndInsert: Find never returns it. It replaces the table's earlier lost
  // attempt, if any.
  void KeepLostAttempt(const std::string& location, std::shared_ptr<const TableMetadata> metadata,
                       std::shared_ptr<const MetadataText> text);

  // The text the document at `location` was written with, when this process wrote it.
  std::shared_ptr<const MetadataText> FindText(const std::string& location);

  // The most recently used document of the table with this table-uuid that has its text.
  PreviousDocument LatestOfTable(std::string_view table_uuid);
  // The same for a parse of the table's next document: when only the cache holds the
  // document, it leaves the cache and is handed over (its successor supersedes it, and the
  // parse moves its snapshots instead of copying them).
  PreviousDocument TakeLatestOfTable(std::string_view table_uuid);

  // Snapshots ParseAndInsert took from earlier documents instead of parsing (for tests and
  // benchmarks).
  size_t reused_snapshots() const { return reused_snapshots_.load(std::memory_order_relaxed); }

  // Removes the entry for `location` if it is `held` and nobody but the cache and the caller
  // holds it; true when it did. The caller is then the sole owner and may move the document
  // out (a commit building its successor does; the successor takes the entry's place).
  bool TakeIfUnshared(const std::string& location, const std::shared_ptr<const TableMetadata>& held);

  // Forgets the document at `location`, for a store whose names can come back with other
  // content (the storage catalog, once it saw that the object under a name changed).
  void Erase(const std::string& location);

  size_t entries() const;

 private:
  // Where an entry's text comes from: only a written text may seed the writer (FindText).
  enum class Origin { kWritten, kRead, kLostAttempt };
  struct Entry {
    std::string location;
    std::shared_ptr<const TableMetadata> metadata;
    std::shared_ptr<const MetadataText> text;
    size_t bytes = 0;  // the document's size, twice when its text is kept too
    Origin origin = Origin::kWritten;
  };
  using List = std::list<Entry>;  // most recently used first

  void Add(Entry entry);
  // With mu_ held: the most recently used entry of the table that has its text, or end().
  List::iterator LatestOfTableLocked(std::string_view table_uuid);
  // With mu_ held: takes the entry out of the cache and its accounting.
  Entry RemoveLocked(List::iterator it);

  const size_t max_entries_;
  const size_t max_bytes_;
  mutable std::mutex mu_;
  List lru_;
  std::unordered_map<std::string, List::iterator> by_location_;
  size_t bytes_ = 0;
  std::atomic<size_t> reused_snapshots_{0};
};

}  // namespace floe
