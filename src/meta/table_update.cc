// JSON forms and names of requirements and updates, as the REST spec's TableRequirement and
// TableUpdate objects ("type" and "action" discriminators).
#include "meta/table_update.h"

#include "meta/json_fields.h"
#include "meta/json_internal.h"
#include "meta/metadata_json.h"

namespace floe {

using json_fields::Json;
namespace jf = json_fields;

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
// Written out for clang 16, which does not deduce an aggregate's template arguments (P1816).
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

// ---- requirements ----

std::string RequirementName(const TableRequirement& r) {
  return std::visit(Overloaded{
                        [](const AssertCreate&) { return "assert-create"; },
                        [](const AssertTableUuid&) { return "assert-table-uuid"; },
                        [](const AssertRefSnapshotId&) { return "assert-ref-snapshot-id"; },
                        [](const AssertLastAssignedFieldId&) { return "assert-last-assigned-field-id"; },
                        [](const AssertCurrentSchemaId&) { return "assert-current-schema-id"; },
                        [](const AssertLastAssignedPartitionId&) { return "assert-last-assigned-partition-id"; },
                        [](const AssertDefaultSpecId&) { return "assert-default-spec-id"; },
                        [](const AssertDefaultSortOrderId&) { return "assert-default-sort-order-id"; },
                    },
                    r);
}

nlohmann::json RequirementToJson(const TableRequirement& r) {
  Json j;
  j["type"] = RequirementName(r);
  std::visit(Overloaded{
                 [](const AssertCreate&) {},
                 [&](const AssertTableUuid& a) { j["uuid"] = a.uuid; },
                 [&](const AssertRefSnapshotId& a) {
                   j["ref"] = a.ref;
                   // Required but nullable: null asserts that the ref does not exist.
                   j["snapshot-id"] = a.snapshot_id ? Json(*a.snapshot_id) : Json(nullptr);
                 },
                 [&](const AssertLastAssignedFieldId& a) { j["last-assigned-field-id"] = a.last_assigned_field_id; },
                 [&](const AssertCurrentSchemaId& a) { j["current-schema-id"] = a.current_schema_id; },
                 [&](const AssertLastAssignedPartitionId& a) {
                   j["last-assigned-partition-id"] = a.last_assigned_partition_id;
                 },
                 [&](const AssertDefaultSpecId& a) { j["default-spec-id"] = a.default_spec_id; },
                 [&](const AssertDefaultSortOrderId& a) { j["default-sort-order-id"] = a.default_sort_order_id; },
             },
             r);
  return j;
}

namespace {

Result<TableRequirement> ParseRequirement(const Json& j, const std::string& type) {
  if (type == "assert-create") return AssertCreate{};
  if (type == "assert-table-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, jf::GetString(j, "uuid"));
    return AssertTableUuid{uuid};
  }
  if (type == "assert-ref-snapshot-id") {
    AssertRefSnapshotId a;
    FLOE_ASSIGN_OR_RETURN(a.ref, jf::GetString(j, "ref"));
    FLOE_ASSIGN_OR_RETURN(a.snapshot_id, jf::GetOptionalLong(j, "snapshot-id"));
    return a;
  }
  if (type == "assert-last-assigned-field-id") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "last-assigned-field-id"));
    return AssertLastAssignedFieldId{id};
  }
  if (type == "assert-current-schema-id") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "current-schema-id"));
    return AssertCurrentSchemaId{id};
  }
  if (type == "assert-last-assigned-partition-id") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "last-assigned-partition-id"));
    return AssertLastAssignedPartitionId{id};
  }
  if (type == "assert-default-spec-id") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "default-spec-id"));
    return AssertDefaultSpecId{id};
  }
  if (type == "assert-default-sort-order-id") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "default-sort-order-id"));
    return AssertDefaultSortOrderId{id};
  }
  return InvalidArgument("unknown table requirement type '" + type + "'");
}

}  // namespace

Result<TableRequirement> RequirementFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return InvalidArgument("table requirement must be a JSON object, got " + jf::Snippet(j));
  auto type = jf::GetString(j, "type");
  if (!type) return std::unexpected(type.error().WithContext("table requirement"));
  auto r = ParseRequirement(j, *type);
  if (!r) return std::unexpected(r.error().WithContext("requirement " + *type));
  return r;
}

// ---- updates ----

