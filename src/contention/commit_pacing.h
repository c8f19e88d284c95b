// When a commit attempt starts, so that writers racing for one table take turns fairly.
//
// Per-commit exponential backoff is unfair under steady contention: a writer that lost a few
// times waits longer and longer, while the writer that just won starts its next commit at once
// (and from a cached base), so it tends to win again.
//
// CommitPacer keeps the backoff per table for the whole process instead of per commit:
//   - a contention level that rises by one at every lost attempt and falls by one at every
//     landed commit (so it settles where about half the attempts land);
//   - a window for the random waits, the larger of two spans, never above max-wait-ms:
//       across processes: min-wait-ms (or one landed attempt's duration, if longer), whatever
//         the level. Processes share no memory, so a window that grew with a process's own
//         losses (as Iceberg's exponential backoff grows) pushed back exactly the writers that
//         had lost, while the one that had won kept a small window and won again: wins
//         clustered in one process and the others starved (bench/RESULTS.md, "One hot table");
//       inside the process: the duration of a recent landed attempt (load to swap answer)
//         doubled per level up to four times it, so threads with a small min-wait-ms still
//         leave each other room (threads share the level, so it is fair among them);
//   - a retry waits a uniformly random time in [0, window] (full jitter): the losers of one
//     round wake spread over the window, not together just after min-wait-ms;
//   - a first attempt, while contention is recent:
//       after a race lost to another process (no attempt of this process landed while the
//         lost one ran) within the last second: a random time in the whole window, as a retry
//         waits. Winning or losing then changes nothing about when a process next tries, so
//         no process captures the table; a process that has not lost to another for a second
//         starts at once again;
//       after races lost only to threads of this process: a random part of an eighth of the
//         window, so a thread that just won keeps a small head start (cheaper than strict
//         turns) but cannot shut out the threads it beat.
//   - another process's commit, found by a load while this process commits in a run (it landed
//     within the last second), counts as a race lost to that process: a writer that wins every
//     race still learns that it is not alone;
//   - a run of back-to-back commits that has not lost to another process lately pauses now and
//     then before a first attempt (a probe): after half a window of such commits, then after
//     twice as long each time, up to sixteen windows, for a random part of a window, as
//     a retry waits. A writer that never loses cannot tell whether it is alone, since the
//     others' lost attempts leave no trace, and one that starts its next attempt the moment it
//     lands, from its own cached base, shuts out every slower retry for as long as it runs
//     (with six processes in tight loops, one landed hundreds in a row: bench/RESULTS.md). The
//     pause lets a waiting retry land; the load after it finds that commit (the rule above).
//     Alone, a writer loses about 3% of its rate to probes once the interval has grown;
//     commits further apart than a window are not a run and never pause.
// No writer is pushed back for having lost before. The in-process span stops doubling at four
// attempt durations: deeper backoff brings the capture effect back, and a race for the pointer
// always has a winner, so waiting longer saves little work. Waits are jittered from a
// per-process random seed, so processes do not wake in lock step. The measurements behind
// these choices are in bench/RESULTS.md ("Commit pacing", "One hot table").
// Threads on separate catalog objects rarely race each other at all: they take turns on the
// table (table_turns.h), so the in-process rules matter mostly when a turn is passed by.
//
// Thread-safe; one pacer per table key for the life of its scheduler (contention_scheduler.h).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <random>
#include <string>

#include "commit/commit_scheduler.h"
#include "commit/retry_policy.h"

namespace floe {

class CommitPacer : public CommitScheduler::Pacing {
 public:
  // Monotonic microseconds (MonotonicMicros unless a test drives time).
  using Now = std::function<int64_t()>;

  CommitPacer();
  // Reproducible draws and a clock of the test's, for tests.
  explicit CommitPacer(uint64_t seed, Now now = nullptr);

  // Microseconds to wait before a commit's first attempt: 0 unless this process lost an
  // attempt on the table within the last second (see above for how long).
  // `probe_runs` false: no probes, for a catalog that orders its clients' commits itself (a
  // REST server's retry, rebase and group commit), where a client's run captures nothing.
  int64_t FirstAttemptWaitUs(const RetryPolicy& policy, bool probe_runs = true) override;
  // Records an attempt that lost the race (it took `attempt_us`, which counts only while no
  // landed attempt is known) and returns the microseconds to wait before the next one: in
  // [0, window] (see above), never above max_wait_ms.
  int64_t LostAttemptWaitUs(const RetryPolicy& policy, int64_t attempt_us) override;
  // Records an attempt that landed (it took `attempt_us`; the table's last sequence number
  // after it, 0 if unknown), before any other thread of the process loads the table again.
  void Landed(int64_t attempt_us, int64_t sequence_number = 0) override;
  // Records the table's last sequence number as an attempt loaded it: in a run or after a
  // probe's pause, one above every sequence number this process landed is another process's
  // commit. A format v1 table has no sequence numbers, so there only lost races count.
  void Loaded(int64_t sequence_number) override;

  int level() const;

 private:
  // The span of random waits at the current level, in microseconds, at most `cap_us`.
  int64_t SpanUs(int64_t cap_us) const;
  void RecordDuration(int64_t attempt_us);
  // The window of a retry's wait at the current level, in microseconds: between processes
  // min-wait-ms or one attempt's duration, whatever the level; between threads the span too.
  int64_t WindowUs(const RetryPolicy& policy, bool across_processes) const;
  bool LostToAnotherProcessLately(int64_t now) const;
  // The pause of a probe due now in a run of back-to-back commits, else 0.
  int64_t ProbeWaitUs(const RetryPolicy& policy, int64_t now);
  int64_t Draw(int64_t window_us);  // uniform in [0, window_us]

  static constexpr int kMaxLevel = 16;
  static constexpr int kMaxSpanDoublings = 2;
  static constexpr int64_t kRecentUs = 1'000'000;
  static constexpr int64_t kMaxProbeWindows = 16;

  mutable std::mutex mu_;
  std::mt19937_64 rng_;
  Now now_;
  int level_ = 0;
  int64_t attempt_us_ = 0;       // running mean of recent landed attempts' durations
  int64_t last_lost_us_ = -1;    // monotonic time of the last lost attempt
  int64_t last_foreign_loss_us_ = -1;  // ... of the last one that no attempt of ours won
  int64_t last_landed_us_ = -1;  // ... of the last landed attempt
  int64_t probe_at_us_ = -1;     // when the current run of back-to-back commits pauses next (-1: none)
  int64_t probe_interval_us_ = 0;
  bool probed_ = false;          // the last first attempt paused for a probe: judge its load
  int64_t own_sequence_number_ = 0;  // the highest sequence number this process landed
};

}  // namespace floe
