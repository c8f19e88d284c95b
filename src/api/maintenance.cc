// Table's maintenance calls (floe/maintenance.h) over maint/.
#include "api/api_internal.h"
#include "floe/maintenance.h"
#include "maint/intent_reclamation.h"
#include "maint/maintenance.h"
#include "util/clock.h"

namespace floe {
namespace {

RetentionOptions ToRetention(const ExpireSnapshotsOptions& options) {
  RetentionOptions retention;
  retention.older_than_ms = options.older_than_ms;
  retention.retain_last = options.retain_last;
  return retention;
}

}  // namespace

Status CheckExpireSnapshotsOptions(const ExpireSnapshotsOptions& options) {
  return CheckRetentionOptions(ToRetention(options), NowMillis());
}

Result<ExpireSnapshotsResult> Table::ExpireSnapshots(const ExpireSnapshotsOptions& options) const {
  ExpireOptions expire;
  expire.retention = ToRetention(options);
  expire.dry_run = options.dry_run;
  expire.after_commit = options.after_commit;
  expire.on_progress = options.on_progress;
  FLOE_ASSIGN_OR_RETURN(ExpireResult done, floe::ExpireSnapshots(*impl_->catalog, impl_->id, expire));
  ExpireSnapshotsResult out;
  out.expired_snapshot_ids = std::move(done.expired_snapshot_ids);
  out.removed_refs = std::move(done.removed_refs);
  out.committed = done.committed;
  out.content_files = std::move(done.files.content_files);
  out.manifests = std::move(done.files.manifests);
  out.manifest_lists = std::move(done.files.manifest_lists);
  out.statistics = std::move(done.files.statistics);
  out.interrupted_expiries_finished = done.records_finished;
  out.delete_failures = std::move(done.delete_failures);
  return out;
}

Result<RemoveOrphanFilesResult> Table::RemoveOrphanFiles(const RemoveOrphanFilesOptions& options) const {
  OrphanOptions orphans;
  orphans.older_than_ms = options.older_than_ms;
  orphans.location = options.location;
  orphans.dry_run = options.dry_run;
  orphans.on_progress = options.on_progress;
  FLOE_ASSIGN_OR_RETURN(OrphanResult done, options.from_intents
                                               ? ReclaimFromIntents(*impl_->catalog, impl_->id, orphans)
                                               : floe::RemoveOrphanFiles(*impl_->catalog, impl_->id, orphans));
  RemoveOrphanFilesResult out;
  out.orphans = std::move(done.orphans);
  out.files_listed = done.files_listed;
  out.young_files_kept = done.young_files_kept;
  out.metadata_documents_read = done.metadata_documents_read;
  out.delete_failures = std::move(done.delete_failures);
  out.intents_read = done.intents_read;
  out.intents_cleared = done.intents_cleared;
  out.young_intents_kept = done.young_intents_kept;
  out.referenced_kept = done.referenced_kept;
  return out;
}

Result<RewriteDataFilesResult> Table::RewriteDataFiles(const RewriteDataFilesOptions& options) const {
  CompactionOptions compaction;
  compaction.filter = options.filter.impl().expr;
  compaction.target_file_size_bytes = options.target_file_size_bytes;
  compaction.min_input_files = options.min_input_files;
  compaction.rewrite_all = options.rewrite_all;
  compaction.partial_progress = options.partial_progress;
  compaction.max_commits = options.max_commits;
  compaction.on_progress = options.on_progress;
  FLOE_ASSIGN_OR_RETURN(CompactionResult done, CompactTable(*impl_->catalog, impl_->id, compaction));
  RewriteDataFilesResult out;
  for (auto& g : done.groups) {
    out.groups.push_back({std::move(g.partition), std::move(g.inputs), g.committed, std::move(g.error)});
  }
  out.committed = done.committed;
  out.commits = done.commits;
  out.data_files_rewritten = done.data_files_rewritten;
  out.data_files_added = done.data_files_added;
  out.delete_files_removed = done.delete_files_removed;
  out.rows_rewritten = done.rows_rewritten;
  return out;
}

Result<ManifestRewriteResult> Table::RewriteManifests() const {
  FLOE_ASSIGN_OR_RETURN(RewriteManifestsResult done, floe::RewriteManifests(*impl_->catalog, impl_->id));
  ManifestRewriteResult out;
  out.committed = done.committed;
  out.manifests_replaced = done.manifests_replaced;
  out.manifests_written = done.manifests_written;
  out.entries = done.entries;
  out.commit = ToCommitInfo(done.commit);
  return out;
}

Result<MaintainResult> Table::Maintain(const MaintainOptions& options) const {
  MaintenanceOptions maintenance;
  maintenance.dry_run = options.dry_run;
  maintenance.on_progress = options.on_progress;
  FLOE_ASSIGN_OR_RETURN(MaintenanceReport report, MaintainTable(*impl_->catalog, impl_->id, maintenance));
  return MaintainResult{report.Summary(), std::move(report.step_errors)};
}

}  // namespace floe
