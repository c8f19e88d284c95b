// DataWriter: rows into Parquet data files, split by the table's partition spec and rolled
// at write.target-file-size-bytes: a file is closed once its estimated size reaches the
// target, also in the middle of a batch (sizes are checked every few thousand rows, so a file
// passes the target by at most that many rows). Files get unique names (invariant 1) under
// <location>/data/.
//
// Nothing is visible to readers until a commit lists the files; if the commit certainly
// fails, Abort() (or the caller) deletes them. With a FileNamer, each name is recorded in the
// write's intent before its file is created (table_files/file_namer.h).
//
// A partitioned table's rows are grouped on the calling thread, and each partition's rows are
// then written on a few threads of the writer's (write/task_lanes.h: one lane per partition),
// so that several partitions' files are encoded at once while the caller groups the next
// batch. Each partition's rows reach its files in input order, and Finish lists the files
// partition by partition (in order of each partition's first row), each partition's in the
// order written: the files and their list do not depend on the threads' timing. An error of
// the writing threads is returned by a later Write or by Finish.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"
#include "table_files/file_namer.h"
#include "types/column_batch.h"
#include "write/partition_rows.h"
#include "write/task_lanes.h"

namespace floe {

struct WriteStats {
  int64_t rows = 0;
  int64_t bytes = 0;
  int64_t files = 0;
};

class DataWriter {
 public:
  // Writes with the table's current schema and default spec.
  DataWriter(FileIO& io, const TableMetadata& table, FileNamer* names = nullptr);
  ~DataWriter();

  // The batch's columns are matched to the table schema by field id (missing optional columns
  // are written as null; a missing required column is an error naming it).
  Status Write(const ColumnBatch& batch);
  // The same, taking the batch's columns over: a column that needs no conversion is written
  // from where it is, not copied.
  Status Write(ColumnBatch&& batch);
  // For a writer that moves existing rows to new files (compaction) in a format 3 table: the
  // files also store the rows' `_row_id` and `_last_updated_sequence_number` (meta/row_lineage.h),
  // taken from the batches, so that each row keeps its identity. Call before the first Write.
  void KeepRowLineage();
  // Closes every open file; the data files to commit.
  Result<std::vector<DataFile>> Finish();
  // Deletes every file written so far (the commit certainly failed or was never made).
  void Abort();

  // Rows given to Write so far; bytes and files of the files closed so far.
  WriteStats stats() const;
  // The files Finish closed (after Finish).
  const std::vector<std::string>& written_paths() const { return written_; }

 private:
  struct OpenFile;
  struct Partition;
  Result<Partition*> PartitionFor(const PartitionGroup& group);
  // Runs on the partition's lane: the rows into its open file, rolled at the target size.
  Status WriteRows(Partition& partition, const ColumnBatch& rows);
  Status OpenFileFor(Partition& partition);
  Status CloseFile(Partition& partition);
  // How many rows to write into `file` before its size is checked again.
  size_t RowsBeforeSizeCheck(const OpenFile& file) const;
  Result<ColumnBatch> ConformToSchema(ColumnBatch batch) const;

  FileIO& io_;
  const TableMetadata& table_;
  FileNamer* names_;
  Schema schema_;
  PartitionSpec spec_;
  Result<int64_t> target_file_size_;  // an unreadable write.target-file-size-bytes fails Write
  // In order of each partition's first row; a partition's state is touched only by its lane's
  // tasks, or by the caller while no task runs (after lanes_->Wait or Stop).
  std::vector<std::unique_ptr<Partition>> partitions_;
  std::map<std::string, Partition*, std::less<>> partition_of_key_;
  std::unique_ptr<TaskLanes> lanes_;  // destroyed first: its threads use the partitions
  std::vector<DataFile> finished_;
  std::vector<std::string> written_;
  mutable std::mutex stats_mu_;  // the lanes add closed files' bytes while the caller reads
  WriteStats stats_;
};

// "country=DE/ts_day=2026-01-02": the folder of a partition tuple, values escaped for paths.
std::string PartitionPath(const PartitionSpec& spec, const std::vector<Literal>& partition);

}  // namespace floe
