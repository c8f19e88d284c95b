#include "contention/commit_pacing.h"

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

CommitPacer::CommitPacer() : CommitPacer(KernelSeed()) {}

CommitPacer::CommitPacer(uint64_t seed, Now now) : rng_(seed), now_(now ? std::move(now) : Now(MonotonicMicros)) {}

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

int64_t CommitPacer::WindowUs(const RetryPolicy& policy, bool across_processes) const {
  const int64_t min_us = std::max<int64_t>(policy.min_wait_ms, 0) * 1000;
  const int64_t max_us = std::max<int64_t>(policy.max_wait_ms, 0) * 1000;
  const int64_t span = across_processes ? std::min(std::max<int64_t>(attempt_us_, 1000), max_us) : SpanUs(max_us);
  return std::min(max_us, std::max(min_us, span));
}

bool CommitPacer::LostToAnotherProcessLately(int64_t now) const {
  return last_foreign_loss_us_ >= 0 && now - last_foreign_loss_us_ <= kRecentUs;
}

int64_t CommitPacer::FirstAttemptWaitUs(const RetryPolicy& policy, bool probe_runs) {
  std::lock_guard lock(mu_);
  const int64_t now = now_();
  // Against other processes: the whole window, as their retries wait, so that having just won
  // gives no head start over the processes that lost (they cannot see this one wait).
  if (LostToAnotherProcessLately(now)) return Draw(WindowUs(policy, /*across_processes=*/true));
  if (const int64_t probe = probe_runs ? ProbeWaitUs(policy, now) : 0; probe > 0) return probe;
  if (level_ == 0) return 0;
  if (last_lost_us_ < 0 || now - last_lost_us_ > kRecentUs) {
    level_ = 0;  // the contention has passed: start afresh
    return 0;
  }
  // Against threads of this process only: an eighth of a retry's window. The thread that just
  // won keeps a small head start (taking turns in bursts costs fewer lost attempts than strict
  // rotation) but cannot shut out the threads it beat. Measured with 8 processes when this
  // rule served them too (bench/RESULTS.md): a whole span cost a third of the commit rate, a
  // quarter a fifth, a sixteenth gave back much of the unfairness.
  return Draw(WindowUs(policy, /*across_processes=*/false) / 8);
}

int64_t CommitPacer::ProbeWaitUs(const RetryPolicy& policy, int64_t now) {
  const int64_t window = WindowUs(policy, /*across_processes=*/true);
  if (last_landed_us_ < 0 || now - last_landed_us_ > window) {
    probe_at_us_ = -1;  // not back to back: no run to probe
    return 0;
  }
  if (probe_at_us_ < 0) {
    probe_interval_us_ = std::max<int64_t>(window / 2, 1);
    probe_at_us_ = now + probe_interval_us_;
    return 0;
  }
  if (now < probe_at_us_) return 0;
  // window <= max-wait-ms, so the product stays far from overflowing.
  probe_interval_us_ = std::min(probe_interval_us_ * 2, window * kMaxProbeWindows);
  // As long as a retry of the others may wait: one of theirs then most likely falls inside.
  const int64_t pause = Draw(window);
  probe_at_us_ = now + pause + probe_interval_us_;  // the interval counts commits, not pauses
  probed_ = pause > 0;
  return pause;
}

void CommitPacer::Loaded(int64_t sequence_number) {
  std::lock_guard lock(mu_);
  const int64_t now = now_();
  const bool in_run = last_landed_us_ >= 0 && now - last_landed_us_ <= kRecentUs;
  // A commit this process did not make, found while it commits in a run (or right after a
  // probe's pause): another process writes the table too, even if this one lost no race to it.
  // A process's first load of a table finds others' old commits and proves nothing.
  if ((probed_ || in_run) && sequence_number > own_sequence_number_) {
    last_foreign_loss_us_ = now;
    probe_at_us_ = -1;
  }
  probed_ = false;
}

int64_t CommitPacer::LostAttemptWaitUs(const RetryPolicy& policy, int64_t attempt_us) {
  std::lock_guard lock(mu_);
  // Only landed attempts set the span once one is known: a lost attempt also parsed the
  // winner's document and was rebuilt, so it runs longer, and waits scaled by it grew with
  // every loss, which is the capture effect again.
  if (attempt_us_ == 0) RecordDuration(attempt_us);
  level_ = std::min(level_ + 1, kMaxLevel);
  const int64_t now = now_();
  last_lost_us_ = now;
  // No attempt of this process landed while this one ran: another process won the race.
  const bool across_processes = last_landed_us_ < now - std::max<int64_t>(attempt_us, 0);
  if (across_processes) {
    last_foreign_loss_us_ = now;
    probe_at_us_ = -1;
  }
  probed_ = false;
  // Full jitter: anywhere in the window, so the losers of one round, in processes that share
  // nothing, wake spread over it instead of together just after min-wait-ms.
  return Draw(WindowUs(policy, across_processes));
}

int64_t CommitPacer::Draw(int64_t window_us) { return std::uniform_int_distribution<int64_t>(0, window_us)(rng_); }

void CommitPacer::Landed(int64_t attempt_us, int64_t sequence_number) {
  std::lock_guard lock(mu_);
  RecordDuration(attempt_us);
  own_sequence_number_ = std::max(own_sequence_number_, sequence_number);
  probed_ = false;
  level_ = std::max(level_ - 1, 0);
  last_landed_us_ = now_();
}

}  // namespace floe
