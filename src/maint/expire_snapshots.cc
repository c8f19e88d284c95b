#include "maint/expire_snapshots.h"

#include <chrono>
#include <set>
#include <thread>

#include "maint/batched_delete.h"
#include "maint/expiry_record.h"
#include "maint/path_identity.h"
#include "maint/reachable_files.h"
#include "commit/metadata_commit.h"
#include "util/backoff.h"
#include "util/clock.h"

namespace floe {
namespace {

// An expiry record whose snapshots are all still in the table and that is older than this
// belongs to an expiry that never committed: it is dropped.
constexpr int64_t kAbandonedRecordMs = 24LL * 60 * 60 * 1000;

MetadataChange ExpiryChange(const TableMetadata& table, const ExpirePlan& plan) {
  MetadataChange change;
  change.what = "snapshot expiry";
  change.requirements.push_back(AssertTableUuid{table.table_uuid});
  // Every ref as the plan saw it: a branch or tag moved meanwhile may need what we remove.
  for (const auto& [name, ref] : table.refs) change.requirements.push_back(AssertRefSnapshotId{name, ref.snapshot_id});
  for (const auto& name : plan.removed_refs) change.updates.push_back(RemoveSnapshotRef{name});
  if (!plan.expired_snapshot_ids.empty()) change.updates.push_back(RemoveSnapshots{plan.expired_snapshot_ids});
  return change;
}

// `table` as it is once `plan` is applied (for a dry run).
TableMetadata WithoutExpired(const TableMetadata& table, const ExpirePlan& plan) {
  TableMetadata out = table;
  std::set<int64_t> gone(plan.expired_snapshot_ids.begin(), plan.expired_snapshot_ids.end());
  std::erase_if(out.snapshots, [&](const Snapshot& s) { return gone.contains(s.snapshot_id); });
  return out;
}

std::vector<std::string> Sorted(const std::set<std::string>& s) { return {s.begin(), s.end()}; }

// Deletes `files` in the safe order; failures are collected, not fatal.
void DeleteAll(FileIO& io, const UnreachableFiles& files, const ExpireOptions& options, ExpireResult& result) {
  const int64_t total = files.size();
  int64_t done = 0;
  for (const auto* group : {&files.content_files, &files.statistics, &files.manifests, &files.manifest_lists}) {
    DeleteInBatches(io, *group, &result.delete_failures, [&](int64_t deleted) {
      done += deleted;
      if (options.on_progress) options.on_progress(done, total);
    });
  }
}

// Finishes `record` against `current`: deletes what its removed snapshots alone reached, then
// the record once none of its snapshots is left in the table. False when its commit has not
// landed (nothing to delete yet).
Result<bool> FinishRecord(FileIO& io, const TableMetadata& current, const ExpiryRecord& record, int64_t now_ms,
                    const ExpireOptions& options, ExpireResult& result) {
  std::vector<const Snapshot*> gone;
  for (const auto& s : record.snapshots)
    if (!current.SnapshotById(s.snapshot_id)) gone.push_back(&s);
  if (gone.empty()) {
    // Its commit has not landed: it may still be running, or it failed.
    if (now_ms - record.created_ms > kAbandonedRecordMs) (void)io.Delete(record.location);
    return false;
  }
  FLOE_ASSIGN_OR_RETURN(UnreachableFiles files, FindUnreachableFiles(io, current, gone, record.statistics));
  DeleteAll(io, files, options, result);
  result.files.Append(std::move(files));
  if (gone.size() == record.snapshots.size() && result.delete_failures.empty())
    FLOE_RETURN_IF_ERROR(io.Delete(record.location));
  return true;
}

}  // namespace

void UnreachableFiles::Append(UnreachableFiles&& other) {
  auto move_into = [](std::vector<std::string>& to, std::vector<std::string>& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  move_into(content_files, other.content_files);
  move_into(manifests, other.manifests);
  move_into(manifest_lists, other.manifest_lists);
  move_into(statistics, other.statistics);
}

Result<UnreachableFiles> FindUnreachableFiles(FileIO& io, const TableMetadata& current,
                                              const std::vector<const Snapshot*>& gone,
                                              const std::vector<std::string>& gone_statistics) {
  ReachableFiles kept;
  FLOE_RETURN_IF_ERROR(AddManifests(io, current, AllSnapshots(current), kept));
  AddStatistics(current, {}, kept);
  ReachableFiles expired;
  FLOE_RETURN_IF_ERROR(AddManifests(io, current, gone, expired, ReachOptions{.missing_ok = true}));

  std::set<std::string> kept_paths;
  for (const auto& p : kept.manifest_lists) kept_paths.insert(CanonicalPath(p));
  for (const auto& [p, m] : kept.manifests) kept_paths.insert(CanonicalPath(p));
  for (const auto& p : kept.statistics) kept_paths.insert(CanonicalPath(p));
  auto is_kept = [&](const std::string& p) { return kept_paths.contains(CanonicalPath(p)); };

  UnreachableFiles out;
  std::map<std::string, ManifestFile> expired_only;
  for (auto& [p, m] : expired.manifests)
    if (!is_kept(p)) expired_only.emplace(p, m);
  if (!expired_only.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto candidates,
                          ContentFiles(io, current, expired_only, false, ReachOptions{.missing_ok = true}));
    if (!candidates.empty()) {
      FLOE_ASSIGN_OR_RETURN(auto live, ContentFiles(io, current, kept.manifests, true));
      std::set<std::string> live_paths;
      for (const auto& p : live) live_paths.insert(CanonicalPath(p));
      for (const auto& p : candidates)
        if (!live_paths.contains(CanonicalPath(p))) out.content_files.push_back(p);
    }
  }
  for (const auto& [p, m] : expired_only) out.manifests.push_back(p);
  for (const auto& p : expired.manifest_lists)
    if (!is_kept(p)) out.manifest_lists.push_back(p);
  for (const auto& p : gone_statistics)
    if (!is_kept(p)) out.statistics.push_back(p);
  return out;
}

Result<ExpireResult> ExpireSnapshots(Catalog& catalog, const TableIdentifier& id, const ExpireOptions& options) {
  const int64_t now_ms = options.now_ms.value_or(NowMillis());
  FLOE_RETURN_IF_ERROR(CheckRetentionOptions(options.retention, now_ms));
  FileIO& io = *catalog.io();
  ExpireResult result;
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(const RetryPolicy policy, RetryPolicy::Resolve(options.retry, table.metadata.properties));

  if (options.dry_run) {
    FLOE_ASSIGN_OR_RETURN(ExpirePlan plan, PlanExpiry(table.metadata, options.retention, now_ms));
    result.expired_snapshot_ids = plan.expired_snapshot_ids;
    result.removed_refs = plan.removed_refs;
    std::vector<const Snapshot*> gone;
    for (int64_t sid : plan.expired_snapshot_ids) gone.push_back(table.metadata.SnapshotById(sid));
    std::set<int64_t> gone_ids(plan.expired_snapshot_ids.begin(), plan.expired_snapshot_ids.end());
    ReachableFiles stats;
    AddStatistics(table.metadata, gone_ids, stats);
    if (!gone.empty()) {
      FLOE_ASSIGN_OR_RETURN(result.files, FindUnreachableFiles(io, WithoutExpired(table.metadata, plan), gone,
                                                               Sorted(stats.statistics)));
    }
    return result;
  }

  // Commit: plan on the state loaded, and plan again whenever a ref moved under us.
  const int64_t start = MonotonicMicros();
  Backoff backoff(policy.backoff());
  MetadataCommitOptions commit_options;
  commit_options.retry = policy;
  std::string our_record;
  for (int attempt = 1;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(ExpirePlan plan, PlanExpiry(table.metadata, options.retention, now_ms));
    if (plan.empty()) break;
    std::optional<ExpiryRecord> record;
    if (!plan.expired_snapshot_ids.empty()) {
      FLOE_ASSIGN_OR_RETURN(record, WriteExpiryRecord(io, table.metadata, plan.expired_snapshot_ids, now_ms));
    }
    auto landed = CommitMetadataChange(catalog, id, ExpiryChange(table.metadata, plan), commit_options);
    if (landed) {
      if (record) our_record = record->location;
      table = std::move(*landed);
      result.expired_snapshot_ids = plan.expired_snapshot_ids;
      result.removed_refs = plan.removed_refs;
      result.committed = true;
      break;
    }
    // Unknown outcome: the record stays (a later run finishes or drops it).
    if (record && landed.error().kind != ErrorKind::kCommitStateUnknown) (void)io.Delete(record->location);
    if (landed.error().kind != ErrorKind::kCommitConflict) return std::unexpected(landed.error());
    const double elapsed = (MonotonicMicros() - start) / 1000.0;
    if (!policy.MayRetry(attempt, elapsed))
      return std::unexpected(policy.GaveUp("snapshot expiry of " + id.ToString(), attempt, elapsed,
                                           landed.error().message));
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff.WaitMs(attempt)));
    FLOE_ASSIGN_OR_RETURN(table, catalog.LoadTable(id));
  }
  if (result.committed && options.after_commit) options.after_commit();

  // Deletes: this run's record and any an interrupted run left.
  FLOE_ASSIGN_OR_RETURN(auto records, ListExpiryRecords(io, table.metadata));
  for (const auto& record : records) {
    FLOE_ASSIGN_OR_RETURN(bool finished, FinishRecord(io, table.metadata, record, now_ms, options, result));
    if (finished && record.location != our_record) ++result.records_finished;
  }
  return result;
}

}  // namespace floe
