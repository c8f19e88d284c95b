// The calls a user makes: append rows, delete and update by filter (copy-on-write).
//
// Each writes its data files first, then commits one snapshot through the commit loop. If the
// commit certainly fails, the files it wrote are deleted; if its outcome is unknown, they stay
// (a later orphan removal reclaims them once the outcome is known).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "expr/expression.h"
#include "rows/row_write_options.h"
#include "types/column_batch.h"

namespace floe {

Result<RowWriteResult> AppendRows(Catalog& catalog, const TableIdentifier& id, const RowSource& rows,
                                  const RowWriteOptions& options = {});
Result<RowWriteResult> AppendBatch(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& batch,
                                   const RowWriteOptions& options = {});

// Deletes the rows matching `filter` by rewriting the files that hold them.
Result<RowWriteResult> DeleteWhere(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                   const RowWriteOptions& options = {});

// "amount_cents = amount_cents * 2, country = 'FR'" into assignments.
Result<std::vector<Assignment>> ParseAssignments(std::string_view text);

// Sets columns of the rows matching `filter` by rewriting the files that hold them.
Result<RowWriteResult> UpdateWhere(Catalog& catalog, const TableIdentifier& id, const Expr& filter,
                                   const std::vector<Assignment>& assignments, const RowWriteOptions& options = {});

}  // namespace floe
