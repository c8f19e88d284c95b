// Deleting many files in few requests: maintenance deletes through FileIO::DeleteFiles in
// batches of kDeleteBatch (S3: one DeleteObjects request a batch, where a DELETE a file is a
// request a file; object stores bill by request).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "floe/file_io.h"

namespace floe {

inline constexpr size_t kDeleteBatch = 1000;  // S3's DeleteObjects limit

// Deletes `paths` kDeleteBatch at a time. A batch that fails adds its error to `failures` (the
// other batches are still tried); `after_batch`, when set, is told how many paths each batch
// held. A path already gone counts as deleted, as for FileIO::Delete.
void DeleteInBatches(FileIO& io, const std::vector<std::string>& paths, std::vector<std::string>* failures,
                     const std::function<void(int64_t)>& after_batch = {});

}  // namespace floe
