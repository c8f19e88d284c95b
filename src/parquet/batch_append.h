// Concatenation of column batches by whole vectors (ColumnBatch::Append copies row by row).
#pragma once

#include "types/column_batch.h"

namespace floe::parquet {

// Appends src's rows to dst; both have the same fields.
void AppendColumn(Column* dst, const Column& src);
void AppendBatch(ColumnBatch* dst, const ColumnBatch& src);

// Appends rows [from, from + count) of a primitive column src to dst, only those i with
// sel[i - from] != 0 (every one when sel is null). sel holds 0 or 1.
void AppendSelected(const Column& src, size_t from, size_t count, const uint8_t* sel, Column* dst);

// Empties a column (as freshly constructed) but keeps its buffers' capacity.
void ClearColumn(Column* c);

}  // namespace floe::parquet
