// Shared pieces of the row-level calls (copy-on-write and merge-on-read alike): binding SET
// assignments to a schema, and applying them to rows.
#pragma once

#include <vector>

#include "rows/row_write_options.h"
#include "types/column_batch.h"
#include "types/schema.h"

namespace floe {

struct BoundAssignment {
  int column = -1;  // index of the top-level column in the schema
  TermPtr value;    // bound to the schema
};

// InvalidArgument names a column that is not in the table or not top-level.
Result<std::vector<BoundAssignment>> BindAssignments(const Schema& schema, const std::vector<Assignment>& assignments);

// `rows` (in `schema`) with the assignments applied to the rows where selected[r] != 0; the
// others are returned unchanged. With only_selected, the unselected rows are left out.
Result<ColumnBatch> ApplyAssignments(const Schema& schema, const ColumnBatch& rows, const std::vector<uint8_t>& selected,
                                     const std::vector<BoundAssignment>& sets, bool only_selected);

}  // namespace floe
