// Waits between retries: exponential growth with full jitter.
//
// Retry number n (n = 1 for the first retry) waits a uniformly random time in
// [0, ceiling(n)], where ceiling(n) = min_wait_ms * 2^n capped at max_wait_ms
// ("full jitter"). The randomness spreads writers that collided at the same
// moment over the whole window, so they do not collide again in lock step; a
// floor at min_wait_ms would wake every loser of a round within the same few
// milliseconds after it.
//
// The defaults are Iceberg's commit.retry.min-wait-ms and
// commit.retry.max-wait-ms.
#pragma once

#include <cstdint>
#include <random>

namespace floe {

struct BackoffPolicy {
  int64_t min_wait_ms = 100;
  int64_t max_wait_ms = 60'000;
};

// The longest wait before retry number `attempt` (attempt < 1 counts as 1).
// Never below min_wait_ms, never above max(min_wait_ms, max_wait_ms).
int64_t BackoffCeilingMs(const BackoffPolicy& policy, int attempt);

// Draws the waits of one retry loop. Not thread-safe: one per loop.
class Backoff {
 public:
  // Seeded from the kernel, so forked processes do not draw the same waits.
  explicit Backoff(BackoffPolicy policy);
  // Reproducible draws, for tests.
  Backoff(BackoffPolicy policy, uint64_t seed);

  const BackoffPolicy& policy() const { return policy_; }

  // A random wait in [0, BackoffCeilingMs(attempt)].
  int64_t WaitMs(int attempt);

 private:
  BackoffPolicy policy_;
  std::mt19937_64 rng_;
};

}  // namespace floe
