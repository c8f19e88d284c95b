// The REST client's copies of the table documents it loaded, for revalidation: a load sends the
// ETag of the copy it holds as If-None-Match, and a 304 Not Modified answer means the copy is
// still the table's current document (the server compared it against the catalog row), so
// nothing is transferred or parsed. A long history makes the document megabytes; an unchanged
// table then costs one small round trip.
//
// Copies are kept per table and per form (every snapshot, or only those the refs name: the
// spec's snapshots=refs), bounded by count; the least recently used goes first. A table's
// copies are dropped when a request about it fails or the table is dropped or renamed.
// Thread-safe: copies are immutable and shared.
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>

#include "catalog/catalog.h"

namespace floe {

class RestTableCopies {
 public:
  static constexpr size_t kDefaultMaxEntries = 8;
  explicit RestTableCopies(size_t max_entries = kDefaultMaxEntries) : max_entries_(max_entries ? max_entries : 1) {}

  struct Copy {
    std::string etag;  // as the server sent it, quotes included
    SharedTable table;
  };

  // The copy of `table_key` (a table's path) in `refs_only` form, if one is held.
  std::optional<Copy> Find(const std::string& table_key, bool refs_only);
  // Remembers `copy`; an empty ETag (a server that sends none) keeps nothing.
  void Remember(const std::string& table_key, bool refs_only, Copy copy);
  // Forgets both forms of the table.
  void Forget(const std::string& table_key);

 private:
  struct Entry {
    std::string key;
    bool refs_only = false;
    Copy copy;
  };
  const size_t max_entries_;
  std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first
};

}  // namespace floe
