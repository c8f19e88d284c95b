// A data or delete file's column metrics as the metrics evaluators take them.
#pragma once

#include "expr/metrics_evaluator.h"
#include "meta/data_file.h"

namespace floe {

// The counts and bounds a manifest entry records for `file` (column sizes are not metrics).
FileMetrics MetricsOf(const DataFile& file);

}  // namespace floe
