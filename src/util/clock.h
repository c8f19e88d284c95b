// Time: wall-clock readings for timestamps that are stored (snapshot
// timestamp-ms, file modification times) and a monotonic reading for measuring
// how long something took.
//
// Code that decides by age (orphan removal's safety window, snapshot expiry)
// takes a `const Clock&` so tests can drive time with a ManualClock. Commit
// order never comes from a clock: sequence numbers order commits.
#pragma once

#include <atomic>
#include <cstdint>

namespace floe {

class Clock {
 public:
  virtual ~Clock() = default;
  // Microseconds since the Unix epoch.
  virtual int64_t NowMicros() const = 0;
  int64_t NowMillis() const { return NowMicros() / 1000; }

  // The machine's wall clock; lives for the whole program.
  static const Clock& System();
};

// A clock that moves only when told to; safe to read and move from several
// threads.
class ManualClock : public Clock {
 public:
  explicit ManualClock(int64_t start_micros = 0) : micros_(start_micros) {}
  int64_t NowMicros() const override { return micros_.load(std::memory_order_relaxed); }
  void SetMicros(int64_t micros) { micros_.store(micros, std::memory_order_relaxed); }
  void SetMillis(int64_t millis) { SetMicros(millis * 1000); }
  void AdvanceMillis(int64_t millis) { micros_.fetch_add(millis * 1000, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> micros_;
};

// Wall clock, since the Unix epoch.
int64_t NowMillis();
int64_t NowMicros();

// A clock that never goes backwards (for durations and timeouts only; its
// zero is arbitrary).
int64_t MonotonicMicros();

// Milliseconds from `start_micros` (a MonotonicMicros reading) to now.
double MillisSince(int64_t start_micros);

}  // namespace floe
