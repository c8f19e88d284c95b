// One helper thread that runs work alongside the caller, round after round, without
// starting a thread per round (a thread's first zstd compression sets up megabytes of
// state, so short-lived threads would pay that every time).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace floe::parquet {

class HelperThread {
 public:
  HelperThread();
  ~HelperThread();  // waits for the helper to finish and stop
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;

  // Runs work(0) on the calling thread and work(1) on the helper; returns when both have.
  void Run(const std::function<void(int)>& work);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void(int)>* work_ = nullptr;  // the round's work, while it runs
  uint64_t round_ = 0;      // bumped when a round starts
  uint64_t finished_ = 0;   // the last round the helper finished
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace floe::parquet
