// Whole-file overwrites a user asks for: replace the partitions some rows fall in (dynamic
// overwrite), and delete the files whose every row matches a filter without rewriting any.
#pragma once

#include "commit/operations.h"
#include "rows/row_writes.h"

namespace floe {

struct OverwriteOptions {
  RowWriteOptions write;
  // Replace partitions: serializable refuses files added meanwhile to the replaced partitions.
  IsolationLevel isolation = IsolationLevel::kSerializable;
};

// Writes `rows` and replaces, in one overwrite, every live file of the partitions they fall in
// (for an unpartitioned table: the whole table).
Result<RowWriteResult> ReplacePartitionsWith(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& rows,
                                             const OverwriteOptions& options = {});

// Removes the data files whose rows all match `filter`, judged from metadata alone (strict
// partition projection, then strict column metrics): metadata-only, no file is read or
// rewritten. A file where only some rows may match is refused with ValidationFailed naming it
// (use DeleteWhere for those). Validated like a delete (write.delete.isolation-level).
Result<RowWriteResult> DeleteFilesWhere(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                        const RowWriteOptions& options = {});

}  // namespace floe
