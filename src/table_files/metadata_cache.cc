#include "table_files/metadata_cache.h"

#include <iterator>
#include <vector>

#include "meta/metadata_json.h"

namespace floe {

MetadataCache::MetadataCache(size_t max_entries, size_t max_bytes) : max_entries_(max_entries), max_bytes_(max_bytes) {}

std::shared_ptr<const TableMetadata> MetadataCache::Find(const std::string& location) {
  std::lock_guard lock(mu_);
  auto it = by_location_.find(location);
  if (it == by_location_.end() || it->second->origin == Origin::kLostAttempt) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->metadata;
}

std::shared_ptr<const MetadataText> MetadataCache::FindText(const std::string& location) {
  std::lock_guard lock(mu_);
  auto it = by_location_.find(location);
  if (it == by_location_.end() || it->second->origin != Origin::kWritten) return nullptr;
  return it->second->text;
}

MetadataCache::List::iterator MetadataCache::LatestOfTableLocked(std::string_view table_uuid) {
  // A handful of entries (kDefaultMaxEntries): a walk costs less than keeping an index.
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if (it->text && it->metadata->table_uuid == table_uuid) return it;
  }
  return lru_.end();
}

MetadataCache::Entry MetadataCache::RemoveLocked(List::iterator it) {
  bytes_ -= it->bytes;
  by_location_.erase(it->location);
  Entry removed = std::move(*it);
  lru_.erase(it);
  return removed;
}

PreviousDocument MetadataCache::LatestOfTable(std::string_view table_uuid) {
  if (table_uuid.empty()) return {};
  std::lock_guard lock(mu_);
  auto it = LatestOfTableLocked(table_uuid);
  return it == lru_.end() ? PreviousDocument{} : PreviousDocument{it->metadata, it->text};
}

PreviousDocument MetadataCache::TakeLatestOfTable(std::string_view table_uuid) {
  if (table_uuid.empty()) return {};
  std::lock_guard lock(mu_);
  auto it = LatestOfTableLocked(table_uuid);
  if (it == lru_.end()) return {};
  PreviousDocument previous{it->metadata, it->text};
  // Under the lock no one can obtain a new reference from the cache, and a count of two (the
  // entry and `previous`) means no one else holds it. The cache's documents are created
  // non-const (see ParseAndInsert and Landed in commit.cc), so they may be handed over.
  if (previous.metadata.use_count() == 2) {
    RemoveLocked(it);
    previous.handed_over = true;
  }
  return previous;
}

void MetadataCache::Insert(const std::string& location, std::shared_ptr<const TableMetadata> metadata,
                           size_t document_bytes, std::shared_ptr<const MetadataText> text) {
  Add(Entry{location, std::move(metadata), std::move(text), document_bytes, Origin::kWritten});
}

Result<std::shared_ptr<const TableMetadata>> MetadataCache::ParseAndInsert(const std::string& location,
                                                                           std::string text) {
  const size_t document_bytes = text.size();
  FLOE_ASSIGN_OR_RETURN(IndexedMetadata parsed,
                        ParseTableMetadataReusing(std::move(text), [this](std::string_view table_uuid) {
                          return TakeLatestOfTable(table_uuid);
                        }));
  reused_snapshots_.fetch_add(parsed.reused_snapshots, std::memory_order_relaxed);
  // Created non-const: a sole owner may move out of it (see Unshare in commit.cc).
  std::shared_ptr<const TableMetadata> shared = std::make_shared<TableMetadata>(std::move(parsed.metadata));
  Add(Entry{location, shared, std::move(parsed.text), document_bytes, Origin::kRead});
  return shared;
}

void MetadataCache::KeepLostAttempt(const std::string& location, std::shared_ptr<const TableMetadata> metadata,
                                    std::shared_ptr<const MetadataText> text) {
  if (!text) return;  // without its text it cannot serve a parse
  const size_t document_bytes = text->text.size();
  Add(Entry{location, std::move(metadata), std::move(text), document_bytes, Origin::kLostAttempt});
}

void MetadataCache::Add(Entry entry) {
  if (entry.text) entry.bytes *= 2;
  if (!entry.metadata || max_entries_ == 0 || entry.bytes > max_bytes_) return;
  // Evicted documents are destroyed after the lock is released: freeing a long history takes
  // milliseconds, and other threads' lookups need not wait for it.
  std::vector<Entry> evicted;
  {
    std::lock_guard lock(mu_);
    if (by_location_.contains(entry.location)) return;  // same location, same content
    if (entry.origin == Origin::kLostAttempt) {
      // Only the latest lost attempt of a table is worth its room: it shares the most history.
      for (auto it = lru_.begin(); it != lru_.end();) {
        if (it->origin == Origin::kLostAttempt && it->metadata->table_uuid == entry.metadata->table_uuid) {
          evicted.push_back(RemoveLocked(it++));
        } else {
          ++it;
        }
      }
    }
    bytes_ += entry.bytes;
    lru_.push_front(std::move(entry));
    by_location_[lru_.front().location] = lru_.begin();
    while (lru_.size() > max_entries_ || bytes_ > max_bytes_) evicted.push_back(RemoveLocked(std::prev(lru_.end())));
  }
}

bool MetadataCache::TakeIfUnshared(const std::string& location, const std::shared_ptr<const TableMetadata>& held) {
  std::lock_guard lock(mu_);
  auto it = by_location_.find(location);
  if (it == by_location_.end() || it->second->metadata != held) return false;
  // Under the lock no one can obtain a new reference from the cache, and a count of two (the
  // entry and `held`) means no other holder exists who could copy theirs.
  if (held.use_count() != 2) return false;
  RemoveLocked(it->second);
  return true;
}

void MetadataCache::Erase(const std::string& location) {
  Entry removed;  // destroyed after the lock is released, as in Add
  std::lock_guard lock(mu_);
  auto it = by_location_.find(location);
  if (it != by_location_.end()) removed = RemoveLocked(it->second);
}

size_t MetadataCache::entries() const {
  std::lock_guard lock(mu_);
  return lru_.size();
}

}  // namespace floe
