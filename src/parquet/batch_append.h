// Concatenation of column batches by whole vectors (ColumnBatch::Append copies row by row).
#pragma once

#include "types/column_batch.h"

namespace floe::parquet {

// Appends src's rows to dst; both have the same fields.
void AppendColumn(Column* dst, const Column& src);
void AppendBatch(ColumnBatch* dst, const ColumnBatch& src);

}  // namespace floe::parquet
