// The REST spec's view messages (CreateViewRequest, LoadViewResult, CommitViewRequest), shared
// by the REST client and `floe serve`. Parsing checks every field's type and names the field.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace floe {

struct RestCreateView {
  std::string name;
  CreateViewRequest request;
};

nlohmann::json CreateViewJson(const std::string& name, const CreateViewRequest& request);
Result<RestCreateView> CreateViewFromJson(const nlohmann::json& j);

nlohmann::json LoadViewResultJson(const LoadedView& view);
Result<LoadedView> LoadViewResultFromJson(const nlohmann::json& j, const TableIdentifier& id);

nlohmann::json CommitViewJson(const ViewCommit& commit);
// `id` is the view of the route; an "identifier" in the body must name the same view.
Result<ViewCommit> CommitViewFromJson(const nlohmann::json& j, const TableIdentifier& id);

}  // namespace floe
