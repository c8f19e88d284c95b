// Evaluating a bound filter over a batch of rows.
#pragma once

#include <cstdint>
#include <vector>

#include "expr/expression.h"
#include "types/column_batch.h"

namespace floe {

// One byte per row: 1 where the row matches (the filter is TRUE), 0 where it is FALSE or
// unknown (SQL three-valued logic). Columns are found by field id, also inside struct columns;
// a referenced column missing from the batch is an InvalidArgument error.
//
// Column-versus-literal predicates on primitive columns run as typed loops over the column's
// vectors (no per-row allocation); arithmetic terms are computed column-at-a-time.
Result<std::vector<uint8_t>> EvaluateRows(const Expr& bound, const ColumnBatch& batch);
// The same into a caller's buffer (resized to batch.num_rows), to reuse it across batches.
Status EvaluateRows(const Expr& bound, const ColumnBatch& batch, std::vector<uint8_t>* selection);

// The column holding a field id in a batch (top level or nested in structs); nullptr if absent.
const Column* FindColumn(const ColumnBatch& batch, int field_id);

}  // namespace floe
