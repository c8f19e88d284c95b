// A change to a table's metadata that is not a snapshot (schema, partition spec, sort order,
// properties, refs): the requirements it makes of the base it was planned on, plus its updates.
// A commit plan holds it as a metadata step (commit_plan.h); metadata_commit.h commits one alone.
#pragma once

#include <string>
#include <vector>

#include "meta/table_metadata.h"
#include "meta/table_update.h"

namespace floe {

struct MetadataChange {
  std::string what;  // for messages: "schema change", "partition spec change", ...
  std::vector<TableRequirement> requirements;
  std::vector<TableUpdate> updates;
  bool empty() const { return updates.empty(); }
};

// The first requirement `table` fails, as the CommitConflict the catalog would give; Ok when
// all hold.
Status CheckRequirements(const std::vector<TableRequirement>& requirements, const TableMetadata& table);

}  // namespace floe
