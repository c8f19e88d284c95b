#include "maint/expire_plan.h"

#include <cstdint>
#include <set>

#include "meta/table_properties.h"

namespace floe {
namespace {

int64_t SaturatingAgo(int64_t now_ms, int64_t age_ms) { return age_ms >= now_ms ? INT64_MIN : now_ms - age_ms; }

struct Defaults {
  int64_t cutoff_ms;
  int64_t min_keep;
  int64_t max_ref_age_ms;
};

Result<Defaults> TableDefaults(const TableMetadata& table, const RetentionOptions& options, int64_t now_ms) {
  FLOE_ASSIGN_OR_RETURN(int64_t max_age, table.CountProperty(props::kMaxSnapshotAgeMs, props::kMaxSnapshotAgeMsDefault));
  FLOE_ASSIGN_OR_RETURN(int64_t min_keep,
                        table.CountProperty(props::kMinSnapshotsToKeep, props::kMinSnapshotsToKeepDefault));
  FLOE_ASSIGN_OR_RETURN(int64_t max_ref_age, table.CountProperty(props::kMaxRefAgeMs, props::kMaxRefAgeMsDefault));
  Defaults d;
  d.cutoff_ms = options.older_than_ms ? *options.older_than_ms : SaturatingAgo(now_ms, max_age);
  d.min_keep = options.retain_last ? *options.retain_last : min_keep;
  d.max_ref_age_ms = max_ref_age;
  return d;
}

}  // namespace

Status CheckRetentionOptions(const RetentionOptions& options, int64_t now_ms) {
  if (options.older_than_ms && *options.older_than_ms > now_ms)
    return InvalidArgument("--older-than " + std::to_string(*options.older_than_ms) +
                           " ms is in the future (now is " + std::to_string(now_ms) +
                           " ms): it would expire snapshots still being made");
  if (options.retain_last && *options.retain_last < 1)
    return InvalidArgument("--retain-last must be at least 1 (got " + std::to_string(*options.retain_last) +
                           "): a branch always keeps its head");
  return Ok();
}

Result<ExpirePlan> PlanExpiry(const TableMetadata& table, const RetentionOptions& options, int64_t now_ms) {
  FLOE_RETURN_IF_ERROR(CheckRetentionOptions(options, now_ms));
  FLOE_ASSIGN_OR_RETURN(const Defaults defaults, TableDefaults(table, options, now_ms));
  ExpirePlan plan;
  std::set<int64_t> keep;
  std::set<int64_t> referenced;  // reached by a kept ref: not "unreferenced"
  // A branch keeps its head's ancestors, newest first, while it has fewer than `min_keep` or
  // they are not older than `cutoff`; all its ancestors count as referenced.
  auto keep_branch = [&](int64_t head_id, int64_t min_keep, int64_t cutoff) {
    int64_t kept = 0;
    bool retaining = true;
    for (const Snapshot* s : table.Ancestry(head_id)) {
      referenced.insert(s->snapshot_id);
      retaining = retaining && (kept < min_keep || s->timestamp_ms >= cutoff);
      if (!retaining) continue;
      keep.insert(s->snapshot_id);
      ++kept;
    }
  };
  for (const auto& [name, ref] : table.refs) {
    const Snapshot* head = table.SnapshotById(ref.snapshot_id);
    if (!head) continue;  // Validate() refuses such a document; nothing to keep for it
    const int64_t max_ref_age = ref.max_ref_age_ms.value_or(defaults.max_ref_age_ms);
    if (name != kMainBranch && head->timestamp_ms < SaturatingAgo(now_ms, max_ref_age)) {
      plan.removed_refs.push_back(name);
      continue;
    }
    if (ref.type == RefType::kTag) {
      keep.insert(head->snapshot_id);
      referenced.insert(head->snapshot_id);
      continue;
    }
    const int64_t min_keep = ref.min_snapshots_to_keep ? *ref.min_snapshots_to_keep : defaults.min_keep;
    const int64_t cutoff =
        ref.max_snapshot_age_ms ? SaturatingAgo(now_ms, *ref.max_snapshot_age_ms) : defaults.cutoff_ms;
    keep_branch(head->snapshot_id, min_keep, cutoff);
  }
  // A table with a current snapshot but no refs (v1 documents): main is implicit.
  if (table.refs.empty() && table.current_snapshot_id)
    keep_branch(*table.current_snapshot_id, defaults.min_keep, defaults.cutoff_ms);
  for (const auto& s : table.snapshots) {
    if (keep.contains(s.snapshot_id)) continue;
    if (!referenced.contains(s.snapshot_id) && s.timestamp_ms >= defaults.cutoff_ms) continue;
    plan.expired_snapshot_ids.push_back(s.snapshot_id);
  }
  return plan;
}

}  // namespace floe
