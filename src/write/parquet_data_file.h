// The manifest entry of a Parquet file floe wrote, from the metrics its writer returned.
#pragma once

#include <string>

#include "meta/data_file.h"
#include "parquet/metrics.h"

namespace floe {

// Path, format, counts, sizes, bounds (single-value binary form) and split offsets; the caller
// sets what the metrics cannot know (content, partition spec and tuple, sort order, equality ids).
DataFile ParquetDataFile(const std::string& path, const parquet::DataFileMetrics& metrics);

}  // namespace floe
