// A scan's rows a batch at a time, on several threads, in task order: what `floe scan` writes
// out without holding a whole data file.
//
//   FLOE_RETURN_IF_ERROR(StreamTasks<std::string>(io, table, plan, 0,
//       [&](ColumnBatch&& rows, const PartSink<std::string>& emit) -> Status {  // a reading thread
//         std::string text = ...rows as CSV...;  emit(std::move(text));  return Ok();
//       },
//       [&](std::string&& text) -> Result<bool> { out.write(...); return true; }));  // this thread
//
// The unit of work is a slice of a task (task_slices.h: in a plan of few files, a large local
// file is cut into ranges of about kSliceRows rows), so that two threads share the last file of
// a table instead of one reading it alone. Each reading thread decodes its slice a few pages at
// a time (RowGroupStream, when the read columns are flat; a row group at a time otherwise),
// applies the deletes (read once per task) and the residual, and hands each batch to
// `prepare`, which turns it into parts (formatted text, or the batch itself) on that same
// thread, so that decoding and preparing the next slice overlap the consumer's writing of this
// one. The parts reach `consume` on the calling thread in slice order: task order, then file
// order, the rows of ReadTasks in the same order. Memory is bounded by 2 x threads slices (1M
// rows each) or, uncut, by threads x 4 parts (OrderedStreams), not by the size of a data file
// or the table. A plan with a limit reads one task at a time, only as far as the rows still
// missing, and stops once they have been handed on.
#pragma once

#include <cstdint>
#include <functional>

#include "scan/delete_loader.h"
#include "scan/ordered_streams.h"
#include "scan/table_scan.h"
#include "scan/task_slices.h"

namespace floe {

// Which rows of a task a read covers (a TaskSlice's range), and the task's deletes when they
// are loaded already.
struct TaskRows {
  int64_t row_begin = 0;  // file positions [row_begin, row_end); -1: to the end of the file
  int64_t row_end = -1;
  const TaskDeletes* deletes = nullptr;  // null: read from the task's delete files (through `cache`)
};

// The rows of one task at file positions `rows`, a batch at a time, in file order, to `emit`
// (false: stop reading). `max_rows` >= 0 returns only the first that many rows. `cache` may be
// null. Flat columns are cut at any row; a row group holding a column that cannot be streamed
// (a struct, list or map) is read whole by the range holding its first row.
Status ReadTaskBatches(FileIO& io, const TableMetadata& table, const FileScanTask& task, const Schema& projection,
                       DeleteFileCache* cache, int64_t max_rows, const std::function<bool(ColumnBatch&&)>& emit,
                       const TaskRows& rows = {});

template <typename T>
using BatchPrepare = std::function<Status(ColumnBatch&& rows, const PartSink<T>& emit)>;

// `slice_rows` other than kSliceRows is for tests (SliceTasks).
template <typename T>
Status StreamTasks(FileIO& io, const TableMetadata& table, const ScanPlan& plan, int parallelism,
                   const BatchPrepare<T>& prepare, const std::function<Result<bool>(T&&)>& consume,
                   int64_t slice_rows = kSliceRows) {
  if (plan.tasks.empty()) return Ok();
  DeleteFileCache cache;  // thread-safe: tasks read at once share a delete file's rows
  const bool limited = plan.limit.has_value();
  int64_t left = plan.limit.value_or(-1);  // only touched when limited, on the one reading thread
  const int workers = limited ? 1 : ScanParallelism(parallelism, plan.tasks.front().file.file_path);
  const std::vector<TaskSlice> slices = SliceTasks(plan, workers, slice_rows);
  SharedTaskDeletes deletes(slices);
  auto read_slice = [&](const TaskSlice& slice, const PartSink<T>& emit) -> Status {
    if (limited && left <= 0) return Ok();
    const FileScanTask& task = plan.tasks[slice.task];
    const std::string& path = task.file.file_path;
    auto loaded = deletes.Get(io, table, task, slice.task, &cache);
    if (!loaded && loaded.error().message.find(path) == std::string::npos)
      return std::unexpected(loaded.error().WithContext("reading data file " + path));
    FLOE_RETURN_IF_ERROR(loaded);
    Status prepared = Ok();
    bool stopped = false;  // the consumer wants no more parts
    const PartSink<T> handed = [&](T&& part) { return emit(std::move(part)) || (stopped = true, false); };
    Status read = ReadTaskBatches(
        io, table, task, plan.projection, &cache, limited ? left : -1,
        [&](ColumnBatch&& rows) {
          if (limited) left -= static_cast<int64_t>(rows.num_rows);
          prepared = prepare(std::move(rows), handed);
          return prepared.has_value() && !stopped;
        },
        {.row_begin = slice.row_begin, .row_end = slice.row_end, .deletes = loaded->get()});
    if (!read && read.error().message.find(path) == std::string::npos)
      return std::unexpected(read.error().WithContext("reading data file " + path));
    FLOE_RETURN_IF_ERROR(read);
    return prepared;
  };
  // When cut, a slot holds up to a whole slice's parts (64 text parts of 16K rows, or its 16
  // batches), so that a thread ahead of the consumer finishes its slice and starts the next
  // instead of waiting for the consumer; twice as many slots as threads let it start.
  const bool sliced = slices.size() > plan.tasks.size();
  return OrderedStreams<T>(
      slices.size(),
      {.workers = workers, .window = static_cast<size_t>(sliced ? 2 * workers : workers), .depth = sliced ? 64u : 4u},
      [&](size_t k, const PartSink<T>& emit) {
        Status st = read_slice(slices[k], emit);
        deletes.Done(slices[k].task);
        return st;
      },
      [&](size_t, T&& part) { return consume(std::move(part)); });
}

}  // namespace floe
