// Merge-on-read delete and update: instead of rewriting the files that hold matching rows, add
// position delete files that mark those rows deleted (and, for an update, a data file with the
// updated rows), committed as one row delta.
//
// Validation follows DESIGN.md's conflict table for row deltas: the data files our position
// deletes point at must still be live at commit (any isolation); under serializable isolation,
// data or delete files added meanwhile that may match the filter refuse the commit. An update
// also refuses matching delete files at snapshot isolation: two updates of one row would
// otherwise both leave a new version of it.
#pragma once

#include <functional>

#include "catalog/catalog.h"
#include "expr/expression.h"
#include "rows/row_write_options.h"

namespace floe {

Result<RowWriteResult> MergeOnReadDelete(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                         const RowWriteOptions& options = {});
Result<RowWriteResult> MergeOnReadUpdate(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                         const std::vector<Assignment>& assignments,
                                         const RowWriteOptions& options = {});

}  // namespace floe
