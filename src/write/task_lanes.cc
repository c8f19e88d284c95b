#include "write/task_lanes.h"

#include <algorithm>

namespace floe {

TaskLanes::TaskLanes(int threads, size_t max_cost) : threads_(std::max(threads, 0)), max_cost_(max_cost) {}

TaskLanes::~TaskLanes() {
  Stop();
  for (std::thread& t : workers_) t.join();
}

size_t TaskLanes::AddLane() {
  std::lock_guard lock(mu_);
  lanes_.push_back(std::make_unique<Lane>());
  if (workers_.size() < static_cast<size_t>(threads_)) workers_.emplace_back([this] { Loop(); });
  return lanes_.size() - 1;
}

void TaskLanes::RaiseMaxCost(size_t max_cost) {
  std::lock_guard lock(mu_);
  max_cost_ = std::max(max_cost_, max_cost);
}

Status TaskLanes::Submit(size_t lane, size_t cost, Task task) {
  if (threads_ == 0) {  // no thread: this one alone touches failed_
    if (!failed_) return failed_;
    Status st = task();
    if (!st) failed_ = st;
    return st;
  }
  std::unique_lock lock(mu_);
  done_cv_.wait(lock, [&] { return !failed_ || queued_cost_ < max_cost_; });
  if (!failed_) return failed_;
  Lane& l = *lanes_.at(lane);
  l.tasks.emplace_back(cost, std::move(task));
  queued_cost_ += cost;
  ++unfinished_;
  if (!l.running && !l.ready) {
    l.ready = true;
    ready_.push_back(lane);
    lock.unlock();
    work_cv_.notify_one();
  }
  return Ok();
}

Status TaskLanes::Wait() {
  std::unique_lock lock(mu_);
  done_cv_.wait(lock, [&] { return unfinished_ == 0; });
  return failed_;
}

void TaskLanes::Stop() {
  std::unique_lock lock(mu_);
  FailLocked(Unavailable("task lanes stopped"));  // keeps an earlier failure, drops the queue
  stopping_ = true;
  work_cv_.notify_all();
  done_cv_.wait(lock, [&] { return unfinished_ == 0; });
}

void TaskLanes::FailLocked(Status error) {
  if (failed_) failed_ = std::move(error);
  for (auto& l : lanes_) {
    for (const auto& [cost, task] : l->tasks) queued_cost_ -= cost;
    unfinished_ -= l->tasks.size();
    l->tasks.clear();
    l->ready = false;
  }
  ready_.clear();
  done_cv_.notify_all();
}

void TaskLanes::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    work_cv_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
    if (ready_.empty()) return;  // stopping, and nothing left to start
    const size_t index = ready_.front();
    ready_.pop_front();
    Lane& lane = *lanes_[index];
    lane.ready = false;
    lane.running = true;
    auto [cost, task] = std::move(lane.tasks.front());
    lane.tasks.pop_front();
    lock.unlock();
    Status st = task();
    task = nullptr;  // what the task holds is released before the submitter learns it finished
    lock.lock();
    lane.running = false;
    queued_cost_ -= cost;
    --unfinished_;
    if (!st) FailLocked(std::move(st));
    if (!lane.tasks.empty()) {
      lane.ready = true;
      ready_.push_back(index);  // behind the lanes already waiting: every lane gets its turn
      work_cv_.notify_one();
    }
    done_cv_.notify_all();
  }
}

}  // namespace floe
