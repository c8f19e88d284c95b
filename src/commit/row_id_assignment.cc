#include "commit/row_id_assignment.h"

#include <algorithm>

namespace floe {

RowIdRange AssignRowIds(const TableMetadata& table, std::vector<ManifestFile>& manifests) {
  RowIdRange range;
  range.first_row_id = table.next_row_id.value_or(0);
  int64_t next = range.first_row_id;
  for (ManifestFile& m : manifests) {
    if (m.content != ManifestContent::kData || m.first_row_id) continue;
    m.first_row_id = next;
    // Counts are never negative in a list floe accepts; clamp anyway so that a range only grows.
    next += std::max<int64_t>(0, m.added_rows_count) + std::max<int64_t>(0, m.existing_rows_count) +
            std::max<int64_t>(0, m.deleted_rows_count);
  }
  range.added_rows = next - range.first_row_id;
  return range;
}

}  // namespace floe
