// Where a table's metadata documents go and how they are named.
//
// A document is "<metadata folder>/<NNNNN>-<uuid>.metadata.json" (Iceberg's naming, so other
// engines recognize the files; the storage catalog, whose document is its pointer, names them
// "v<N>.metadata.json"). The folder also holds the table's manifests, manifest lists and the
// storage catalog's write intents.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "meta/table_metadata.h"

namespace floe {

// The folder a table's metadata documents go to: the table property write.metadata.path, or
// <location>/metadata.
std::string MetadataFolder(const TableMetadata& metadata);

// The version number in a metadata file name: 12 for ".../00012-<uuid>.metadata.json" and for
// ".../v12.metadata.json"; -1 when the name has none.
int64_t ParseMetadataVersion(std::string_view location);

// "<folder>/<NNNNN>-<uuid>.metadata.json", the version zero-padded to five digits.
std::string VersionedMetadataLocation(const std::string& folder, int64_t version);

// The parts of a versioned document name around its uuid: "<NNNNN>-", the version zero-padded
// to five digits, and ".metadata.json" (a namer that records names makes the uuid:
// catalog/document_namer.h).
std::string VersionedMetadataPrefix(int64_t version);
inline constexpr const char* kMetadataSuffix = ".metadata.json";

}  // namespace floe
