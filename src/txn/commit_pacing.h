// When a commit attempt starts, so that writers racing for one table take turns fairly.
//
// Per-commit exponential backoff is unfair under steady contention: a writer that lost a few
// times waits longer and longer, while the writer that just won starts its next commit at once
// (and from a cached base), so it tends to win again. With 8 processes appending in a loop,
// one of them got 3 commits in 3 s while others got hundreds, and p99 latency reached 2.4 s.
//
// CommitPacer keeps the backoff per table for the whole process instead of per commit:
//   - a contention level that rises by one at every lost attempt and falls by one at every
//     landed commit (so it settles where about half the attempts land);
//   - a window for the random waits, the larger of two spans, never above max-wait-ms:
//       across processes: min-wait-ms doubled per level (at most kMaxWindowDoublings times), as
//         Iceberg's exponential backoff grows, so processes that share no memory spread their
//         retries further the more they collide;
//       inside the process: the duration of a recent landed attempt (load to swap answer)
//         doubled per level up to four times it, so threads with a small min-wait-ms still
//         leave each other room;
//   - a retry waits a uniformly random time in [0, window] (full jitter): the losers of one
//     round wake spread over the window, not together just after min-wait-ms;
//   - a first attempt waits a random part of an eighth of the window while contention is
//     recent, so a writer that just won does not jump ahead of those it beat.
// Every writer of the process then draws its waits from the same range, fresh or retrying,
// and no one is pushed back for having lost before. The in-process span stops doubling at four
// attempt durations: deeper backoff is the capture effect again (a writer that lost five
// times waited 32 attempt durations while the one that beat it went again at once), and a
// race for the pointer always has a winner, so waiting longer saves little work. With 8
// processes the cap raised the unluckiest writer's share from 0.35-0.56 to 0.75-0.84 of the
// mean (RESULTS.md). Waits are jittered from a per-process random seed, so processes do not
// wake in lock step.
//
// Thread-safe; one pacer per table key for the life of the process.
#pragma once

#include <cstdint>
#include <mutex>
#include <random>
#include <string>

#include "txn/retry_policy.h"

namespace floe {

class CommitPacer {
 public:
  // The pacer of one table ("<catalog>/<namespace>.<table>"), created on first use.
  static CommitPacer& ForTable(const std::string& key);

  CommitPacer();
  explicit CommitPacer(uint64_t seed);  // reproducible draws, for tests

  // Microseconds to wait before a commit's first attempt: 0 unless this process lost an
  // attempt on the table within the last second and has not yet won its level back down.
  int64_t FirstAttemptWaitUs(const RetryPolicy& policy);
  // Records an attempt that lost the race (it took `attempt_us`, which counts only while no
  // landed attempt is known) and returns the microseconds to wait before the next one: in
  // [0, window] (see above), never above max_wait_ms.
  int64_t LostAttemptWaitUs(const RetryPolicy& policy, int64_t attempt_us);
  // Records an attempt that landed (it took `attempt_us`).
  void Landed(int64_t attempt_us);

  int level() const;

 private:
  // The span of random waits at the current level, in microseconds, at most `cap_us`.
  int64_t SpanUs(int64_t cap_us) const;
  void RecordDuration(int64_t attempt_us);
  // The window of a retry's wait at the current level, in microseconds.
  int64_t WindowUs(const RetryPolicy& policy) const;

  static constexpr int kMaxLevel = 16;
  static constexpr int kMaxSpanDoublings = 2;
  static constexpr int kMaxWindowDoublings = 4;  // Iceberg's default 4 retries reach min-wait-ms * 2^4
  static constexpr int64_t kRecentUs = 1'000'000;

  mutable std::mutex mu_;
  std::mt19937_64 rng_;
  int level_ = 0;
  int64_t attempt_us_ = 0;       // running mean of recent landed attempts' durations
  int64_t last_lost_us_ = -1;    // monotonic time of the last lost attempt
};

}  // namespace floe
