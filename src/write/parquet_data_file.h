// The manifest entry of a Parquet file floe wrote, from the metrics its writer returned.
#pragma once

#include <string>

#include "meta/data_file.h"
#include "parquet/metrics.h"
#include "parquet/parquet_writer.h"

namespace floe {

// Path, format, counts, sizes, bounds (single-value binary form) and split offsets; the caller
// sets what the metrics cannot know (content, partition spec and tuple, sort order, equality ids).
DataFile ParquetDataFile(const std::string& path, const parquet::DataFileMetrics& metrics);

// Stores `schema` (the Iceberg schema the file is written with) as JSON under the footer key
// "iceberg.schema", as Iceberg Java's Parquet writer does: readers that map columns by name
// when a file lacks field ids, or that want the writer's types, take it from there.
void StoreIcebergSchema(parquet::ParquetWriter& writer, const Schema& schema);

}  // namespace floe
