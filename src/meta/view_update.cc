#include "meta/view_update.h"

#include "meta/json_fields.h"
#include "meta/view_json.h"
#include "util/strings.h"

namespace floe {

namespace jf = json_fields;
using json_fields::Json;

nlohmann::json ViewRequirementToJson(const ViewRequirement& r) {
  return {{"type", "assert-view-uuid"}, {"uuid", r.uuid}};
}

Result<ViewRequirement> ViewRequirementFromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("view requirement must be a JSON object, got " + jf::Snippet(j));
  FLOE_ASSIGN_OR_RETURN(std::string type, jf::GetString(j, "type"));
  if (type != "assert-view-uuid")
    return InvalidArgument("view requirement: unknown type '" + type + "' (a view has only assert-view-uuid)");
  auto uuid = jf::GetString(j, "uuid");
  if (!uuid) return std::unexpected(uuid.error().WithContext("view requirement assert-view-uuid"));
  return AssertViewUuid{*uuid};
}

nlohmann::json ViewUpdateToJson(const ViewUpdate& u) {
  if (auto* a = std::get_if<AddViewVersion>(&u))
    return {{"action", "add-view-version"}, {"view-version", ViewVersionToJson(a->version)}};
  if (auto* s = std::get_if<SetCurrentViewVersion>(&u))
    return {{"action", "set-current-view-version"}, {"view-version-id", s->version_id}};
  // The rest are table actions with the same JSON.
  return std::visit(
      [](const auto& shared) -> nlohmann::json {
        using T = std::decay_t<decltype(shared)>;
        if constexpr (std::is_constructible_v<TableUpdate, T>) {
          return UpdateToJson(TableUpdate(shared));
        } else {
          return nullptr;  // the two view actions, answered above
        }
      },
      u);
}

namespace {

template <typename... Ts>
std::optional<ViewUpdate> AsViewUpdate(const std::variant<Ts...>& table_update) {
  return std::visit(
      [](const auto& u) -> std::optional<ViewUpdate> {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_constructible_v<ViewUpdate, T>) {
          return ViewUpdate(u);
        } else {
          return std::nullopt;
        }
      },
      table_update);
}

}  // namespace

Result<ViewUpdate> ViewUpdateFromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("view update must be a JSON object, got " + jf::Snippet(j));
  auto action = jf::GetString(j, "action");
  if (!action) return std::unexpected(action.error().WithContext("view update"));
  if (*action == "add-view-version") {
    auto version = jf::Require(j, "view-version");
    if (!version) return std::unexpected(version.error().WithContext("update add-view-version"));
    auto parsed = ViewVersionFromJson(**version);
    if (!parsed) return std::unexpected(parsed.error().WithContext("update add-view-version: view-version"));
    return AddViewVersion{std::move(*parsed)};
  }
  if (*action == "set-current-view-version") {
    auto id = jf::GetInt(j, "view-version-id");
    if (!id) return std::unexpected(id.error().WithContext("update set-current-view-version"));
    return SetCurrentViewVersion{*id};
  }
  FLOE_ASSIGN_OR_RETURN(TableUpdate table_update, UpdateFromJson(j));
  if (auto view_update = AsViewUpdate(table_update)) return *view_update;
  return InvalidArgument("update " + *action + " does not apply to a view");
}

Status CheckViewRequirement(const ViewRequirement& r, const ViewMetadata* current) {
  if (!current) return CommitConflict("Requirement failed: view does not exist (assert-view-uuid)");
  if (AsciiLower(r.uuid) != AsciiLower(current->view_uuid))
    return CommitConflict("Requirement failed: view UUID does not match: expected " + current->view_uuid + " != " +
                          r.uuid);
  return Ok();
}

}  // namespace floe
