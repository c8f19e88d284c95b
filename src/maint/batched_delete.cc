#include "maint/batched_delete.h"

#include <algorithm>

namespace floe {

void DeleteInBatches(FileIO& io, const std::vector<std::string>& paths, std::vector<std::string>* failures,
                     const std::function<void(int64_t)>& after_batch) {
  for (size_t start = 0; start < paths.size(); start += kDeleteBatch) {
    const size_t end = std::min(paths.size(), start + kDeleteBatch);
    const std::vector<std::string> batch(paths.begin() + static_cast<std::ptrdiff_t>(start),
                                         paths.begin() + static_cast<std::ptrdiff_t>(end));
    if (Status deleted = io.DeleteFiles(batch); !deleted) failures->push_back(deleted.error().message);
    if (after_batch) after_batch(static_cast<int64_t>(end - start));
  }
}

}  // namespace floe
