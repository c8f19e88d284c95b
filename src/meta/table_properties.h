// Iceberg table property names and defaults that floe honours, in one place.
#pragma once

#include <cstdint>

namespace floe::props {

inline constexpr const char* kCommitNumRetries = "commit.retry.num-retries";
inline constexpr int64_t kCommitNumRetriesDefault = 4;
inline constexpr const char* kCommitMinWaitMs = "commit.retry.min-wait-ms";
inline constexpr int64_t kCommitMinWaitMsDefault = 100;
inline constexpr const char* kCommitMaxWaitMs = "commit.retry.max-wait-ms";
inline constexpr int64_t kCommitMaxWaitMsDefault = 60000;
inline constexpr const char* kCommitTotalTimeoutMs = "commit.retry.total-timeout-ms";
inline constexpr int64_t kCommitTotalTimeoutMsDefault = 1800000;

inline constexpr const char* kManifestMergeEnabled = "commit.manifest.merge.enabled";
inline constexpr bool kManifestMergeEnabledDefault = true;
inline constexpr const char* kManifestMinMergeCount = "commit.manifest.min-count-to-merge";
inline constexpr int64_t kManifestMinMergeCountDefault = 100;
inline constexpr const char* kManifestTargetSizeBytes = "commit.manifest.target-size-bytes";
inline constexpr int64_t kManifestTargetSizeBytesDefault = 8 * 1024 * 1024;

inline constexpr const char* kDeleteIsolationLevel = "write.delete.isolation-level";
inline constexpr const char* kUpdateIsolationLevel = "write.update.isolation-level";
inline constexpr const char* kMergeIsolationLevel = "write.merge.isolation-level";
inline constexpr const char* kIsolationSerializable = "serializable";
inline constexpr const char* kIsolationSnapshot = "snapshot";

inline constexpr const char* kDeleteMode = "write.delete.mode";
inline constexpr const char* kUpdateMode = "write.update.mode";
inline constexpr const char* kMergeMode = "write.merge.mode";
inline constexpr const char* kCopyOnWrite = "copy-on-write";
inline constexpr const char* kMergeOnRead = "merge-on-read";

inline constexpr const char* kTargetFileSizeBytes = "write.target-file-size-bytes";
inline constexpr int64_t kTargetFileSizeBytesDefault = 512LL * 1024 * 1024;
inline constexpr const char* kParquetRowGroupSizeBytes = "write.parquet.row-group-size-bytes";
inline constexpr const char* kParquetPageSizeBytes = "write.parquet.page-size-bytes";
inline constexpr const char* kParquetCompressionCodec = "write.parquet.compression-codec";
inline constexpr const char* kParquetCompressionLevel = "write.parquet.compression-level";
inline constexpr const char* kAvroCompressionCodec = "write.avro.compression-codec";
inline constexpr const char* kAvroCompressionCodecDefault = "gzip";
inline constexpr const char* kAvroCompressionLevel = "write.avro.compression-level";
inline constexpr const char* kMetricsDefault = "write.metadata.metrics.default";
inline constexpr const char* kMetadataPreviousVersionsMax = "write.metadata.previous-versions-max";
inline constexpr int64_t kMetadataPreviousVersionsMaxDefault = 100;
inline constexpr const char* kMetadataDeleteAfterCommit = "write.metadata.delete-after-commit.enabled";
inline constexpr const char* kFormatVersion = "format-version";

// Snapshot expiry (Iceberg's names and defaults); per-ref settings override the first three.
inline constexpr const char* kMaxSnapshotAgeMs = "history.expire.max-snapshot-age-ms";
inline constexpr int64_t kMaxSnapshotAgeMsDefault = 5LL * 24 * 60 * 60 * 1000;  // 5 days
inline constexpr const char* kMinSnapshotsToKeep = "history.expire.min-snapshots-to-keep";
inline constexpr int64_t kMinSnapshotsToKeepDefault = 1;
inline constexpr const char* kMaxRefAgeMs = "history.expire.max-ref-age-ms";
inline constexpr int64_t kMaxRefAgeMsDefault = INT64_MAX;  // refs never age out

// floe's own: whether `floe serve --maintain-every` runs the table's maintenance, and the
// orphan-removal safety window (Iceberg's action default: 3 days).
inline constexpr const char* kMaintenanceEnabled = "floe.maintenance.enabled";
inline constexpr const char* kOrphanOlderThanMs = "floe.maintenance.orphan-older-than-ms";
inline constexpr int64_t kOrphanOlderThanMsDefault = 3LL * 24 * 60 * 60 * 1000;

// floe's own: the snapshot summary key that carries a commit's idempotency key.
inline constexpr const char* kIdempotencyKeyProperty = "floe.commit.idempotency-key-property";
inline constexpr const char* kIdempotencyKeySummaryDefault = "floe.idempotency-key";

}  // namespace floe::props
