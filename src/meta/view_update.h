// Requirements and updates of a view commit (the REST spec's view actions).
//
// A view commit carries at most the one requirement the spec defines for views
// (assert-view-uuid) and a list of updates; the catalog checks the requirement against the
// current view, applies the updates with ViewMetadataBuilder and swaps the pointer, or
// changes nothing. Several of the actions are the table ones (assign-uuid, add-schema,
// set-location, ...) and reuse their structs.
#pragma once

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "meta/table_update.h"
#include "meta/view_metadata.h"

namespace floe {

struct AssertViewUuid { std::string uuid; };
using ViewRequirement = AssertViewUuid;  // the spec's only view requirement

struct AddViewVersion { ViewVersion version; };
struct SetCurrentViewVersion { int version_id = -1; };  // -1: the version added last in this commit

using ViewUpdate = std::variant<AssignUuid, UpgradeFormatVersion, AddSchema, SetLocation, SetProperties,
                                RemoveProperties, AddViewVersion, SetCurrentViewVersion>;

// JSON forms, exactly as the REST spec's ViewRequirement / ViewUpdate objects. A table action
// that has no meaning for a view (add-snapshot, set-default-spec, ...) is InvalidArgument
// naming it.
nlohmann::json ViewRequirementToJson(const ViewRequirement& r);
Result<ViewRequirement> ViewRequirementFromJson(const nlohmann::json& j);
nlohmann::json ViewUpdateToJson(const ViewUpdate& u);
Result<ViewUpdate> ViewUpdateFromJson(const nlohmann::json& j);

// The requirement against the current view (nullptr: there is none). A failure is a
// CommitConflict: "Requirement failed: view UUID does not match: expected A != B".
Status CheckViewRequirement(const ViewRequirement& r, const ViewMetadata* current);

}  // namespace floe
