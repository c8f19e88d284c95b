#include "commit/retry_policy.h"

#include <cstdio>

#include "meta/property_values.h"
#include "meta/table_properties.h"

namespace floe {
namespace {

Result<int64_t> Get(const std::map<std::string, std::string>& p, const char* key, int64_t fallback) {
  auto it = p.find(key);
  if (it == p.end()) return fallback;
  return ParseCountProperty(key, it->second);
}

}  // namespace

Result<RetryPolicy> RetryPolicy::FromProperties(const std::map<std::string, std::string>& p) {
  RetryPolicy r;
  FLOE_ASSIGN_OR_RETURN(int64_t retries, Get(p, props::kCommitNumRetries, props::kCommitNumRetriesDefault));
  r.num_retries = static_cast<int>(std::min<int64_t>(retries, 1'000'000'000));
  FLOE_ASSIGN_OR_RETURN(r.min_wait_ms, Get(p, props::kCommitMinWaitMs, props::kCommitMinWaitMsDefault));
  FLOE_ASSIGN_OR_RETURN(int64_t max_wait, Get(p, props::kCommitMaxWaitMs, props::kCommitMaxWaitMsDefault));
  r.max_wait_ms = std::max(r.min_wait_ms, max_wait);
  FLOE_ASSIGN_OR_RETURN(r.total_timeout_ms, Get(p, props::kCommitTotalTimeoutMs, props::kCommitTotalTimeoutMsDefault));
  return r;
}

Error RetryPolicy::GaveUp(const std::string& what, int attempts, double elapsed_ms,
                          const std::string& last_conflict) const {
  char limit[128];
  // The time budget first: a commit whose lost races were not charged to the retries (an
  // append's, commit_engine.cc) may have run more attempts than num-retries allows.
  if (elapsed_ms >= static_cast<double>(total_timeout_ms)) {
    std::snprintf(limit, sizeof limit, "commit.retry.total-timeout-ms=%lld", static_cast<long long>(total_timeout_ms));
  } else {
    std::snprintf(limit, sizeof limit, "commit.retry.num-retries=%d", num_retries);
  }
  char over[64];
  std::snprintf(over, sizeof over, "%.0f ms", elapsed_ms);
  return CommitConflict(what + " gave up after " + std::to_string(attempts) + " attempt" + (attempts == 1 ? "" : "s") +
                        " over " + over + " (" + limit + "); what kept conflicting: " + last_conflict)
      .error();
}

}  // namespace floe
