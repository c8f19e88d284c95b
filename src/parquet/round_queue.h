// The work of one parallel round of the writer, shared by its threads. A task may add tasks
// (encoding a column yields its pages to compress), so a thread that finds the queue empty
// waits while any task still runs, and leaves only when none can add more.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace floe::parquet {

class RoundQueue {
 public:
  // Tasks get the index of the thread that runs them (for per-thread scratch buffers).
  using Task = std::function<void(int thread)>;

  void Push(Task task) {
    {
      std::lock_guard lock(mu_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
  }

  // Runs tasks, in the order pushed, until the queue is empty and no task is running.
  void Work(int thread) {
    std::unique_lock lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return !tasks_.empty() || running_ == 0; });
      if (tasks_.empty()) return;
      Task task = std::move(tasks_.front());
      tasks_.pop_front();
      ++running_;
      lock.unlock();
      task(thread);
      lock.lock();
      --running_;
      if (running_ == 0 && tasks_.empty()) cv_.notify_all();
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;
  int running_ = 0;
};

}  // namespace floe::parquet
