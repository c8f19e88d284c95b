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
// OrderedReads is OrderedStreams (ordered_streams.h) with one part per item.
#pragma once

#include <functional>

#include "scan/ordered_streams.h"
#include "floe/result.h"

namespace floe {

struct OrderedReadLimits {
  int workers = 1;    // threads reading; 1 reads on the calling thread, no thread started
  size_t window = 1;  // items started but not yet consumed; raised to `workers` if smaller
};

template <typename T>
Status OrderedReads(size_t n, OrderedReadLimits limits, const std::function<Result<T>(size_t)>& read,
                    const std::function<Result<bool>(size_t, T&&)>& consume) {
  return OrderedStreams<T>(
      n, {.workers = limits.workers, .window = limits.window, .depth = 1},
      [&](size_t i, const PartSink<T>& emit) -> Status {
        Result<T> item = read(i);
        if (!item) return std::unexpected(std::move(item.error()));
        emit(std::move(*item));
        return Ok();
      },
      consume);
}

}  // namespace floe
