#include "server/commit_limits.h"

#include <string>
#include <utility>
#include <vector>

namespace floe {
namespace {

Status CheckProperties(const Properties& properties, const CommitLimits& limits, size_t* count, size_t* bytes) {
  *count += properties.size();
  for (const auto& [k, v] : properties) *bytes += k.size() + v.size();
  if (*count > limits.max_properties) {
    return InvalidArgument("too many properties in one request: " + std::to_string(*count) + " (the limit is " +
                           std::to_string(limits.max_properties) + " per commit)");
  }
  if (*bytes > limits.max_property_bytes) {
    return InvalidArgument("properties too large in one request: " + std::to_string(*bytes) +
                           " bytes of keys and values (the limit is " + std::to_string(limits.max_property_bytes) +
                           " bytes per commit)");
  }
  return Ok();
}

Status CheckSchema(const Schema& schema, const CommitLimits& limits) {
  int depth = SchemaDepth(schema);
  if (depth > limits.max_schema_depth) {
    return InvalidArgument("schema nests types " + std::to_string(depth) + " deep (the limit is " +
                           std::to_string(limits.max_schema_depth) + ")");
  }
  return Ok();
}

}  // namespace

int SchemaDepth(const Schema& schema) {
  int deepest = 1;
  std::vector<std::pair<const NestedField*, int>> stack;
  for (const auto& f : schema.fields()) stack.emplace_back(&f, 1);
  while (!stack.empty()) {
    auto [field, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (field->type && field->type->is_nested()) {
      for (const auto& child : field->type->fields()) stack.emplace_back(&child, depth + 1);
    }
  }
  return deepest;
}

Status CheckCommitLimits(const TableCommit& commit, const CommitLimits& limits) {
  if (commit.updates.size() > limits.max_updates) {
    return InvalidArgument("too many updates in one commit: " + std::to_string(commit.updates.size()) +
                           " (the limit is " + std::to_string(limits.max_updates) + ")");
  }
  size_t properties = 0, bytes = 0, snapshots = 0;
  for (const auto& update : commit.updates) {
    if (const auto* set = std::get_if<SetProperties>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckProperties(set->updates, limits, &properties, &bytes));
    } else if (const auto* add = std::get_if<AddSchema>(&update)) {
      FLOE_RETURN_IF_ERROR(CheckSchema(add->schema, limits));
    } else if (std::holds_alternative<AddSnapshot>(update)) {
      if (++snapshots > limits.max_snapshots) {
        return InvalidArgument("too many snapshots added in one commit: more than " +
                               std::to_string(limits.max_snapshots));
      }
    }
  }
  return Ok();
}

Status CheckPropertyLimits(const Properties& properties, const CommitLimits& limits) {
  size_t count = 0, bytes = 0;
  return CheckProperties(properties, limits, &count, &bytes);
}

Status CheckCreateLimits(const CreateTableRequest& request, const CommitLimits& limits) {
  FLOE_RETURN_IF_ERROR(CheckPropertyLimits(request.properties, limits));
  return CheckSchema(request.schema, limits);
}

}  // namespace floe
