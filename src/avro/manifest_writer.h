// Writing Iceberg manifests (data and delete manifests, format v1-v3) to bytes.
//
// The caller stores the bytes (the avro room does no I/O) and puts the returned ManifestFile in
// the snapshot's manifest list. New entries should leave snapshot id and sequence numbers empty:
// the manifest list supplies them when read (DESIGN.md invariant 3).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "meta/data_file.h"
#include "meta/manifest_file.h"
#include "types/partition_spec.h"
#include "types/schema.h"

namespace floe {

// A ManifestFile fresh from the writer has no sequence number yet (the commit assigns it), and
// may not know its snapshot: WriteManifestList fills fields holding these with its own values.
inline constexpr int64_t kUnassignedSequenceNumber = -1;
inline constexpr int64_t kUnassignedSnapshotId = -1;

struct ManifestWriterOptions {
  int format_version = 2;
  ManifestContent content = ManifestContent::kData;
  Schema schema;       // the table schema the partition spec binds to
  PartitionSpec spec;  // every entry's partition tuple follows this spec
  // Recorded in the returned ManifestFile only.
  std::string manifest_path;
  // The snapshot adding this manifest, when known. v1 entries must carry a snapshot id: entries
  // without one get this.
  std::optional<int64_t> snapshot_id;
  std::string codec = "deflate";  // null, deflate, snappy, zstandard
  int compression_level = -1;
};

struct WrittenManifest {
  std::string bytes;      // the Avro file
  ManifestFile manifest;  // its manifest list entry: length, counts, partition summaries
};

class ManifestWriter {
 public:
  static Result<ManifestWriter> Make(ManifestWriterOptions options);
  ManifestWriter(ManifestWriter&&) noexcept;
  ManifestWriter& operator=(ManifestWriter&&) noexcept;
  ~ManifestWriter();

  // Appends one entry. Refuses entries that do not fit the manifest (wrong content kind, a
  // partition tuple of the wrong arity or type); the writer stays usable after a refusal.
  Status Add(const ManifestEntry& entry);

  // The finished file and its ManifestFile. The writer is spent afterwards.
  Result<WrittenManifest> Finish();

 private:
  struct State;
  explicit ManifestWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Writes all `entries` into one manifest.
Result<WrittenManifest> WriteManifest(ManifestWriterOptions options, const std::vector<ManifestEntry>& entries);

}  // namespace floe
