#include "txn/commit_loop.h"

#include <cstdio>

#include "catalog/intent_store.h"
#include "meta/table_properties.h"
#include "table_files/metadata_location.h"
#include "txn/commit_engine.h"
#include "util/clock.h"
#include "util/strings.h"
#include "util/uuid.h"

namespace floe {

int64_t NewSnapshotId(const TableMetadata& table) {
  while (true) {
    int64_t id = 0;
    FillRandom(&id, sizeof id);
    id &= 0x7fffffffffffffffLL;  // positive, as Iceberg's ids are
    if (id != 0 && table.SnapshotById(id) == nullptr) return id;
  }
}

// Manifests and manifest lists go where the metadata documents go (write.metadata.path when
// set), as Iceberg's writers place them (TableOperations.metadataFileLocation).
Result<std::string> OperationContext::NewMetadataFilePath(const TableMetadata& table, const std::string& suffix) const {
  if (names) return names->NewPath(MetadataFolder(table), "", suffix);
  return JoinPath(MetadataFolder(table), RandomUuidString() + suffix);
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

Result<std::string> OperationContext::NewManifestListPath(const TableMetadata& table, int64_t snapshot_id,
                                                          int attempt) const {
  if (names && names->recording()) return names->NewPath(MetadataFolder(table), kRecordedManifestListPrefix, ".avro");
  const std::string prefix = "snap-" + std::to_string(snapshot_id) + "-" + std::to_string(attempt) + "-";
  return JoinPath(MetadataFolder(table), prefix + RandomUuidString() + ".avro");
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

std::string CommitReport::ToString() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "snapshot %lld (sequence %lld) after %d attempt%s, %d conflict%s; validate %.1f ms, write %.1f ms, "
                "swap %.1f ms, total %.1f ms",
                static_cast<long long>(snapshot_id), static_cast<long long>(sequence_number), attempts,
                attempts == 1 ? "" : "s", conflicts, conflicts == 1 ? "" : "s", validate_ms, write_ms, swap_ms,
                total_ms);
  std::string out = buf;
  if (idempotent_replay) out += " (idempotency key already committed: nothing written)";
  return out;
}

Result<CommitReport> CommitOperation(Catalog& catalog, const TableIdentifier& id, SnapshotOperation& operation,
                                     const CommitOptions& options) {
  CommitPlan plan(id, PlanOptions{options.idempotency_key, options.summary});
  plan.AddOperation(operation, options.branch);
  FLOE_ASSIGN_OR_RETURN(CommitOutcome outcome, RunCommit(catalog, plan, options));
  return std::move(outcome.report);
}

}  // namespace floe
