#include "meta/table_metadata.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "meta/property_values.h"

namespace floe {

const Schema* TableMetadata::SchemaById(int schema_id) const {
  for (const auto& s : schemas)
    if (s.schema_id() == schema_id) return &s;
  return nullptr;
}

const Schema& TableMetadata::CurrentSchema() const {
  static const Schema kEmpty;
  const Schema* s = SchemaById(current_schema_id);
  return s ? *s : kEmpty;
}

const PartitionSpec* TableMetadata::SpecById(int spec_id) const {
  for (const auto& s : partition_specs)
    if (s.spec_id() == spec_id) return &s;
  return nullptr;
}

const PartitionSpec& TableMetadata::DefaultSpec() const {
  static const PartitionSpec kUnpartitioned = PartitionSpec::Unpartitioned();
  const PartitionSpec* s = SpecById(default_spec_id);
  return s ? *s : kUnpartitioned;
}

const SortOrder* TableMetadata::SortOrderById(int order_id) const {
  for (const auto& o : sort_orders)
    if (o.order_id() == order_id) return &o;
  return nullptr;
}

const Snapshot* TableMetadata::SnapshotById(int64_t snapshot_id) const {
  for (const auto& s : snapshots)
    if (s.snapshot_id == snapshot_id) return &s;
  return nullptr;
}

const Snapshot* TableMetadata::CurrentSnapshot() const {
  // The main branch is the authority when present; current-snapshot-id mirrors it and is
  // what older documents (without refs) carry.
  if (auto it = refs.find(kMainBranch); it != refs.end()) return SnapshotById(it->second.snapshot_id);
  if (!current_snapshot_id || *current_snapshot_id < 0) return nullptr;
  return SnapshotById(*current_snapshot_id);
}

const Snapshot* TableMetadata::SnapshotForRef(const std::string& ref_name) const {
  auto it = refs.find(ref_name);
  if (it == refs.end()) {
    // A document without refs still has an implicit main branch at its current snapshot.
    if (ref_name == kMainBranch && refs.empty()) return CurrentSnapshot();
    return nullptr;
  }
  return SnapshotById(it->second.snapshot_id);
}

const Snapshot* TableMetadata::SnapshotAsOf(int64_t timestamp_ms) const {
  // The snapshot log records when each snapshot became current, which is what "as of" means;
  // snapshot timestamps alone would also match snapshots that were never current on main.
  const SnapshotLogEntry* best = nullptr;
  for (const auto& e : snapshot_log)
    if (e.timestamp_ms <= timestamp_ms && (!best || e.timestamp_ms >= best->timestamp_ms)) best = &e;
  return best ? SnapshotById(best->snapshot_id) : nullptr;
}

std::vector<const Snapshot*> TableMetadata::Ancestry(int64_t snapshot_id) const {
  // One index, so a long history costs O(n) rather than a scan per step.
  std::unordered_map<int64_t, const Snapshot*> by_id;
  by_id.reserve(snapshots.size());
  for (const auto& s : snapshots) by_id.emplace(s.snapshot_id, &s);
  auto find = [&](int64_t id) -> const Snapshot* {
    auto it = by_id.find(id);
    return it == by_id.end() ? nullptr : it->second;
  };
  std::vector<const Snapshot*> out;
  const Snapshot* s = find(snapshot_id);
  // A corrupt parent cycle must not loop forever: no chain is longer than the snapshot list.
  while (s && out.size() < snapshots.size()) {
    out.push_back(s);
    s = s->parent_snapshot_id ? find(*s->parent_snapshot_id) : nullptr;
  }
  return out;
}

std::string TableMetadata::Property(const std::string& key, const std::string& default_value) const {
  auto it = properties.find(key);
  return it == properties.end() ? default_value : it->second;
}

Result<int64_t> TableMetadata::CountProperty(const std::string& key, int64_t default_value) const {
  auto it = properties.find(key);
  if (it == properties.end()) return default_value;
  return ParseCountProperty(key, it->second);
}

Result<bool> TableMetadata::BooleanProperty(const std::string& key, bool default_value) const {
  auto it = properties.find(key);
  if (it == properties.end()) return default_value;
  return ParseBooleanProperty(key, it->second);
}

Status TableMetadata::Validate() const {
  auto fail = [](std::string m) { return InvalidArgument("invalid table metadata: " + std::move(m)); };
  if (format_version < 1 || format_version > 3)
    return fail("unsupported format version: " + std::to_string(format_version));
  if (format_version >= 2 && table_uuid.empty()) return fail("table-uuid must exist in format v" + std::to_string(format_version));
  if (location.empty()) return fail("location must not be empty");

  if (schemas.empty()) return fail("the table has no schemas");
  std::set<int> ids;
  for (const auto& s : schemas) {
    if (!ids.insert(s.schema_id()).second) return fail("duplicate schema id " + std::to_string(s.schema_id()));
    if (auto st = s.Validate(); !st) return fail(st.error().message);
    if (s.HighestFieldId() > last_column_id)
      return fail("schema " + std::to_string(s.schema_id()) + " has field id " + std::to_string(s.HighestFieldId()) +
                  " above last-column-id " + std::to_string(last_column_id));
  }
  if (!SchemaById(current_schema_id))
    return fail("Cannot find schema with current-schema-id=" + std::to_string(current_schema_id));

  ids.clear();
  for (const auto& spec : partition_specs) {
    if (!ids.insert(spec.spec_id()).second) return fail("duplicate partition spec id " + std::to_string(spec.spec_id()));
    for (const auto& f : spec.fields())
      if (f.field_id > last_partition_id)
        return fail("partition spec " + std::to_string(spec.spec_id()) + " has field id " + std::to_string(f.field_id) +
                    " above last-partition-id " + std::to_string(last_partition_id));
  }
  if (!SpecById(default_spec_id))
    return fail("Cannot find partition spec with default-spec-id=" + std::to_string(default_spec_id));

  ids.clear();
  for (const auto& o : sort_orders)
    if (!ids.insert(o.order_id()).second) return fail("duplicate sort order id " + std::to_string(o.order_id()));
  if (!SortOrderById(default_sort_order_id))
    return fail("Cannot find sort order with default-sort-order-id=" + std::to_string(default_sort_order_id));

  // A sorted vector, not a tree: every commit validates the whole history.
  std::vector<int64_t> sorted_ids;
  sorted_ids.reserve(snapshots.size());
  for (const auto& s : snapshots) {
    sorted_ids.push_back(s.snapshot_id);
    if (format_version >= 2 && s.sequence_number > last_sequence_number)
      return fail("snapshot " + std::to_string(s.snapshot_id) + " has sequence number " +
                  std::to_string(s.sequence_number) + " greater than last-sequence-number " +
                  std::to_string(last_sequence_number));
  }
  std::sort(sorted_ids.begin(), sorted_ids.end());
  if (auto dup = std::adjacent_find(sorted_ids.begin(), sorted_ids.end()); dup != sorted_ids.end())
    return fail("duplicate snapshot id " + std::to_string(*dup));
  auto has_snapshot = [&](int64_t id) { return std::binary_search(sorted_ids.begin(), sorted_ids.end(), id); };
  if (current_snapshot_id && *current_snapshot_id >= 0 && !has_snapshot(*current_snapshot_id))
    return fail("current-snapshot-id " + std::to_string(*current_snapshot_id) + " is not in snapshots");
  for (const auto& [name, ref] : refs) {
    if (!has_snapshot(ref.snapshot_id))
      return fail("ref '" + name + "' points to snapshot " + std::to_string(ref.snapshot_id) + ", which is not in snapshots");
  }
  if (auto it = refs.find(kMainBranch); it != refs.end()) {
    int64_t current = current_snapshot_id.value_or(-1);
    if (it->second.snapshot_id != current)
      return fail("current-snapshot-id " + std::to_string(current) + " does not match the main branch's snapshot " +
                  std::to_string(it->second.snapshot_id));
  }
  return Ok();
}

}  // namespace floe
