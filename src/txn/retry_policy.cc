#include "txn/retry_policy.h"

#include "meta/table_properties.h"

namespace floe {
namespace {

int64_t Get(const std::map<std::string, std::string>& p, const char* key, int64_t fallback) {
  auto it = p.find(key);
  if (it == p.end()) return fallback;
  try {
    size_t used = 0;
    int64_t v = std::stoll(it->second, &used);
    return used == it->second.size() && v >= 0 ? v : fallback;
  } catch (...) {
    return fallback;
  }
}

}  // namespace

RetryPolicy RetryPolicy::FromProperties(const std::map<std::string, std::string>& p) {
  RetryPolicy r;
  r.num_retries = static_cast<int>(Get(p, props::kCommitNumRetries, props::kCommitNumRetriesDefault));
  r.min_wait_ms = Get(p, props::kCommitMinWaitMs, props::kCommitMinWaitMsDefault);
  r.max_wait_ms = std::max(r.min_wait_ms, Get(p, props::kCommitMaxWaitMs, props::kCommitMaxWaitMsDefault));
  r.total_timeout_ms = Get(p, props::kCommitTotalTimeoutMs, props::kCommitTotalTimeoutMsDefault);
  return r;
}

}  // namespace floe
