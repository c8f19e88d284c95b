// Reads n items on a few threads and hands the results back in index order.
//
//   FLOE_RETURN_IF_ERROR(OrderedReads<ColumnBatch>(tasks.size(), {.workers = 8, .window = 8},
//       [&](size_t i) { return ReadTask(io, table, tasks[i], projection); },     // any thread
//       [&](size_t i, ColumnBatch&& rows) -> Result<bool> { ...; return true; }));  // this thread, i = 0, 1, 2...
//
// Invariants:
//   - `consume` runs on the calling thread, once per index, in ascending order: the output of
//     a parallel read is the output of a sequential one.
//   - At most `window` items are being read or waiting to be consumed at any moment (plus the
//     one `consume` holds), so memory is bounded by the window, not by n.
//   - Items start in index order, so when item j fails every item before it has started; the
//     error returned is the one of the lowest failing index, as a sequential read would give.
//   - The first error (of `read` or `consume`), or `consume` returning false, stops the reads:
//     no new item starts, and every thread has been joined before OrderedReads returns.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "util/result.h"

namespace floe {

struct OrderedReadLimits {
  int workers = 1;    // threads reading; 1 reads on the calling thread, no thread started
  size_t window = 1;  // items started but not yet consumed; raised to `workers` if smaller
};

template <typename T>
Status OrderedReads(size_t n, OrderedReadLimits limits, const std::function<Result<T>(size_t)>& read,
                    const std::function<Result<bool>(size_t, T&&)>& consume) {
  const size_t workers = std::min(n, static_cast<size_t>(std::max(limits.workers, 1)));
  if (workers <= 1) {
    for (size_t i = 0; i < n; ++i) {
      FLOE_ASSIGN_OR_RETURN(T item, read(i));
      FLOE_ASSIGN_OR_RETURN(bool more, consume(i, std::move(item)));
      if (!more) break;
    }
    return Ok();
  }
  const size_t window = std::max(limits.window, workers);

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::optional<Result<T>>> slots(window);  // item i lives in slots[i % window]
  size_t next = 0;      // the next index to start
  size_t consumed = 0;  // indices below this have been taken by the consumer
  bool stopped = false;

  auto work = [&] {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      changed.wait(lock, [&] { return stopped || next >= n || next < consumed + window; });
      if (stopped || next >= n) return;
      size_t i = next++;
      lock.unlock();
      Result<T> result = read(i);
      lock.lock();
      if (!result) {
        // Items after i are not needed: the consumer stops at i at the latest.
        n = std::min(n, i + 1);
      }
      slots[i % window].emplace(std::move(result));
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (size_t w = 0; w < workers; ++w) threads.emplace_back(work);

  Status status = Ok();
  for (size_t i = 0;; ++i) {
    std::unique_lock<std::mutex> lock(mutex);
    if (i >= n) break;
    changed.wait(lock, [&] { return slots[i % window].has_value(); });
    Result<T> result = std::move(*slots[i % window]);
    slots[i % window].reset();
    consumed = i + 1;
    changed.notify_all();
    lock.unlock();
    if (!result) {
      status = std::unexpected(std::move(result.error()));
      break;
    }
    Result<bool> more = consume(i, std::move(*result));
    if (!more) {
      status = std::unexpected(std::move(more.error()));
      break;
    }
    if (!*more) break;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopped = true;
  }
  changed.notify_all();
  for (auto& t : threads) t.join();
  return status;
}

}  // namespace floe
