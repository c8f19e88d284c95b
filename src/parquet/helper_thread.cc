#include "parquet/helper_thread.h"

namespace floe::parquet {

HelperThread::HelperThread() : thread_([this] { Loop(); }) {}

HelperThread::~HelperThread() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void HelperThread::Run(const std::function<void(int)>& work) {
  uint64_t round;
  {
    std::lock_guard<std::mutex> lock(mu_);
    work_ = &work;
    round = ++round_;
  }
  cv_.notify_all();
  work(0);
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return finished_ == round; });
  work_ = nullptr;
}

void HelperThread::Loop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stop_ || round_ != seen; });
    if (stop_) return;
    seen = round_;
    const std::function<void(int)>* work = work_;
    lock.unlock();
    (*work)(1);
    lock.lock();
    finished_ = seen;
    cv_.notify_all();
  }
}

}  // namespace floe::parquet
