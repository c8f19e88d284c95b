// Row lineage (format 3): the row-id range a new snapshot claims, and the first_row_id of each
// data manifest in its manifest list.
//
// A snapshot's first-row-id is the table's next-row-id as the attempt found it; a retry on a
// newer base assigns again from that base's next-row-id, as sequence numbers are reassigned:
// the manifests themselves are never rewritten, only the list and the metadata.
#pragma once

#include <cstdint>
#include <vector>

#include "meta/manifest_file.h"
#include "meta/table_metadata.h"

namespace floe {

struct RowIdRange {
  int64_t first_row_id = 0;  // the snapshot's first-row-id
  int64_t added_rows = 0;    // the snapshot's added-rows: ids claimed, an upper bound of rows given one
};

// Gives every data manifest of `manifests` without a first_row_id one, in list order, starting
// at `table`'s next-row-id. Manifests that already have one keep it; delete manifests never get
// one. Each assigned manifest claims the rows of every entry a reader may give an id by
// inheritance (added, existing and deleted entries: an upper bound, as the spec allows), so the
// ranges of two manifests never overlap.
RowIdRange AssignRowIds(const TableMetadata& table, std::vector<ManifestFile>& manifests);

}  // namespace floe
