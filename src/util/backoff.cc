#include "util/backoff.h"

#include <algorithm>

#include "util/uuid.h"

namespace floe {

namespace {

uint64_t KernelSeed() {
  uint64_t seed = 0;
  FillRandom(&seed, sizeof(seed));
  return seed;
}

}  // namespace

int64_t BackoffCeilingMs(const BackoffPolicy& policy, int attempt) {
  const int64_t floor = std::max<int64_t>(0, policy.min_wait_ms);
  const int64_t cap = std::max(floor, policy.max_wait_ms);
  if (attempt < 1) attempt = 1;
  // Doubling stops once the cap is reached, so large attempts cannot overflow.
  int64_t ceiling = std::max<int64_t>(floor, 1);
  for (int i = 0; i < attempt && ceiling < cap; ++i) ceiling *= 2;
  return std::clamp(ceiling, floor, cap);
}

Backoff::Backoff(BackoffPolicy policy) : Backoff(policy, KernelSeed()) {}

Backoff::Backoff(BackoffPolicy policy, uint64_t seed) : policy_(policy), rng_(seed) {}

int64_t Backoff::WaitMs(int attempt) {
  const int64_t ceiling = BackoffCeilingMs(policy_, attempt);
  std::uniform_int_distribution<int64_t> wait(0, ceiling);
  return wait(rng_);
}

}  // namespace floe
