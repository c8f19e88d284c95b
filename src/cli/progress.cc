#include "cli/progress.h"

#include <chrono>
#include <cstdio>

namespace floe::cli {
namespace {

int64_t MonotonicMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Progress::Progress(bool enabled, std::string what, int64_t total_input_bytes)
    : enabled_(enabled), what_(std::move(what)), total_input_bytes_(total_input_bytes), start_us_(MonotonicMicros()) {}

Progress::~Progress() { Finish(); }

void Progress::Update(int64_t rows, int64_t bytes_written, int64_t files, int64_t input_bytes_done) {
  if (!enabled_) return;
  int64_t now = MonotonicMicros();
  if (drawn_ && now - last_us_ < 200000) return;  // redraw at most five times a second
  last_us_ = now;
  double seconds = (now - start_us_) / 1e6;
  double rate = seconds > 0 ? rows / seconds : 0;
  char line[256];
  int n = std::snprintf(line, sizeof line, "\r%s: %lld rows, %.1f MB, %lld files, %.0f rows/s", what_.c_str(),
                        static_cast<long long>(rows), bytes_written / 1e6, static_cast<long long>(files), rate);
  if (total_input_bytes_ > 0 && input_bytes_done > 0 && input_bytes_done < total_input_bytes_) {
    double left = seconds * (static_cast<double>(total_input_bytes_) / input_bytes_done - 1);
    std::snprintf(line + n, sizeof line - n, ", %.0f s left", left);
  }
  std::fprintf(stderr, "%s\033[K", line);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Finish() {
  if (enabled_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace floe::cli
