// Snapshots, refs (branches and tags) and the two logs a metadata document keeps.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace floe {

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // 0 for v1 snapshots
  int64_t timestamp_ms = 0;
  std::string manifest_list;             // empty for a v1 snapshot that lists manifests directly
  std::vector<std::string> v1_manifests;  // v1 only: the "manifests" field
  // The summary; "operation" is one of its keys, as in the JSON form.
  std::map<std::string, std::string> summary;
  std::optional<int> schema_id;
  std::optional<int64_t> first_row_id;  // v3 row lineage
  std::optional<int64_t> added_rows;    // v3 row lineage

  std::string operation() const {
    auto it = summary.find("operation");
    return it == summary.end() ? std::string() : it->second;
  }
};

enum class RefType { kBranch, kTag };

struct SnapshotRef {
  int64_t snapshot_id = 0;
  RefType type = RefType::kBranch;
  std::optional<int> min_snapshots_to_keep;     // branches only
  std::optional<int64_t> max_snapshot_age_ms;   // branches only
  std::optional<int64_t> max_ref_age_ms;
};

inline constexpr const char* kMainBranch = "main";

struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
};

struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
};

struct StatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
  int64_t file_footer_size_in_bytes = 0;
  std::optional<std::string> key_metadata;
  nlohmann::json blob_metadata = nlohmann::json::array();  // kept as written
};

struct PartitionStatisticsFile {
  int64_t snapshot_id = 0;
  std::string statistics_path;
  int64_t file_size_in_bytes = 0;
};

}  // namespace floe
