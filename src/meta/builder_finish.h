// Internal to meta/: the steps MetadataBuilder::Build takes after the updates are applied.
#pragma once

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "meta/table_metadata.h"

namespace floe::builder_internal {

// A snapshot-log entry whose time is the commit's (main moved to an older snapshot): the
// builder does not know that time until Build.
inline constexpr int64_t kPendingTimestamp = std::numeric_limits<int64_t>::min();

// The snapshot log after a change: pending times become `commit_ms`; snapshots added and made
// current in this change but replaced as main by a later one in it are dropped; and when the
// change removed snapshots, an entry for a removed one drops the history before it.
std::vector<SnapshotLogEntry> FinishSnapshotLog(const TableMetadata& m, const std::vector<int64_t>& main_history,
                                                const std::set<int64_t>& added_snapshot_ids, bool removed_snapshots,
                                                int64_t commit_ms);

// Appends the replaced version to the metadata log, keeping at most
// write.metadata.previous-versions-max entries (at least 1; default 100), oldest dropped.
void AppendMetadataLog(TableMetadata& m, int64_t base_last_updated_ms, const std::string& base_location);

// The default spec and sort order must still apply to the current schema (a column they use
// may have been dropped). A void partition field may keep a dropped source.
Status CheckDefaultsFitSchema(const TableMetadata& m);

// Field default values and the format 3 types are a format 3 feature: a schema added to a v1/v2
// table may hold no timestamp_ns, unknown, variant, geometry or geography field and may not carry a
// non-null initial-default or write-default (Iceberg's wording: "Invalid initial default for
// c: non-null default (3) is not supported until v3").
Status CheckFieldDefaultsNeedV3(const TableMetadata& m, const std::set<int>& added_schema_ids);

}  // namespace floe::builder_internal
