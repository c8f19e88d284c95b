// MetadataBuilder: the one place that applies updates to table metadata.
//
// It keeps the derived fields right: last-column-id, last-partition-id, last-sequence-number,
// last-updated-ms, the snapshot log (when main moves), and the metadata log (bounded by
// write.metadata.previous-versions-max, default 100). Every update is validated; a bad one
// (an unknown schema id, a snapshot whose sequence number does not advance, a spec on a missing
// column, ...) yields InvalidArgument and the builder's result is not produced.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "meta/table_metadata.h"
#include "meta/table_update.h"

namespace floe {

class MetadataBuilder {
 public:
  // Start from an existing version that lives at `base_location` (it enters the metadata log).
  // Taken by value: a caller that hands its base over (std::move) spares a copy of the history.
  static MetadataBuilder From(TableMetadata base, std::string base_location);
  // Start a brand-new table (format version 1 or 2; 3 where supported).
  static MetadataBuilder ForNewTable(int format_version = 2);

  // Validates then applies one update; an update that changes nothing is fine. After a failed
  // update the builder is spent: later Apply calls and Build return that first error.
  Status Apply(const TableUpdate& update);
  Status ApplyAll(const std::vector<TableUpdate>& updates);

  // The new metadata. last-updated-ms is `now_ms`, raised if needed so that it is not before
  // the base's or the last snapshot-log entry (clock skew between writers; Iceberg readers
  // refuse a document updated before its own logs). With no change at all, the base as it was.
  // A builder builds once: a second call is an error.
  Result<TableMetadata> Build(int64_t now_ms);

 private:
  MetadataBuilder() = default;
  TableMetadata metadata_;
  std::optional<std::string> base_location_;
  std::optional<int64_t> base_last_updated_ms_;
  std::optional<int> last_added_schema_id_;
  std::set<int> added_schema_ids_;  // schemas this builder added (their defaults are checked)
  std::optional<int> last_added_spec_id_;
  std::optional<int> last_added_order_id_;
  bool changed_ = false;
  int64_t previous_main_snapshot_ = -1;
  bool new_table_ = false;                   // ForNewTable: no base, no metadata-log entry
  std::set<int64_t> added_snapshot_ids_;     // snapshots added by this builder
  std::vector<int64_t> main_history_;        // snapshots main was set to, in order
  bool removed_snapshots_ = false;           // remove-snapshots removed at least one
  std::optional<Error> error_;               // first failed update: Build refuses after it
  friend class MetadataBuilderAccess;
};

// The updates that create a table: assign-uuid, upgrade-format-version, add-schema,
// set-current-schema, add-spec, set-default-spec, add-sort-order, set-default-sort-order,
// set-location, set-properties. Field ids are reassigned fresh: columns from 1 (top-level
// columns first), partition fields from 1000; spec and sort order follow the new ids. The
// reserved property "format-version", when given, chooses the version (over the argument)
// and is not stored.
Result<std::vector<TableUpdate>> NewTableUpdates(const Schema& schema, const PartitionSpec& spec,
                                                 const SortOrder& order, const std::string& location,
                                                 const std::map<std::string, std::string>& properties,
                                                 int format_version = 2);

// Checks requirements against `current`, then applies updates to it: the whole of a commit's
// metadata step. `current` is nullptr for a create, whose format version is the one its
// upgrade-format-version update names (2 without one). A failed requirement is CommitConflict;
// a bad update is InvalidArgument prefixed with the update's name ("add-snapshot: ...").
Result<TableMetadata> ApplyCommit(const TableMetadata* current, const std::string& current_location,
                                  const std::vector<TableRequirement>& requirements,
                                  const std::vector<TableUpdate>& updates, int64_t now_ms);
// The same on a base the caller hands over (std::move): its history is moved, not copied.
Result<TableMetadata> ApplyCommit(TableMetadata current, const std::string& current_location,
                                  const std::vector<TableRequirement>& requirements,
                                  const std::vector<TableUpdate>& updates, int64_t now_ms);

}  // namespace floe
