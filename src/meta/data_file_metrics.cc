#include "meta/data_file_metrics.h"

namespace floe {

FileMetrics MetricsOf(const DataFile& file) {
  FileMetrics m;
  m.record_count = file.record_count;
  m.value_counts = file.value_counts;
  m.null_value_counts = file.null_value_counts;
  m.nan_value_counts = file.nan_value_counts;
  m.lower_bounds = file.lower_bounds;
  m.upper_bounds = file.upper_bounds;
  return m;
}

}  // namespace floe
