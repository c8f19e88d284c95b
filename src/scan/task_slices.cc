#include "scan/task_slices.h"

#include <algorithm>

#include "io/s3_client.h"

namespace floe {

namespace {

constexpr int64_t kMaxSlicesPerTask = 4096;  // a record count claiming more is not believed to the row

}  // namespace

std::vector<TaskSlice> SliceTasks(const ScanPlan& plan, int workers, int64_t slice_rows) {
  slice_rows = std::max<int64_t>(slice_rows, 1);
  std::vector<TaskSlice> slices;
  slices.reserve(plan.tasks.size());
  const bool cut = workers > 1 && !plan.limit.has_value() && plan.tasks.size() < 4 * static_cast<size_t>(workers);
  for (size_t i = 0; i < plan.tasks.size(); ++i) {
    const DataFile& file = plan.tasks[i].file;
    const int64_t rows = file.record_count;
    if (!cut || rows < 2 * slice_rows || IsS3Uri(file.file_path)) {
      slices.push_back({.task = i});
      continue;
    }
    // Rounded up without rows + slice_rows, which overflows for a count near INT64_MAX.
    const int64_t n = std::min(kMaxSlicesPerTask, rows / slice_rows + (rows % slice_rows != 0));
    for (int64_t k = 0; k < n; ++k) {
      // Even cuts of the counted rows; the last reaches the end of the file, counted or not.
      int64_t begin = rows / n * k + std::min(k, rows % n);
      int64_t end = k + 1 == n ? -1 : rows / n * (k + 1) + std::min(k + 1, rows % n);
      slices.push_back({.task = i, .row_begin = begin, .row_end = end});
    }
  }
  return slices;
}

SharedTaskDeletes::SharedTaskDeletes(const std::vector<TaskSlice>& slices) {
  for (const TaskSlice& s : slices) {
    auto& entry = entries_[s.task];
    if (!entry) entry = std::make_shared<Entry>();
    ++entry->slices_left;
  }
}

Result<std::shared_ptr<const TaskDeletes>> SharedTaskDeletes::Get(FileIO& io, const TableMetadata& table,
                                                                  const FileScanTask& task, size_t task_index,
                                                                  DeleteFileCache* cache) {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(task_index);
    if (it != entries_.end()) entry = it->second;
  }
  if (!entry) {  // not a task of the slices given: load it for this caller alone
    FLOE_ASSIGN_OR_RETURN(TaskDeletes d, LoadTaskDeletes(io, table, task, cache));
    return std::make_shared<const TaskDeletes>(std::move(d));
  }
  std::lock_guard<std::mutex> lock(entry->loading);
  if (!entry->deletes) {  // a failed load is not kept: the next slice tries again and says why
    FLOE_ASSIGN_OR_RETURN(TaskDeletes d, LoadTaskDeletes(io, table, task, cache));
    entry->deletes = std::make_shared<const TaskDeletes>(std::move(d));
  }
  return entry->deletes;
}

void SharedTaskDeletes::Done(size_t task_index) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(task_index);
  if (it != entries_.end() && --it->second->slices_left == 0) entries_.erase(it);
}

}  // namespace floe
