#include "commit/metadata_change.h"

namespace floe {

Status CheckRequirements(const std::vector<TableRequirement>& requirements, const TableMetadata& table) {
  for (const auto& r : requirements) FLOE_RETURN_IF_ERROR(CheckRequirement(r, &table));
  return Ok();
}

}  // namespace floe
