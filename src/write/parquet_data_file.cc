#include "write/parquet_data_file.h"

#include "meta/metadata_json.h"

namespace floe {

DataFile ParquetDataFile(const std::string& path, const parquet::DataFileMetrics& metrics) {
  DataFile f;
  f.file_path = path;
  f.file_format = FileFormat::kParquet;
  f.record_count = metrics.record_count;
  f.file_size_in_bytes = metrics.file_size_in_bytes;
  f.column_sizes = metrics.column_sizes;
  f.value_counts = metrics.value_counts;
  f.null_value_counts = metrics.null_value_counts;
  f.nan_value_counts = metrics.nan_value_counts;
  for (const auto& [id, v] : metrics.lower_bounds)
    if (auto b = v.ToBinary()) f.lower_bounds[id] = *b;
  for (const auto& [id, v] : metrics.upper_bounds)
    if (auto b = v.ToBinary()) f.upper_bounds[id] = *b;
  f.split_offsets = metrics.split_offsets;
  return f;
}

void StoreIcebergSchema(parquet::ParquetWriter& writer, const Schema& schema) {
  writer.SetKeyValueMetadata("iceberg.schema", SchemaToJson(schema).dump());
}

}  // namespace floe
