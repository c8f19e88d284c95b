#include "io/s3_recent_writes.h"

namespace floe {

void S3RecentWrites::Remember(std::string_view path, std::string_view bytes) {
  if (bytes.size() > kMaxObjectBytes) return;
  std::lock_guard lock(mu_);
  if (by_path_.contains(std::string(path))) return;  // same name, same bytes
  entries_.push_front(Entry{std::string(path), std::string(bytes)});
  by_path_[entries_.front().path] = entries_.begin();
  bytes_ += bytes.size();
  while (bytes_ > kMaxBytes) {
    bytes_ -= entries_.back().bytes.size();
    by_path_.erase(entries_.back().path);
    entries_.pop_back();
  }
}

std::optional<std::string> S3RecentWrites::Find(std::string_view path) const {
  std::lock_guard lock(mu_);
  auto it = by_path_.find(std::string(path));
  if (it == by_path_.end()) return std::nullopt;
  return it->second->bytes;
}

void S3RecentWrites::Forget(std::string_view path) {
  std::lock_guard lock(mu_);
  auto it = by_path_.find(std::string(path));
  if (it == by_path_.end()) return;
  bytes_ -= it->second->bytes.size();
  entries_.erase(it->second);
  by_path_.erase(it);
}

}  // namespace floe
