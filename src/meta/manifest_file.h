// A manifest list's entry: one manifest with its counts and partition summaries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace floe {

enum class ManifestContent { kData = 0, kDeletes = 1 };

struct PartitionFieldSummary {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<std::string> lower_bound;  // binary single-value form
  std::optional<std::string> upper_bound;
};

struct ManifestFile {
  std::string manifest_path;
  int64_t manifest_length = 0;
  int partition_spec_id = 0;
  ManifestContent content = ManifestContent::kData;
  // The commit's sequence number for manifests it added; min over the live entries' data
  // sequence numbers. Both 0 for v1.
  int64_t sequence_number = 0;
  int64_t min_sequence_number = 0;
  int64_t added_snapshot_id = 0;
  int32_t added_files_count = 0;
  int32_t existing_files_count = 0;
  int32_t deleted_files_count = 0;
  int64_t added_rows_count = 0;
  int64_t existing_rows_count = 0;
  int64_t deleted_rows_count = 0;
  std::vector<PartitionFieldSummary> partitions;
  std::optional<std::string> key_metadata;
  std::optional<int64_t> first_row_id;  // v3

  bool has_added_files() const { return added_files_count > 0; }
  bool has_existing_files() const { return existing_files_count > 0; }
  bool has_deleted_files() const { return deleted_files_count > 0; }
};

}  // namespace floe
