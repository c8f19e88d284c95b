#include "txn/commit_pacing.h"

#include <algorithm>
#include <map>
#include <memory>

#include "util/clock.h"
#include "util/uuid.h"

namespace floe {
namespace {

uint64_t KernelSeed() {
  uint64_t seed = 0;
  FillRandom(&seed, sizeof seed);
  return seed;
}

}  // namespace

CommitPacer& CommitPacer::ForTable(const std::string& key) {
  static std::mutex registry_mu;
  // Pacers live as long as the process: a table's contention outlives any one commit, and the
  // handful of tables a process writes keeps the map small.
  static auto* registry = new std::map<std::string, std::unique_ptr<CommitPacer>>();
  std::lock_guard lock(registry_mu);
  auto& pacer = (*registry)[key];
  if (!pacer) pacer = std::make_unique<CommitPacer>();
  return *pacer;
}

CommitPacer::CommitPacer() : CommitPacer(KernelSeed()) {}

CommitPacer::CommitPacer(uint64_t seed) : rng_(seed) {}

int CommitPacer::level() const {
  std::lock_guard lock(mu_);
  return level_;
}

int64_t CommitPacer::SpanUs(int64_t cap_us) const {
  if (cap_us <= 0) return 0;
  // At least a millisecond: an attempt measured as instant still needs room for jitter.
  const int64_t base = std::max<int64_t>(attempt_us_, 1000);
  // base < 2^40 us (12 days) in any real run, so the shift cannot overflow.
  const int64_t span = std::min<int64_t>(base, int64_t{1} << 40) << std::min(level_, kMaxSpanDoublings);
  return std::min(span, cap_us);
}

void CommitPacer::RecordDuration(int64_t attempt_us) {
  attempt_us = std::max<int64_t>(attempt_us, 0);
  attempt_us_ = attempt_us_ == 0 ? attempt_us : (3 * attempt_us_ + attempt_us) / 4;
}

int64_t CommitPacer::WindowUs(const RetryPolicy& policy) const {
  const int64_t min_us = std::max<int64_t>(policy.min_wait_ms, 0) * 1000;
  const int64_t max_us = std::max<int64_t>(policy.max_wait_ms, 0) * 1000;
  // min-wait-ms < 2^40 us in any real table, so the shift cannot overflow.
  const int64_t exponential = std::min<int64_t>(min_us, int64_t{1} << 40) << std::min(level_, kMaxWindowDoublings);
  return std::min(max_us, std::max(exponential, SpanUs(max_us)));
}

int64_t CommitPacer::FirstAttemptWaitUs(const RetryPolicy& policy) {
  std::lock_guard lock(mu_);
  if (level_ == 0) return 0;
  if (last_lost_us_ < 0 || MonotonicMicros() - last_lost_us_ > kRecentUs) {
    level_ = 0;  // the contention has passed: start afresh
    return 0;
  }
  // An eighth of a retry's window: the writer that just won keeps a small head start (taking
  // turns in bursts costs fewer lost attempts than strict rotation) but cannot shut out the
  // writers it beat. Measured with 8 processes (bench/RESULTS.md): a whole span cost a third of
  // the commit rate, a quarter a fifth, a sixteenth gave back much of the unfairness.
  return std::uniform_int_distribution<int64_t>(0, WindowUs(policy) / 8)(rng_);
}

int64_t CommitPacer::LostAttemptWaitUs(const RetryPolicy& policy, int64_t attempt_us) {
  std::lock_guard lock(mu_);
  // Only landed attempts set the span once one is known: a lost attempt also parsed the
  // winner's document and was rebuilt, so it runs longer, and waits scaled by it grew with
  // every loss, which is the capture effect again.
  if (attempt_us_ == 0) RecordDuration(attempt_us);
  level_ = std::min(level_ + 1, kMaxLevel);
  last_lost_us_ = MonotonicMicros();
  // Full jitter: anywhere in the window, so the losers of one round, in processes that share
  // nothing, wake spread over it instead of together just after min-wait-ms.
  return std::uniform_int_distribution<int64_t>(0, WindowUs(policy))(rng_);
}

void CommitPacer::Landed(int64_t attempt_us) {
  std::lock_guard lock(mu_);
  RecordDuration(attempt_us);
  level_ = std::max(level_ - 1, 0);
}

}  // namespace floe
