#include "api/read_ahead.h"

#include <algorithm>

namespace floe {

ReadAhead::ReadAhead(RowSource source, size_t depth)
    : source_(std::move(source)), depth_(std::max<size_t>(depth, 1)), thread_([this] { Loop(); }) {}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void ReadAhead::Loop() {
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
    }
    ColumnBatch batch;
    Result<bool> more = source_(&batch);
    std::unique_lock lock(mu_);
    if (!more || !*more) {
      if (!more) error_ = std::unexpected(more.error());
      done_ = true;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return stop_ || ready_.size() < depth_; });
    if (stop_) return;
    ready_.push_back(std::move(batch));
    cv_.notify_all();
  }
}

Result<bool> ReadAhead::Next(ColumnBatch* batch) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !ready_.empty() || done_; });
  if (!ready_.empty()) {
    *batch = std::move(ready_.front());
    ready_.pop_front();
    cv_.notify_all();
    return true;
  }
  if (!error_) {
    Status failed = std::move(error_);
    error_ = Ok();
    return std::unexpected(failed.error());
  }
  return false;
}

}  // namespace floe
