// How a commit retries when it loses the swap, from Iceberg's commit.retry.* table properties.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "util/backoff.h"

namespace floe {

struct RetryPolicy {
  int num_retries = 4;               // commit.retry.num-retries: attempts = retries + 1
  int64_t min_wait_ms = 100;         // commit.retry.min-wait-ms
  int64_t max_wait_ms = 60000;       // commit.retry.max-wait-ms
  int64_t total_timeout_ms = 1800000;  // commit.retry.total-timeout-ms

  static RetryPolicy FromProperties(const std::map<std::string, std::string>& properties);
  BackoffPolicy backoff() const { return BackoffPolicy{min_wait_ms, max_wait_ms}; }
};

}  // namespace floe
