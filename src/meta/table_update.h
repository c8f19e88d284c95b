// Requirements and updates: the pair every commit carries to every catalog (REST spec names).
//
// A requirement asserts something about the base a writer started from; an update changes
// the metadata. A catalog checks all requirements against the current metadata and applies
// all updates, then swaps the pointer, or changes nothing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "meta/table_metadata.h"

namespace floe {

// ---- requirements (all eight of the REST spec) ----
struct AssertCreate {};  // the table must not exist
struct AssertTableUuid { std::string uuid; };
struct AssertRefSnapshotId {
  std::string ref;
  std::optional<int64_t> snapshot_id;  // nullopt: the ref must not exist
};
struct AssertLastAssignedFieldId { int last_assigned_field_id = 0; };
struct AssertCurrentSchemaId { int current_schema_id = 0; };
struct AssertLastAssignedPartitionId { int last_assigned_partition_id = 0; };
struct AssertDefaultSpecId { int default_spec_id = 0; };
struct AssertDefaultSortOrderId { int default_sort_order_id = 0; };

using TableRequirement =
    std::variant<AssertCreate, AssertTableUuid, AssertRefSnapshotId, AssertLastAssignedFieldId, AssertCurrentSchemaId,
                 AssertLastAssignedPartitionId, AssertDefaultSpecId, AssertDefaultSortOrderId>;

// ---- updates (the REST spec's actions) ----
struct AssignUuid { std::string uuid; };
struct UpgradeFormatVersion { int format_version = 2; };
struct AddSchema { Schema schema; std::optional<int> last_column_id; };
struct SetCurrentSchema { int schema_id = -1; };  // -1: the schema added last in this commit
struct AddPartitionSpec { PartitionSpec spec; };
struct SetDefaultSpec { int spec_id = -1; };      // -1: last added
struct AddSortOrder { SortOrder sort_order; };
struct SetDefaultSortOrder { int sort_order_id = -1; };  // -1: last added
struct AddSnapshot { Snapshot snapshot; };
struct SetSnapshotRef { std::string ref_name; SnapshotRef ref; };
struct RemoveSnapshots { std::vector<int64_t> snapshot_ids; };
struct RemoveSnapshotRef { std::string ref_name; };
struct SetLocation { std::string location; };
struct SetProperties { std::map<std::string, std::string> updates; };
struct RemoveProperties { std::vector<std::string> removals; };
struct SetStatistics { StatisticsFile statistics; };
struct RemoveStatistics { int64_t snapshot_id = 0; };
struct SetPartitionStatistics { PartitionStatisticsFile partition_statistics; };
struct RemovePartitionStatistics { int64_t snapshot_id = 0; };
struct RemovePartitionSpecs { std::vector<int> spec_ids; };
struct RemoveSchemas { std::vector<int> schema_ids; };

using TableUpdate =
    std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetCurrentSchema, AddPartitionSpec, SetDefaultSpec,
                 AddSortOrder, SetDefaultSortOrder, AddSnapshot, SetSnapshotRef, RemoveSnapshots, RemoveSnapshotRef,
                 SetLocation, SetProperties, RemoveProperties, SetStatistics, RemoveStatistics,
                 SetPartitionStatistics, RemovePartitionStatistics, RemovePartitionSpecs, RemoveSchemas>;

// JSON forms, exactly as the REST spec's TableRequirement / TableUpdate objects.
nlohmann::json RequirementToJson(const TableRequirement& r);
Result<TableRequirement> RequirementFromJson(const nlohmann::json& j);
nlohmann::json UpdateToJson(const TableUpdate& u);
Result<TableUpdate> UpdateFromJson(const nlohmann::json& j);

// Checks one requirement against the current state (`current` is nullptr when the table does
// not exist). A failure is a CommitConflict naming the requirement, e.g.
// "Requirement failed: branch main has changed: expected id 1 != 2"; with no table, every
// requirement but assert-create fails ("Requirement failed: table does not exist (...)").
Status CheckRequirement(const TableRequirement& r, const TableMetadata* current);

std::string RequirementName(const TableRequirement& r);  // "assert-ref-snapshot-id", ...
std::string UpdateName(const TableUpdate& u);            // "add-snapshot", ...

}  // namespace floe
