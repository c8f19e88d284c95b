// TableMetadata: the whole visible state of a table, one immutable document per version.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "meta/snapshot.h"
#include "types/partition_spec.h"
#include "types/schema.h"
#include "types/sort_order.h"

namespace floe {

// The newest table format version floe reads and writes.
inline constexpr int kMaxFormatVersion = 3;

struct TableMetadata {
  int format_version = 2;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int last_column_id = 0;
  std::vector<Schema> schemas;
  int current_schema_id = 0;
  std::vector<PartitionSpec> partition_specs;
  int default_spec_id = 0;
  int last_partition_id = PartitionSpec::kFirstFieldId - 1;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;  // none: no snapshot yet
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::vector<SortOrder> sort_orders;
  int default_sort_order_id = 0;
  std::map<std::string, SnapshotRef> refs;
  std::vector<StatisticsFile> statistics;
  std::vector<PartitionStatisticsFile> partition_statistics;
  std::optional<int64_t> next_row_id;  // v3

  const Schema* SchemaById(int schema_id) const;
  const Schema& CurrentSchema() const;  // requires a valid document
  const PartitionSpec* SpecById(int spec_id) const;
  const PartitionSpec& DefaultSpec() const;
  const SortOrder* SortOrderById(int order_id) const;
  const Snapshot* SnapshotById(int64_t snapshot_id) const;
  const Snapshot* CurrentSnapshot() const;  // nullptr when the table has none
  // The snapshot a branch or tag points at; nullptr when the ref does not exist.
  const Snapshot* SnapshotForRef(const std::string& ref_name) const;
  // The latest snapshot whose snapshot-log time is <= timestamp_ms (time travel).
  const Snapshot* SnapshotAsOf(int64_t timestamp_ms) const;
  // Snapshot ids from `snapshot_id` back through its parents (newest first); stops at a
  // missing parent (expired history).
  std::vector<const Snapshot*> Ancestry(int64_t snapshot_id) const;

  std::string Property(const std::string& key, const std::string& default_value) const;
  // The property's value where set, else `default_value`; a value that is not a non-negative
  // whole number (true or false) is InvalidArgument naming the property.
  Result<int64_t> CountProperty(const std::string& key, int64_t default_value) const;
  Result<bool> BooleanProperty(const std::string& key, bool default_value) const;

  // Checks the rules every document must keep: the current schema, default spec and default
  // sort order exist; ids are unique; refs and current-snapshot-id name existing snapshots
  // (and agree on main); v2+ has a table-uuid; no snapshot is newer than last-sequence-number.
  // The parser and the builder both call it; InvalidArgument names the broken rule.
  Status Validate() const;
};

}  // namespace floe
