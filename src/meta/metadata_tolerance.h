// Strict on write, tolerant on read. Other engines write metadata documents with harmless
// inconsistencies that floe's own writer never produces; reading one goes on with a warning
// (util/warning.h) instead of refusing the table, and the value read is already the corrected
// one, so floe's next commit writes a consistent document. The tolerances (README, "Reading
// other engines' tables"):
//   - last-column-id lower than a field id of a schema (Impala's test tables): read as the
//     highest field id;
//   - fields floe does not know at the top of the document: ignored, and not written back.
// Everything else TableMetadata::Validate checks stays an error.
#pragma once

#include <nlohmann/json.hpp>

#include "meta/table_metadata.h"

namespace floe::internal {

// Called on a parsed document `m` (read from `j`) before it is validated.
void TolerateOnRead(const nlohmann::json& j, TableMetadata& m);

}  // namespace floe::internal
