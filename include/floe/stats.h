// TableStats: what a table holds per partition and how much history it keeps, summarised for
// people deciding whether it needs maintenance (what `floe stats` prints). Table::Stats and
// TableFolder::Stats compute it from one snapshot's manifest list and manifests, nothing else:
// the cost is that of planning a full scan.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace floe {

// File sizes are counted in buckets whose upper bounds grow by 4x: < 64 KiB, < 256 KiB, < 1 MiB,
// < 4 MiB, < 16 MiB, < 64 MiB, < 256 MiB, >= 256 MiB.
inline constexpr size_t kFileSizeBuckets = 8;
// The bucket `bytes` falls in, and a bucket's label ("<64K", ..., ">=256M").
size_t FileSizeBucket(int64_t bytes);
std::string FileSizeBucketLabel(size_t bucket);
// A size as people read it: "512 B", "1.5 KiB", "3.2 GiB" (powers of 1024, one decimal).
std::string FormatByteSize(int64_t bytes);

struct PartitionStats {
  std::string partition;  // JSON text of {field: value}; "{}" when unpartitioned
  int spec_id = 0;
  int64_t data_files = 0;
  int64_t data_bytes = 0;
  int64_t records = 0;
  int64_t small_files = 0;  // data files under a quarter of the target size
  int64_t position_delete_files = 0;
  int64_t equality_delete_files = 0;
  int64_t delete_records = 0;
  std::array<int64_t, kFileSizeBuckets> size_histogram{};  // data files per size bucket
};

// The deleted rows of one data file: those its deletion vector marks (format 3) and those named
// by position delete files that name no other file (format 2). A data file with no such deletes is
// not listed; rows deleted by equality deletes, or by position delete files spanning several data
// files, are counted per partition (delete_records) only.
struct DataFileDeletes {
  std::string data_file;                 // its path, as the manifests hold it
  int64_t records = 0;                   // rows written in it
  int64_t deletion_vector_rows = 0;      // rows its deletion vector marks deleted
  int64_t position_delete_rows = 0;      // rows position delete files name in it
  int64_t live_records() const { return records - deletion_vector_rows - position_delete_rows; }
};

struct TableStats {
  int64_t snapshot_id = -1;  // -1 for a table without snapshots
  int64_t snapshots = 0;
  int64_t refs = 0;
  int64_t metadata_log_entries = 0;
  int64_t manifests = 0;
  int64_t target_file_size = 0;  // write.target-file-size-bytes
  std::vector<PartitionStats> partitions;  // sorted by partition text
  PartitionStats total;                    // the sums (partition "", spec_id -1)
  std::vector<DataFileDeletes> file_deletes;  // the data files with deleted rows, by path
  // One line each, naming the floe command that would help; empty when nothing stands out.
  std::vector<std::string> hints;
};

}  // namespace floe
