// A scan's tasks cut into slices of rows, so that a table of one to a few large files still
// keeps every reading thread busy to the end (StreamTasks reads slices, not whole files).
//
//   std::vector<TaskSlice> slices = SliceTasks(plan, workers);   // in task order, then row order
//   SharedTaskDeletes deletes(slices);
//   ... on any thread, for slice s:
//   FLOE_ASSIGN_OR_RETURN(auto d, deletes.Get(io, table, plan.tasks[s.task], s.task, &cache));
//   ReadTaskBatches(..., {.row_begin = s.row_begin, .row_end = s.row_end, .deletes = d.get()}, emit);
//   deletes.Done(s.task);
//
// Invariants:
//   - The slices of a task cover its file's positions [0, end of file) exactly once, in order:
//     the last one reads to the end of the file whatever the manifest's record count says, so
//     a wrong count changes how the work is cut, never which rows are read.
//   - A slice is a range of file positions, not of returned rows: position deletes, the
//     residual and equality deletes apply to each row the same whichever slice reads it.
//   - A task's deletes are read once for all its slices (the equality key set of a large
//     delete file is built once, not once per slice) and let go when its last slice is done.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "scan/delete_loader.h"
#include "scan/table_scan.h"

namespace floe {

struct TaskSlice {
  size_t task = 0;         // index into plan.tasks
  int64_t row_begin = 0;   // file positions [row_begin, row_end) of that task's file
  int64_t row_end = -1;    // -1: to the end of the file
};

// Rows a slice of a large file holds at least. A slice that starts or ends inside a page
// decodes that whole page (a page is decompressed whole, and its values are decoded whole), so
// each cut costs about one page per column twice over: a dictionary-id page of floe's writer
// holds up to ~500K rows. 1M-row slices keep that a small part of reading the slice.
inline constexpr int64_t kSliceRows = int64_t{1} << 20;

// One slice per task, except on `workers` > 1 local threads without a limit when the plan has
// fewer than 4 tasks per thread (with more, whole files already keep the threads busy to within
// an eighth of the end): then a task of at least 2 x `slice_rows` rows (by its manifest's
// record count) is cut into slices of about `slice_rows`. Object stores are not cut: each slice
// would fetch its row group's byte ranges again.
std::vector<TaskSlice> SliceTasks(const ScanPlan& plan, int workers, int64_t slice_rows = kSliceRows);

// Each task's deletes, loaded by the first of its slices that asks, shared by the others, and
// dropped when the task's last slice is Done. Thread-safe.
class SharedTaskDeletes {
 public:
  explicit SharedTaskDeletes(const std::vector<TaskSlice>& slices);

  Result<std::shared_ptr<const TaskDeletes>> Get(FileIO& io, const TableMetadata& table, const FileScanTask& task,
                                                 size_t task_index, DeleteFileCache* cache);
  // One slice of the task is done (called once per slice, whether or not it called Get).
  void Done(size_t task_index);

 private:
  struct Entry {
    std::mutex loading;  // held while the deletes load, so a second slice waits for them
    std::shared_ptr<const TaskDeletes> deletes;
    size_t slices_left = 0;
  };
  std::mutex mutex_;
  std::map<size_t, std::shared_ptr<Entry>> entries_;
};

}  // namespace floe
