// Writing and reading Iceberg manifest lists (format v1-v3) as bytes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meta/manifest_file.h"
#include "floe/result.h"

namespace floe {

struct ManifestListWriterOptions {
  int format_version = 2;
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  // The snapshot's sequence number. Manifests whose sequence_number or min_sequence_number is
  // kUnassignedSequenceNumber (new in this commit) get it, and those whose added_snapshot_id is
  // kUnassignedSnapshotId get snapshot_id, so a retried commit only rewrites this list.
  int64_t sequence_number = 0;
  std::optional<int64_t> first_row_id;  // v3: recorded in the metadata as first-row-id
  std::string codec = "deflate";
  int compression_level = -1;
};

Result<std::string> WriteManifestList(const ManifestListWriterOptions& options,
                                      const std::vector<ManifestFile>& manifests);

struct ManifestListContents {
  int format_version = 1;
  std::map<std::string, std::string> metadata;  // key-value metadata, avro.* excluded
  std::vector<ManifestFile> manifests;
};

// Reads a manifest list; v1 lists read with content DATA and sequence numbers 0. Counts a v1
// writer left null read as 0. `path` names the file in error messages.
Result<ManifestListContents> ReadManifestList(std::string_view bytes, std::string_view path);

}  // namespace floe
