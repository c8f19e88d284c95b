#include "catalog/rest/table_revalidation.h"

namespace floe {

std::optional<RestTableCopies::Copy> RestTableCopies::Find(const std::string& table_key, bool refs_only) {
  std::lock_guard lock(mu_);
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if (it->key == table_key && it->refs_only == refs_only) {
      lru_.splice(lru_.begin(), lru_, it);
      return lru_.front().copy;
    }
  }
  return std::nullopt;
}

void RestTableCopies::Remember(const std::string& table_key, bool refs_only, Copy copy) {
  std::lock_guard lock(mu_);
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if (it->key == table_key && it->refs_only == refs_only) {
      lru_.erase(it);
      break;
    }
  }
  if (copy.etag.empty() || !copy.table.metadata) return;
  lru_.push_front(Entry{table_key, refs_only, std::move(copy)});
  while (lru_.size() > max_entries_) lru_.pop_back();
}

void RestTableCopies::Forget(const std::string& table_key) {
  std::lock_guard lock(mu_);
  lru_.remove_if([&](const Entry& e) { return e.key == table_key; });
}

}  // namespace floe
