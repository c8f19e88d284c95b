// Decodes one column chunk (one leaf of one row group) into a floe Column.
//
// Handles dictionary pages, data pages v1 and v2, PLAIN / PLAIN_DICTIONARY / RLE_DICTIONARY
// values, RLE booleans, RLE and BIT_PACKED definition levels, and all four codecs. Values
// are converted to the target Iceberg type (int -> long and float -> double promotion,
// millisecond and INT96 timestamps to microseconds, decimals from any physical form).
// Nothing in the chunk is trusted: sizes, counts and indices are checked, and a violation
// is a Corrupt error that names the file and column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/file_schema.h"
#include "parquet/parquet_format.h"
#include "types/column_batch.h"

namespace floe::parquet {

struct ColumnChunkInput {
  std::string_view bytes;          // the chunk's pages, from its first page to its end
  const ColumnMetaData* meta = nullptr;
  const LeafDescriptor* leaf = nullptr;
  int64_t num_rows = 0;            // rows of the row group
  std::string context;             // "file.parquet, column a.b" for error messages
};

// Reads the chunk into *out (a fresh Column of the target type). When def_levels is not
// null it receives one definition level per row (for rebuilding struct nulls).
Status ReadColumnChunk(const ColumnChunkInput& input, const TypePtr& target, Column* out,
                       std::vector<uint8_t>* def_levels);

// Whether a leaf of this file can be read as the target Iceberg type.
Status CheckReadable(const LeafDescriptor& leaf, const TypePtr& target);

}  // namespace floe::parquet
