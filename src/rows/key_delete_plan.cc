#include "rows/key_delete_plan.h"

#include <algorithm>

#include "table_files/manifest_io.h"

namespace floe {

KeyDeletePlan PlanKeyDeletes(const TableMetadata& table, const std::vector<int>& key_ids,
                             const std::set<int>& live_data_spec_ids) {
  std::set<int> spec_ids = live_data_spec_ids;
  spec_ids.insert(table.default_spec_id);
  KeyDeletePlan plan;
  for (int spec_id : spec_ids) {
    const PartitionSpec* spec = table.SpecById(spec_id);
    if (spec && spec->is_unpartitioned()) {
      plan.equality_spec_ids = {spec_id};  // global: reaches the data files of every spec
      return plan;
    }
  }
  for (int spec_id : spec_ids) {
    const PartitionSpec* spec = table.SpecById(spec_id);
    bool by_key = spec != nullptr;  // an unknown spec (corrupt metadata) is read, not guessed
    if (spec) {
      for (const auto& pf : spec->fields()) {
        if (pf.transform.kind() == TransformKind::kVoid) continue;
        if (!pf.evaluable()) by_key = false;  // its tuple cannot be computed from the keys
        if (std::find(key_ids.begin(), key_ids.end(), pf.source_id) == key_ids.end()) by_key = false;
      }
    }
    if (by_key) {
      plan.equality_spec_ids.push_back(spec_id);
    } else {
      plan.position_spec_ids.insert(spec_id);
    }
  }
  return plan;
}

Result<std::set<int>> LiveDataSpecIds(FileIO& io, const TableMetadata& table, const Snapshot& snapshot) {
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(io, table, snapshot));
  std::set<int> out;
  for (const auto& m : manifests) {
    if (m.content != ManifestContent::kData) continue;
    bool counted = m.added_files_count > 0 || m.existing_files_count > 0 || m.deleted_files_count > 0;
    if (!counted || m.has_added_files() || m.has_existing_files()) out.insert(m.partition_spec_id);
  }
  return out;
}

}  // namespace floe