std::string UpdateName(const TableUpdate& u) {
  return std::visit(Overloaded{
                        [](const AssignUuid&) { return "assign-uuid"; },
                        [](const UpgradeFormatVersion&) { return "upgrade-format-version"; },
                        [](const AddSchema&) { return "add-schema"; },
                        [](const SetCurrentSchema&) { return "set-current-schema"; },
                        [](const AddPartitionSpec&) { return "add-spec"; },
                        [](const SetDefaultSpec&) { return "set-default-spec"; },
                        [](const AddSortOrder&) { return "add-sort-order"; },
                        [](const SetDefaultSortOrder&) { return "set-default-sort-order"; },
                        [](const AddSnapshot&) { return "add-snapshot"; },
                        [](const SetSnapshotRef&) { return "set-snapshot-ref"; },
                        [](const RemoveSnapshots&) { return "remove-snapshots"; },
                        [](const RemoveSnapshotRef&) { return "remove-snapshot-ref"; },
                        [](const SetLocation&) { return "set-location"; },
                        [](const SetProperties&) { return "set-properties"; },
                        [](const RemoveProperties&) { return "remove-properties"; },
                        [](const SetStatistics&) { return "set-statistics"; },
                        [](const RemoveStatistics&) { return "remove-statistics"; },
                        [](const SetPartitionStatistics&) { return "set-partition-statistics"; },
                        [](const RemovePartitionStatistics&) { return "remove-partition-statistics"; },
                        [](const RemovePartitionSpecs&) { return "remove-partition-specs"; },
                        [](const RemoveSchemas&) { return "remove-schemas"; },
                    },
                    u);
}

nlohmann::json UpdateToJson(const TableUpdate& u) {
  Json j;
  j["action"] = UpdateName(u);
  std::visit(Overloaded{
                 [&](const AssignUuid& a) { j["uuid"] = a.uuid; },
                 [&](const UpgradeFormatVersion& a) { j["format-version"] = a.format_version; },
                 [&](const AddSchema& a) {
                   j["schema"] = SchemaToJson(a.schema);
                   if (a.last_column_id) j["last-column-id"] = *a.last_column_id;
                 },
                 [&](const SetCurrentSchema& a) { j["schema-id"] = a.schema_id; },
                 [&](const AddPartitionSpec& a) { j["spec"] = PartitionSpecToJson(a.spec); },
                 [&](const SetDefaultSpec& a) { j["spec-id"] = a.spec_id; },
                 [&](const AddSortOrder& a) { j["sort-order"] = SortOrderToJson(a.sort_order); },
                 [&](const SetDefaultSortOrder& a) { j["sort-order-id"] = a.sort_order_id; },
                 [&](const AddSnapshot& a) { j["snapshot"] = SnapshotToJson(a.snapshot); },
                 [&](const SetSnapshotRef& a) {
                   j["ref-name"] = a.ref_name;
                   // The ref's own fields sit beside "action" (allOf SnapshotReference).
                   Json ref = SnapshotRefToJson(a.ref);
                   for (auto it = ref.begin(); it != ref.end(); ++it) j[it.key()] = it.value();
                 },
                 [&](const RemoveSnapshots& a) { j["snapshot-ids"] = a.snapshot_ids; },
                 [&](const RemoveSnapshotRef& a) { j["ref-name"] = a.ref_name; },
                 [&](const SetLocation& a) { j["location"] = a.location; },
                 [&](const SetProperties& a) { j["updates"] = a.updates; },
                 [&](const RemoveProperties& a) { j["removals"] = a.removals; },
                 [&](const SetStatistics& a) {
                   j["statistics"] = Json(internal::StatisticsFileToOrdered(a.statistics));
                 },
                 [&](const RemoveStatistics& a) { j["snapshot-id"] = a.snapshot_id; },
                 [&](const SetPartitionStatistics& a) {
                   j["partition-statistics"] = Json(internal::PartitionStatisticsFileToOrdered(a.partition_statistics));
                 },
                 [&](const RemovePartitionStatistics& a) { j["snapshot-id"] = a.snapshot_id; },
                 [&](const RemovePartitionSpecs& a) { j["spec-ids"] = a.spec_ids; },
                 [&](const RemoveSchemas& a) { j["schema-ids"] = a.schema_ids; },
             },
             u);
  return j;
}

