// Internal to meta/: insertion-ordered JSON writers behind metadata_json.h.
//
// Metadata documents are written with Iceberg's own key order (format-version first, ...), so
// the writers build nlohmann::ordered_json; the public *ToJson functions convert to
// nlohmann::json for callers that only need the values.
#pragma once

#include <nlohmann/json.hpp>

#include "meta/snapshot.h"
#include "types/partition_spec.h"
#include "types/schema.h"
#include "types/sort_order.h"

namespace floe::internal {

using Ordered = nlohmann::ordered_json;

Ordered TypeToOrdered(const Type& t);
Ordered SchemaToOrdered(const Schema& s);
Ordered PartitionFieldsToOrdered(const PartitionSpec& s);
Ordered PartitionSpecToOrdered(const PartitionSpec& s);
Ordered SortOrderToOrdered(const SortOrder& o);
Ordered SnapshotToOrdered(const Snapshot& s);
Ordered SnapshotRefToOrdered(const SnapshotRef& r);
Ordered StatisticsFileToOrdered(const StatisticsFile& f);
Ordered PartitionStatisticsFileToOrdered(const PartitionStatisticsFile& f);

Result<StatisticsFile> StatisticsFileFromJson(const nlohmann::json& j);
Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const nlohmann::json& j);

}  // namespace floe::internal
