// Reading a snapshot's manifests through FileIO: the manifest list, then one manifest's entries.
//
// These open exactly the files asked for. A scan reads the manifest list of the one snapshot it
// resolved and only the manifests that survive pruning; nothing here walks other snapshots
// (their manifest lists may already be expired and gone).
#pragma once

#include <vector>

#include "io/file_io.h"
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

}  // namespace floe
