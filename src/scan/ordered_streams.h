// Produces n items on a few threads, each item a stream of parts, and hands the parts back in
// order: every part of item 0 in the order it made them, then item 1's, ...
//
//   FLOE_RETURN_IF_ERROR(OrderedStreams<ColumnBatch>(tasks.size(), {.workers = 2, .window = 2, .depth = 2},
//       [&](size_t i, const PartSink<ColumnBatch>& emit) -> Status {    // any thread
//         ... for each row group: if (!emit(std::move(rows))) return Ok();  // false: stop early
//       },
//       [&](size_t i, ColumnBatch&& rows) -> Result<bool> { ...; return true; }));  // this thread
//
// Invariants:
//   - `consume` runs on the calling thread, in item order and, within an item, in the order of
//     `emit`: the output of a parallel run is the output of a sequential one.
//   - At most `window` items are being produced or holding parts, each holding at most `depth`
//     parts not yet consumed (`emit` waits for room), plus the one part `consume` holds: memory
//     is bounded by window x depth parts, not by n nor by an item's size.
//   - Items start in index order, so the item the consumer waits for has always started or can
//     start; its producer waits only for the consumer, which drains it: no deadlock.
//   - The error returned is the lowest failing item's, after the parts it emitted before failing
//     were consumed, as a sequential run would give. An error, or `consume` returning false,
//     stops everything: `emit` returns false, no item starts, and every thread is joined before
//     OrderedStreams returns.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "floe/result.h"

namespace floe {

struct OrderedStreamLimits {
  int workers = 1;    // threads producing; 1 produces on the calling thread, no thread started
  size_t window = 1;  // items started but not wholly consumed; raised to `workers` if smaller
  size_t depth = 2;   // parts an item may hold unconsumed; at least 1
};

// Hands one part on; false when the consumer has stopped (the producer should return).
template <typename T>
using PartSink = std::function<bool(T&&)>;

template <typename T>
Status OrderedStreams(size_t n, OrderedStreamLimits limits,
                      const std::function<Status(size_t, const PartSink<T>&)>& produce,
                      const std::function<Result<bool>(size_t, T&&)>& consume) {
  const size_t workers = std::min(n, static_cast<size_t>(std::max(limits.workers, 1)));
  if (workers <= 1) {
    for (size_t i = 0; i < n; ++i) {
      Status failed = Ok();
      bool more = true;
      PartSink<T> emit = [&](T&& part) {
        if (!more) return false;
        Result<bool> r = consume(i, std::move(part));
        if (!r) {
          failed = std::unexpected(std::move(r.error()));
          more = false;
        } else {
          more = *r;
        }
        return more;
      };
      Status produced = produce(i, emit);
      FLOE_RETURN_IF_ERROR(failed);
      FLOE_RETURN_IF_ERROR(produced);
      if (!more) break;
    }
    return Ok();
  }
  const size_t window = std::max(limits.window, workers);
  const size_t depth = std::max<size_t>(limits.depth, 1);

  struct Slot {
    std::deque<T> parts;
    bool done = false;  // the producer returned; `status` is its result
    Status status = Ok();
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<Slot> slots(window);  // item i lives in slots[i % window]
  size_t next = 0;      // the next index to start
  size_t consumed = 0;  // items below this have been wholly consumed
  bool stopped = false;

  auto work = [&] {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      changed.wait(lock, [&] { return stopped || next >= n || next < consumed + window; });
      if (stopped || next >= n) return;
      size_t i = next++;
      Slot& slot = slots[i % window];
      lock.unlock();
      PartSink<T> emit = [&](T&& part) {
        std::unique_lock<std::mutex> l(mutex);
        changed.wait(l, [&] { return stopped || slot.parts.size() < depth; });
        if (stopped) return false;
        slot.parts.push_back(std::move(part));
        changed.notify_all();
        return true;
      };
      Status status = produce(i, emit);
      lock.lock();
      if (!status) n = std::min(n, i + 1);  // items after i are not needed: the consumer stops at i
      slot.status = std::move(status);
      slot.done = true;
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (size_t w = 0; w < workers; ++w) threads.emplace_back(work);

  Status status = Ok();
  bool more = true;
  for (size_t i = 0; more; ++i) {
    std::unique_lock<std::mutex> lock(mutex);
    if (i >= n) break;
    Slot& slot = slots[i % window];
    while (true) {
      changed.wait(lock, [&] { return !slot.parts.empty() || slot.done; });
      if (slot.parts.empty()) break;  // done and drained
      T part = std::move(slot.parts.front());
      slot.parts.pop_front();
      changed.notify_all();
      lock.unlock();
      Result<bool> r = consume(i, std::move(part));
      lock.lock();
      if (!r) status = std::unexpected(std::move(r.error()));
      if (!r || !*r) {
        more = false;
        break;
      }
    }
    if (!more) break;
    if (!slot.status) {
      status = std::move(slot.status);
      break;
    }
    slot = Slot{};
    consumed = i + 1;
    changed.notify_all();
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
