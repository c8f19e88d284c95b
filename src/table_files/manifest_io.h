// Manifests and manifest lists through FileIO: the one place that reads and writes them for
// scans, commits, purge and maintenance (the avro room's encoders below it know no FileIO).
//
// Reading opens exactly the files asked for. A scan reads the manifest list of the one snapshot
// it resolved and only the manifests that survive pruning; nothing here walks other snapshots
// (their manifest lists may already be expired and gone).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/background_write.h"
#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/manifest_file.h"
#include "meta/table_metadata.h"

namespace floe {

// The manifests of `snapshot`. A v1 snapshot may list its manifests directly (no manifest
// list); each of those is opened once to summarize it (spec id, counts, partition summaries),
// with the snapshot's id standing in for the adding snapshot and sequence numbers 0.
Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const TableMetadata& table, const Snapshot& snapshot);

// Every entry of `manifest` (ADDED, EXISTING and DELETED), with snapshot id and sequence
// numbers inherited from `manifest` per the spec.
Result<std::vector<ManifestEntry>> ReadManifestEntries(FileIO& io, const TableMetadata& table,
                                                       const ManifestFile& manifest);

// ---- writing ----

// Writes `entries` (all of one spec and one content kind) as a new manifest at `path`, a fresh
// name nothing points to yet (written in place: FileIO::CreateUnreferenced). The returned
// ManifestFile has counts, partition summaries and length; the caller sets added_snapshot_id
// and the sequence numbers when it lists the manifest.
// With `background` set, the durable write is left running there (see
// OperationContext::background_writes) and only the encoding is done when this returns.
Result<ManifestFile> WriteManifestFile(FileIO& io, const TableMetadata& table, int spec_id, ManifestContent content,
                                       const std::vector<ManifestEntry>& entries, const std::string& path,
                                       BackgroundWrites* background = nullptr);

// Writes a snapshot's manifest list at `path` (create-if-absent, in place: a fresh name).
Status WriteManifestListFile(FileIO& io, const TableMetadata& table, const std::vector<ManifestFile>& manifests,
                             int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id, int64_t sequence_number,
                             const std::string& path, std::optional<int64_t> first_row_id = std::nullopt);
// The same list's bytes, for a caller that writes them itself (the commit loop, on another
// thread). `first_row_id` (format 3) is the snapshot's first-row-id, recorded in the list's
// header as Iceberg Java does; the manifests carry their own first_row_id.
Result<std::string> ManifestListBytes(const TableMetadata& table, const std::vector<ManifestFile>& manifests,
                                      int64_t snapshot_id, std::optional<int64_t> parent_snapshot_id,
                                      int64_t sequence_number, std::optional<int64_t> first_row_id = std::nullopt);

}  // namespace floe
