#include "scan/table_stats.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "meta/table_properties.h"
#include "scan/manifest_reading.h"
#include "scan/metadata_table_util.h"
#include "scan/snapshot_selection.h"

namespace floe {

size_t FileSizeBucket(int64_t bytes) {
  int64_t bound = 64 * 1024;
  for (size_t bucket = 0; bucket + 1 < kFileSizeBuckets; ++bucket, bound *= 4) {
    if (bytes < bound) return bucket;
  }
  return kFileSizeBuckets - 1;
}

std::string FormatByteSize(int64_t n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) v /= 1024, ++u;
  return u == 0 ? fmt::format("{} B", n) : fmt::format("{:.1f} {}", v, units[u]);
}

std::string FileSizeBucketLabel(size_t bucket) {
  static const char* kLabels[kFileSizeBuckets] = {"<64K", "<256K", "<1M", "<4M", "<16M", "<64M", "<256M", ">=256M"};
  return bucket < kFileSizeBuckets ? kLabels[bucket] : "?";
}

namespace {

void AddFile(const DataFile& file, int64_t target_file_size, PartitionStats* stats) {
  switch (file.content) {
    case FileContent::kData:
      ++stats->data_files;
      stats->data_bytes += file.file_size_in_bytes;
      stats->records += file.record_count;
      if (file.file_size_in_bytes < target_file_size / 4) ++stats->small_files;
      ++stats->size_histogram[FileSizeBucket(file.file_size_in_bytes)];
      break;
    case FileContent::kPositionDeletes:
      ++stats->position_delete_files;
      stats->delete_records += file.record_count;
      break;
    case FileContent::kEqualityDeletes:
      ++stats->equality_delete_files;
      stats->delete_records += file.record_count;
      break;
  }
}

void AddInto(const PartitionStats& part, PartitionStats* total) {
  total->data_files += part.data_files;
  total->data_bytes += part.data_bytes;
  total->records += part.records;
  total->small_files += part.small_files;
  total->position_delete_files += part.position_delete_files;
  total->equality_delete_files += part.equality_delete_files;
  total->delete_records += part.delete_records;
  for (size_t i = 0; i < kFileSizeBuckets; ++i) total->size_histogram[i] += part.size_histogram[i];
}

// The one data file a position delete file's rows name: the file it references (always so for a
// deletion vector), or the single path its file_path bounds allow; none when it may name several.
std::optional<std::string> TargetDataFile(const DataFile& f) {
  if (f.referenced_data_file) return *f.referenced_data_file;
  auto lower = f.lower_bounds.find(kDeleteFilePathFieldId);
  auto upper = f.upper_bounds.find(kDeleteFilePathFieldId);
  if (lower == f.lower_bounds.end() || upper == f.upper_bounds.end() || lower->second != upper->second) return {};
  return lower->second;
}

// Thresholds are deliberately plain: a hint is a suggestion to look, not a policy.
std::vector<std::string> Hints(const TableStats& stats, const std::string& name_hint) {
  std::vector<std::string> hints;
  const PartitionStats& t = stats.total;
  int64_t crowded = 0;
  for (const auto& p : stats.partitions) crowded += p.small_files >= 8 ? 1 : 0;
  if (crowded > 0) {
    hints.push_back(fmt::format("{} partition(s) hold 8 or more small data files: floe rewrite-data-files {}",
                                crowded, name_hint));
  }
  int64_t deletes = t.position_delete_files + t.equality_delete_files;
  if (deletes > 0 && deletes * 4 >= t.data_files) {
    hints.push_back(fmt::format("{} delete files against {} data files slow every read: floe rewrite-data-files {}",
                                deletes, t.data_files, name_hint));
  }
  if (stats.snapshots > 100) {
    hints.push_back(fmt::format("{} snapshots of history make every commit rewrite a large document: "
                                "floe expire-snapshots {}",
                                stats.snapshots, name_hint));
  }
  if (stats.manifests > 100 && stats.manifests * 10 > t.data_files + t.position_delete_files) {
    hints.push_back(fmt::format("{} manifests for {} files: floe rewrite-manifests {}", stats.manifests,
                                t.data_files, name_hint));
  }
  return hints;
}

}  // namespace

Result<TableStats> ComputeTableStats(FileIO& io, const TableMetadata& table, const ScanOptions& options,
                                     const std::string& table_name) {
  TableStats stats;
  stats.snapshots = static_cast<int64_t>(table.snapshots.size());
  stats.refs = static_cast<int64_t>(table.refs.size());
  stats.metadata_log_entries = static_cast<int64_t>(table.metadata_log.size());
  FLOE_ASSIGN_OR_RETURN(stats.target_file_size,
                        table.CountProperty(props::kTargetFileSizeBytes, props::kTargetFileSizeBytesDefault));
  stats.total.spec_id = -1;
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, SelectSnapshot(table, options));
  if (snapshot != nullptr) {
    stats.snapshot_id = snapshot->snapshot_id;
    FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(io, table, *snapshot));
    stats.manifests = static_cast<int64_t>(manifests.size());
    std::map<std::pair<int, std::string>, PartitionStats> by_partition;
    std::map<std::string, DataFileDeletes> data_files;  // every live data file, by path
    struct NamedDeletes {
      std::string data_file;
      int64_t rows = 0;
      bool deletion_vector = false;
    };
    std::vector<NamedDeletes> position_deletes;  // live position delete files naming one data file
    for (const ManifestFile& manifest : manifests) {
      FLOE_ASSIGN_OR_RETURN(auto entries, ReadManifestEntries(io, table, manifest));
      for (const ManifestEntry& entry : entries) {
        if (entry.status == EntryStatus::kDeleted) continue;
        if (entry.file.content == FileContent::kData) {
          data_files[entry.file.file_path] = DataFileDeletes{.data_file = entry.file.file_path,
                                                             .records = entry.file.record_count};
        } else if (entry.file.content == FileContent::kPositionDeletes) {
          if (auto target = TargetDataFile(entry.file)) {
            position_deletes.push_back({std::move(*target), entry.file.record_count, IsDeletionVector(entry.file)});
          }
        }
        std::string text = PartitionJson(table, entry.file.spec_id, entry.file.partition).dump();
        PartitionStats& part = by_partition[{entry.file.spec_id, text}];
        part.partition = text;
        part.spec_id = entry.file.spec_id;
        AddFile(entry.file, stats.target_file_size, &part);
      }
    }
    for (const NamedDeletes& deletes : position_deletes) {
      auto file = data_files.find(deletes.data_file);
      if (file == data_files.end()) continue;  // a file no longer live
      (deletes.deletion_vector ? file->second.deletion_vector_rows : file->second.position_delete_rows) += deletes.rows;
    }
    for (auto& [path, file] : data_files) {
      if (file.deletion_vector_rows + file.position_delete_rows > 0) stats.file_deletes.push_back(std::move(file));
    }
    for (auto& [key, part] : by_partition) {
      AddInto(part, &stats.total);
      stats.partitions.push_back(std::move(part));
    }
    std::stable_sort(stats.partitions.begin(), stats.partitions.end(),
                     [](const PartitionStats& a, const PartitionStats& b) { return a.partition < b.partition; });
  }
  stats.hints = Hints(stats, table_name);
  return stats;
}

}  // namespace floe
