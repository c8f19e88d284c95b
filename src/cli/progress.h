// Progress on a terminal for long work: rows, bytes, files, rate and time left. Silent when
// stderr is not a terminal, so scripts and logs see only results.
#pragma once

#include <cstdint>
#include <string>

namespace floe::cli {

class Progress {
 public:
  // `total_input_bytes` > 0 enables a time-left estimate from `input_bytes_done`.
  Progress(bool enabled, std::string what, int64_t total_input_bytes = 0);
  ~Progress();

  void Update(int64_t rows, int64_t bytes_written, int64_t files, int64_t input_bytes_done = 0);
  // The input's size once it is known (after the constructor): enables the time-left estimate.
  void set_total_input_bytes(int64_t total) { total_input_bytes_ = total; }
  void Finish();  // clears the line

 private:
  bool enabled_;
  std::string what_;
  int64_t total_input_bytes_;
  int64_t start_us_;
  int64_t last_us_ = 0;
  bool drawn_ = false;
};

}  // namespace floe::cli
