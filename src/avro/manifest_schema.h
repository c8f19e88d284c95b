// The Avro schemas of Iceberg manifests (manifest_entry) and manifest lists (manifest_file),
// with the field ids of the table spec, per format version.
#pragma once

#include <nlohmann/json.hpp>

#include "types/type.h"
#include "floe/result.h"

namespace floe::avro {

// Iceberg's field ids for manifest and manifest list fields.
namespace ids {
inline constexpr int kStatus = 0, kSnapshotId = 1, kDataFile = 2, kSequenceNumber = 3, kFileSequenceNumber = 4;
inline constexpr int kFilePath = 100, kFileFormat = 101, kPartition = 102, kRecordCount = 103,
                     kFileSizeInBytes = 104, kBlockSizeInBytes = 105, kColumnSizes = 108, kValueCounts = 109,
                     kNullValueCounts = 110, kLowerBounds = 125, kUpperBounds = 128, kKeyMetadata = 131,
                     kSplitOffsets = 132, kSplitOffsetsElement = 133, kContent = 134, kEqualityIds = 135,
                     kEqualityIdsElement = 136, kNanValueCounts = 137, kSortOrderId = 140, kFirstRowId = 142,
                     kReferencedDataFile = 143, kContentOffset = 144, kContentSizeInBytes = 145;
inline constexpr int kManifestPath = 500, kManifestLength = 501, kPartitionSpecId = 502, kAddedSnapshotId = 503,
                     kAddedFilesCount = 504, kExistingFilesCount = 505, kDeletedFilesCount = 506,
                     kPartitions = 507, kPartitionsElement = 508, kContainsNull = 509, kLowerBound = 510,
                     kUpperBound = 511, kAddedRowsCount = 512, kExistingRowsCount = 513, kDeletedRowsCount = 514,
                     kManifestSequenceNumber = 515, kMinSequenceNumber = 516, kManifestContent = 517,
                     kContainsNan = 518, kManifestKeyMetadata = 519, kManifestFirstRowId = 520;
}  // namespace ids

// The default block size v1 writers must still fill in (field 105).
inline constexpr int64_t kV1BlockSizeInBytes = 64 * 1024 * 1024;

// manifest_entry for a format version (1-3) and the partition tuple's struct type (field ids are
// the partition field ids).
Result<nlohmann::ordered_json> ManifestEntrySchema(int format_version, const Type& partition_type);

// manifest_file for a format version (1-3).
nlohmann::ordered_json ManifestFileSchema(int format_version);

}  // namespace floe::avro
