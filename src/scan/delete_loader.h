// Reading a task's delete files into the sets that delete_filter.h applies.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"
#include "scan/delete_filter.h"
#include "scan/table_scan.h"

namespace floe {

// Delete files already read, by path: many tasks share one delete file (an equality delete of
// an unpartitioned spec applies to every data file), and it should be read once per scan.
// Thread-safe.
class DeleteFileCache {
 public:
  using Loader = std::function<Result<ColumnBatch>()>;
  Result<std::shared_ptr<const ColumnBatch>> Get(const std::string& path, const Loader& load);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ColumnBatch>> batches_;
};

struct TaskDeletes {
  PositionDeleteSet positions;
  std::vector<EqualityDeleteSet> equality;  // one per distinct list of equality field ids
  bool empty() const { return positions.empty() && equality.empty(); }
};

// The file_path and pos columns of a position delete file (field ids 2147483546, 2147483545).
Result<ColumnBatch> ReadPositionDeleteFile(FileIO& io, const DataFile& file);

// The positions a deletion vector (a Puffin blob, meta/data_file.h IsDeletionVector) deletes
// from its data file, ascending. Corrupt, naming the Puffin file and the data file, when the
// entry lacks its blob's place, the blob lies outside the file, does not decode (length, magic,
// checksum, bitmap) or holds another count of positions than the entry's record_count.
Result<std::vector<int64_t>> ReadDeletionVector(FileIO& io, const DataFile& vector);

// The deletes of `task` applied to its data file. `cache` may be null.
Result<TaskDeletes> LoadTaskDeletes(FileIO& io, const TableMetadata& table, const FileScanTask& task,
                                    DeleteFileCache* cache);

// The field of a table's schemas with this id: the current schema first, then older ones
// newest first (an equality field may have been dropped since). nullptr when none has it.
const NestedField* FindFieldInTable(const TableMetadata& table, int field_id);

}  // namespace floe
