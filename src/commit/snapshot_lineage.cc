#include "commit/snapshot_lineage.h"

#include "meta/table_properties.h"
#include "util/clock.h"
#include "util/uuid.h"
#include "table_files/metadata_location.h"

namespace floe {

int64_t NewSnapshotId(const TableMetadata& table) {
  while (true) {
    int64_t id = 0;
    FillRandom(&id, sizeof id);
    id &= 0x7fffffffffffffffLL;  // positive, as Iceberg's ids are
    if (id != 0 && table.SnapshotById(id) == nullptr) return id;
  }
}

Snapshot NewSnapshot(const TableMetadata& base, const Snapshot* head, int64_t snapshot_id, int64_t sequence_number,
                     const std::string& manifest_list, std::map<std::string, std::string> summary) {
  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id;
  if (head) snapshot.parent_snapshot_id = head->snapshot_id;
  snapshot.sequence_number = sequence_number;
  snapshot.timestamp_ms = std::max<int64_t>(NowMillis(), base.last_updated_ms);
  snapshot.manifest_list = manifest_list;
  snapshot.schema_id = base.current_schema_id;
  snapshot.summary = std::move(summary);
  return snapshot;
}

SnapshotRef MovedBranch(const TableMetadata& base, const std::string& branch, int64_t snapshot_id) {
  SnapshotRef ref;
  if (auto it = base.refs.find(branch); it != base.refs.end()) ref = it->second;
  ref.snapshot_id = snapshot_id;
  ref.type = RefType::kBranch;
  return ref;
}

Result<const Snapshot*> BranchHead(const TableMetadata& table, const TableIdentifier& id, const std::string& branch) {
  const Snapshot* head = table.SnapshotForRef(branch);
  if (!head && branch != kMainBranch && !table.refs.count(branch))
    return NotFound("table " + id.ToString() + " has no branch '" + branch + "'");
  return head;
}

std::string IdempotencyKeyProperty(const TableMetadata& table) {
  return table.Property(props::kIdempotencyKeyProperty, props::kIdempotencyKeySummaryDefault);
}

const Snapshot* FindIdempotentSnapshot(const TableMetadata& table, const std::string& branch, const std::string& key) {
  const Snapshot* head = table.SnapshotForRef(branch);
  if (!head) return nullptr;
  std::string property = IdempotencyKeyProperty(table);
  for (const Snapshot* s : table.Ancestry(head->snapshot_id)) {
    auto it = s->summary.find(property);
    if (it != s->summary.end() && it->second == key) return s;
  }
  return nullptr;
}

}  // namespace floe
