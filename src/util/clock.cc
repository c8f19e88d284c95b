#include "util/clock.h"

#include <chrono>

namespace floe {

namespace {

class SystemClock : public Clock {
 public:
  int64_t NowMicros() const override { return floe::NowMicros(); }
};

}  // namespace

const Clock& Clock::System() {
  static const SystemClock clock;
  return clock;
}

int64_t NowMicros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

int64_t NowMillis() { return NowMicros() / 1000; }

int64_t MonotonicMicros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
}

double MillisSince(int64_t start_micros) { return (MonotonicMicros() - start_micros) / 1000.0; }

}  // namespace floe
