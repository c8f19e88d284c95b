// A scan's rows a batch at a time, on several threads, in task order: what `floe scan` writes
// out without holding a whole data file.
//
//   FLOE_RETURN_IF_ERROR(StreamTasks<std::string>(io, table, plan, 0,
//       [&](ColumnBatch&& rows, const PartSink<std::string>& emit) -> Status {  // a reading thread
//         std::string text = ...rows as CSV...;  emit(std::move(text));  return Ok();
//       },
//       [&](std::string&& text) -> Result<bool> { out.write(...); return true; }));  // this thread
//
// Each reading thread decodes its task a few pages at a time (RowGroupStream, when the read
// columns are flat; a row group at a time otherwise), applies the deletes and the residual, and
// hands each batch to `prepare`, which turns it into parts (formatted text, or the batch itself)
// on that same thread, so that decoding and preparing the next task overlap the consumer's
// writing of this one. The parts reach `consume` on the calling thread in task order, then in
// file order: the rows of ReadTasks, in the same order. Memory is bounded by the threads'
// batches and a few parts each (OrderedStreams), not by the size of a data file or the table.
// A plan with a limit reads one task at a time, only as far as the rows still missing, and
// stops once they have been handed on.
#pragma once

#include <cstdint>
#include <functional>

#include "scan/delete_loader.h"
#include "scan/ordered_streams.h"
#include "scan/table_scan.h"

namespace floe {

// The rows of one task, a batch at a time, in file order, to `emit` (false: stop reading).
// `max_rows` >= 0 returns only the first that many rows. `cache` may be null.
Status ReadTaskBatches(FileIO& io, const TableMetadata& table, const FileScanTask& task, const Schema& projection,
                       DeleteFileCache* cache, int64_t max_rows, const std::function<bool(ColumnBatch&&)>& emit);

template <typename T>
using BatchPrepare = std::function<Status(ColumnBatch&& rows, const PartSink<T>& emit)>;

template <typename T>
Status StreamTasks(FileIO& io, const TableMetadata& table, const ScanPlan& plan, int parallelism,
                   const BatchPrepare<T>& prepare, const std::function<Result<bool>(T&&)>& consume) {
  if (plan.tasks.empty()) return Ok();
  DeleteFileCache cache;  // thread-safe: tasks read at once share a delete file's rows
  const bool limited = plan.limit.has_value();
  int64_t left = plan.limit.value_or(-1);  // only touched when limited, on the one reading thread
  const int workers = limited ? 1 : ScanParallelism(parallelism, plan.tasks.front().file.file_path);
  auto produce = [&](size_t i, const PartSink<T>& emit) -> Status {
    if (limited && left <= 0) return Ok();
    Status prepared = Ok();
    bool stopped = false;  // the consumer wants no more parts
    const PartSink<T> handed = [&](T&& part) { return emit(std::move(part)) || (stopped = true, false); };
    const std::string& path = plan.tasks[i].file.file_path;
    Status read = ReadTaskBatches(io, table, plan.tasks[i], plan.projection, &cache, limited ? left : -1,
                                  [&](ColumnBatch&& rows) {
                                    if (limited) left -= static_cast<int64_t>(rows.num_rows);
                                    prepared = prepare(std::move(rows), handed);
                                    return prepared.has_value() && !stopped;
                                  });
    if (!read && read.error().message.find(path) == std::string::npos)
      return std::unexpected(read.error().WithContext("reading data file " + path));
    FLOE_RETURN_IF_ERROR(read);
    return prepared;
  };
  return OrderedStreams<T>(
      plan.tasks.size(), {.workers = workers, .window = static_cast<size_t>(workers), .depth = 4}, produce,
      [&](size_t, T&& part) { return consume(std::move(part)); });
}

}  // namespace floe
