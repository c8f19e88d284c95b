// How a commit retries when it loses the swap, from Iceberg's commit.retry.* table properties.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "util/backoff.h"
#include "floe/result.h"

namespace floe {

struct RetryPolicy {
  int num_retries = 4;               // commit.retry.num-retries: attempts = retries + 1
  int64_t min_wait_ms = 100;         // commit.retry.min-wait-ms
  int64_t max_wait_ms = 60000;       // commit.retry.max-wait-ms
  int64_t total_timeout_ms = 1800000;  // commit.retry.total-timeout-ms

  // Iceberg's defaults where a property is absent; a value that is not a non-negative integer
  // is InvalidArgument naming the property (as Iceberg's own parse refuses it).
  static Result<RetryPolicy> FromProperties(const std::map<std::string, std::string>& properties);
  // The policy a caller chose, else the table's.
  static Result<RetryPolicy> Resolve(const std::optional<RetryPolicy>& chosen,
                                     const std::map<std::string, std::string>& properties) {
    if (chosen) return *chosen;
    return FromProperties(properties);
  }
  BackoffPolicy backoff() const { return BackoffPolicy{min_wait_ms, max_wait_ms}; }

  // Whether a commit that has run `elapsed_ms` and spent `retries` of its retries (counting the
  // one it is about to start) may start another attempt: neither the retries nor the total
  // timeout are used up. (A caller that charges every lost attempt passes its number.)
  bool MayRetry(int retries, double elapsed_ms) const {
    return retries <= num_retries && elapsed_ms < static_cast<double>(total_timeout_ms);
  }
  // The refusal once it may not: how many attempts, over how long, which limit ended it, and
  // what kept conflicting. `what` names the commit ("commit to db.t").
  Error GaveUp(const std::string& what, int attempts, double elapsed_ms, const std::string& last_conflict) const;
};

}  // namespace floe