namespace {

Result<TableUpdate> ParseUpdate(const Json& j, const std::string& action) {
  if (action == "assign-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, jf::GetString(j, "uuid"));
    return AssignUuid{uuid};
  }
  if (action == "upgrade-format-version") {
    FLOE_ASSIGN_OR_RETURN(int v, jf::GetInt(j, "format-version"));
    return UpgradeFormatVersion{v};
  }
  if (action == "add-schema") {
    FLOE_ASSIGN_OR_RETURN(const Json* schema, jf::Require(j, "schema"));
    AddSchema a;
    FLOE_ASSIGN_OR_RETURN(a.schema, SchemaFromJson(*schema));
    FLOE_ASSIGN_OR_RETURN(a.last_column_id, jf::GetOptionalInt(j, "last-column-id"));
    return a;
  }
  if (action == "set-current-schema") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "schema-id"));
    return SetCurrentSchema{id};
  }
  if (action == "add-spec") {
    FLOE_ASSIGN_OR_RETURN(const Json* spec, jf::Require(j, "spec"));
    if (!spec->is_object()) return InvalidArgument("field 'spec' must be an object, got " + jf::Snippet(*spec));
    FLOE_ASSIGN_OR_RETURN(PartitionSpec parsed, PartitionSpecFromJson(*spec, 0));
    return AddPartitionSpec{std::move(parsed)};
  }
  if (action == "set-default-spec") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "spec-id"));
    return SetDefaultSpec{id};
  }
  if (action == "add-sort-order") {
    FLOE_ASSIGN_OR_RETURN(const Json* order, jf::Require(j, "sort-order"));
    FLOE_ASSIGN_OR_RETURN(SortOrder parsed, SortOrderFromJson(*order));
    return AddSortOrder{std::move(parsed)};
  }
  if (action == "set-default-sort-order") {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "sort-order-id"));
    return SetDefaultSortOrder{id};
  }
  if (action == "add-snapshot") {
    FLOE_ASSIGN_OR_RETURN(const Json* snapshot, jf::Require(j, "snapshot"));
    FLOE_ASSIGN_OR_RETURN(Snapshot parsed, SnapshotFromJson(*snapshot));
    return AddSnapshot{std::move(parsed)};
  }
  if (action == "set-snapshot-ref") {
    SetSnapshotRef a;
    FLOE_ASSIGN_OR_RETURN(a.ref_name, jf::GetString(j, "ref-name"));
    FLOE_ASSIGN_OR_RETURN(a.ref, SnapshotRefFromJson(j));
    return a;
  }
  if (action == "remove-snapshots") {
    FLOE_ASSIGN_OR_RETURN(const Json* ids, jf::Require(j, "snapshot-ids"));
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> list, jf::ToLongList(*ids, "snapshot-ids"));
    return RemoveSnapshots{std::move(list)};
  }
  if (action == "remove-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, jf::GetString(j, "ref-name"));
    return RemoveSnapshotRef{name};
  }
  if (action == "set-location") {
    FLOE_ASSIGN_OR_RETURN(std::string location, jf::GetString(j, "location"));
    return SetLocation{location};
  }
  if (action == "set-properties") {
    FLOE_ASSIGN_OR_RETURN(const Json* updates, jf::Require(j, "updates"));
    FLOE_ASSIGN_OR_RETURN(auto map, jf::ToStringMap(*updates, "updates"));
    return SetProperties{std::move(map)};
  }
  if (action == "remove-properties") {
    FLOE_ASSIGN_OR_RETURN(const Json* removals, jf::Require(j, "removals"));
    FLOE_ASSIGN_OR_RETURN(auto list, jf::ToStringList(*removals, "removals"));
    return RemoveProperties{std::move(list)};
  }
  if (action == "set-statistics") {
    FLOE_ASSIGN_OR_RETURN(const Json* stats, jf::Require(j, "statistics"));
    FLOE_ASSIGN_OR_RETURN(StatisticsFile parsed, internal::StatisticsFileFromJson(*stats));
    return SetStatistics{std::move(parsed)};
  }
  if (action == "remove-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, jf::GetLong(j, "snapshot-id"));
    return RemoveStatistics{id};
  }
  if (action == "set-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(const Json* stats, jf::Require(j, "partition-statistics"));
    FLOE_ASSIGN_OR_RETURN(PartitionStatisticsFile parsed, internal::PartitionStatisticsFileFromJson(*stats));
    return SetPartitionStatistics{std::move(parsed)};
  }
  if (action == "remove-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, jf::GetLong(j, "snapshot-id"));
    return RemovePartitionStatistics{id};
  }
  if (action == "remove-partition-specs") {
    FLOE_ASSIGN_OR_RETURN(const Json* ids, jf::Require(j, "spec-ids"));
    FLOE_ASSIGN_OR_RETURN(auto list, jf::ToIntList(*ids, "spec-ids"));
    return RemovePartitionSpecs{std::move(list)};
  }
  if (action == "remove-schemas") {
    FLOE_ASSIGN_OR_RETURN(const Json* ids, jf::Require(j, "schema-ids"));
    FLOE_ASSIGN_OR_RETURN(auto list, jf::ToIntList(*ids, "schema-ids"));
    return RemoveSchemas{std::move(list)};
  }
  return InvalidArgument("unknown table update action '" + action + "'");
}

}  // namespace

Result<TableUpdate> UpdateFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return InvalidArgument("table update must be a JSON object, got " + jf::Snippet(j));
  auto action = jf::GetString(j, "action");
  if (!action) return std::unexpected(action.error().WithContext("table update"));
  auto u = ParseUpdate(j, *action);
  if (!u) return std::unexpected(u.error().WithContext("update " + *action));
  return u;
}

}  // namespace floe
