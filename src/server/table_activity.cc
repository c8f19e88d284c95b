#include "server/table_activity.h"

namespace floe {

void TableActivity::Record(const std::string& table, ActivityKind kind, int64_t now_ms, int64_t count) {
  std::lock_guard lock(mu_);
  auto it = tables_.find(table);
  if (it == tables_.end()) {
    if (tables_.size() >= max_tables_) {
      tables_.erase(touched_.back());
      touched_.pop_back();
    }
    touched_.push_front(table);
    it = tables_.emplace(table, Ring{}).first;
    it->second.minute_of_slot.fill(-1);
  } else {
    touched_.splice(touched_.begin(), touched_, it->second.age);
  }
  Ring& ring = it->second;
  ring.age = touched_.begin();
  int64_t minute = now_ms / 60000;
  size_t slot = static_cast<size_t>(minute % static_cast<int64_t>(kActivityMinutes));
  if (ring.minute_of_slot[slot] != minute) {  // the slot held an older hour's minute
    for (auto& kind_counts : ring.counts) kind_counts[slot] = 0;
    ring.minute_of_slot[slot] = minute;
  }
  ring.counts[static_cast<size_t>(kind)][slot] += count;
}

ActivitySeries TableActivity::LastHour(const std::string& table, int64_t now_ms) const {
  ActivitySeries out;
  std::lock_guard lock(mu_);
  auto it = tables_.find(table);
  if (it == tables_.end()) return out;
  int64_t now_minute = now_ms / 60000;
  for (size_t i = 0; i < kActivityMinutes; ++i) {
    int64_t minute = now_minute - static_cast<int64_t>(kActivityMinutes - 1 - i);
    if (minute < 0) continue;
    size_t slot = static_cast<size_t>(minute % static_cast<int64_t>(kActivityMinutes));
    if (it->second.minute_of_slot[slot] != minute) continue;
    for (size_t k = 0; k < kActivityKinds; ++k) out.counts[k][i] = it->second.counts[k][slot];
  }
  return out;
}

}  // namespace floe
