// The two clocks a benchmark reads: wall time and this process's CPU time, in seconds from an
// arbitrary start (only differences mean anything).
#pragma once

#include <time.h>

#include <chrono>

namespace floe::bench {

inline double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// User and system CPU of every thread of the process.
inline double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace floe::bench
