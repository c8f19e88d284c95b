// How a merge-on-read write by key (upsert, ingest --key) reaches every old row of its keys.
//
// The spec's rule: an equality delete applies to a data file only when both share spec id and
// partition tuple, or when the delete's spec is unpartitioned (no fields, or only void ones):
// then it applies to every data file. After partition evolution a table holds data files of
// several specs, and an old row of a key lives under whichever spec was the default when it
// was written. So, over the specs that hold live data files (and the default spec, where the
// new rows go):
//   - one of them unpartitioned: a single global equality delete under it reaches them all;
//   - else each spec whose non-void partition fields all derive from key columns gets equality
//     deletes under itself, in the partition each key maps to (where that key's rows live);
//   - the files of any other spec are read and their matching rows deleted by position.
#pragma once

#include <set>
#include <vector>

#include "floe/file_io.h"
#include "meta/table_metadata.h"

namespace floe {

struct KeyDeletePlan {
  std::vector<int> equality_spec_ids;  // write the keys' equality deletes under each
  std::set<int> position_spec_ids;     // read these specs' files, delete matching rows by position
};

KeyDeletePlan PlanKeyDeletes(const TableMetadata& table, const std::vector<int>& key_ids,
                             const std::set<int>& live_data_spec_ids);

// The spec ids of the data files `snapshot` holds (from its manifest list alone: a data
// manifest that lists live files, or whose counts are missing, counts).
Result<std::set<int>> LiveDataSpecIds(FileIO& io, const TableMetadata& table, const Snapshot& snapshot);

}  // namespace floe
