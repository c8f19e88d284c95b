// CheckRequirement: does a commit's base still hold? The messages follow Iceberg's
// ("Requirement failed: ...") so a user who knows Iceberg recognises them.
#include <cctype>

#include "meta/table_update.h"

#include "util/strings.h"

namespace floe {

namespace {

std::unexpected<Error> Failed(const std::string& what) { return CommitConflict("Requirement failed: " + what); }

std::string Changed(const std::string& what, int64_t expected, int64_t actual) {
  return what + " changed: expected id " + std::to_string(expected) + " != " + std::to_string(actual);
}

}  // namespace

Status CheckRequirement(const TableRequirement& r, const TableMetadata* current) {
  if (std::holds_alternative<AssertCreate>(r)) {
    if (current) return Failed("table already exists");
    return Ok();
  }
  if (!current) return Failed("table does not exist (" + RequirementName(r) + ")");
  const TableMetadata& m = *current;
  if (auto* a = std::get_if<AssertTableUuid>(&r)) {
    if (AsciiLower(a->uuid) != AsciiLower(m.table_uuid))
      return Failed("UUID does not match: expected " + a->uuid + " != " + m.table_uuid);
    return Ok();
  }
  if (auto* a = std::get_if<AssertRefSnapshotId>(&r)) {
    auto it = m.refs.find(a->ref);
    if (it != m.refs.end()) {
      std::string type = it->second.type == RefType::kBranch ? "branch" : "tag";
      if (!a->snapshot_id) return Failed(type + " " + a->ref + " was created concurrently");
      if (*a->snapshot_id != it->second.snapshot_id)
        return Failed(type + " " + a->ref + " has changed: expected id " + std::to_string(*a->snapshot_id) +
                      " != " + std::to_string(it->second.snapshot_id));
    } else if (a->snapshot_id) {
      return Failed("branch or tag " + a->ref + " is missing, expected " + std::to_string(*a->snapshot_id));
    }
    return Ok();
  }
  if (auto* a = std::get_if<AssertLastAssignedFieldId>(&r)) {
    if (a->last_assigned_field_id != m.last_column_id)
      return Failed(Changed("last assigned field id", a->last_assigned_field_id, m.last_column_id));
    return Ok();
  }
  if (auto* a = std::get_if<AssertCurrentSchemaId>(&r)) {
    if (a->current_schema_id != m.current_schema_id)
      return Failed(Changed("current schema", a->current_schema_id, m.current_schema_id));
    return Ok();
  }
  if (auto* a = std::get_if<AssertLastAssignedPartitionId>(&r)) {
    if (a->last_assigned_partition_id != m.last_partition_id)
      return Failed(Changed("last assigned partition id", a->last_assigned_partition_id, m.last_partition_id));
    return Ok();
  }
  if (auto* a = std::get_if<AssertDefaultSpecId>(&r)) {
    if (a->default_spec_id != m.default_spec_id)
      return Failed(Changed("default partition spec", a->default_spec_id, m.default_spec_id));
    return Ok();
  }
  if (auto* a = std::get_if<AssertDefaultSortOrderId>(&r)) {
    if (a->default_sort_order_id != m.default_sort_order_id)
      return Failed(Changed("default sort order", a->default_sort_order_id, m.default_sort_order_id));
    return Ok();
  }
  return InvalidArgument("unknown requirement " + RequirementName(r));
}

}  // namespace floe
