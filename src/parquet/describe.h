// Human- and machine-readable descriptions of a Parquet file, for `floe inspect` and
// `floe cat`.
#pragma once

#include <nlohmann/json.hpp>

#include "parquet/parquet_reader.h"

namespace floe::parquet {

// {"file", "num_rows", "file_size", "created_by", "key_value_metadata",
//  "schema": [{"name", "path", "field_id", "physical_type", "repetition", "logical_type",
//              "iceberg_type", ...}],
//  "iceberg_schema": [...],
//  "row_groups": [{"index", "num_rows", "file_offset", "total_byte_size", "compressed_size",
//                  "columns": [{"path", "field_id", "physical_type", "codec", "encodings",
//                               "num_values", "compressed_size", "uncompressed_size",
//                               "data_page_offset", "dictionary_page_offset",
//                               "null_count", "min", "max"}]}]}
// Bounds are shown in Iceberg's JSON single-value form of the column's Iceberg type.
nlohmann::json DescribeParquetFile(const ParquetFile& file);

// Opens bytes held in memory and describes them.
Result<nlohmann::json> DescribeParquetBytes(std::string_view bytes, const std::string& name);

}  // namespace floe::parquet
