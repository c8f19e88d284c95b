#include "maint/rewrite_manifests.h"

#include <algorithm>
#include <map>
#include <set>

#include "meta/table_properties.h"
#include "scan/manifest_reading.h"
#include "commit/manifest_output.h"
#include "commit/commit_operation.h"
#include "commit/snapshot_lineage.h"
#include "commit/snapshot_operation.h"

namespace floe {
namespace {

std::string PartitionKey(const DataFile& f) {
  std::string key;
  for (const auto& v : f.partition) key += (v.is_null() ? std::string("\x01") : v.ToString()) + "\x02";
  return key;
}

class ManifestRewrite : public SnapshotOperation {
 public:
  explicit ManifestRewrite(int64_t target_size_bytes) : target_size_bytes_(target_size_bytes) {}

  std::string operation() const override { return "replace"; }

  Status Prepare(const OperationContext& ctx, const TableMetadata& base) override {
    const Snapshot* head = base.SnapshotForRef(ctx.branch);
    if (!head) return Ok();
    FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(*ctx.io, base, *head));
    // Entries of every data manifest, per spec, in partition order.
    std::map<int, std::vector<ManifestEntry>> by_spec;
    int64_t bytes = 0, entries_read = 0;
    for (const auto& m : manifests) {
      if (m.content != ManifestContent::kData) continue;
      FLOE_ASSIGN_OR_RETURN(auto entries, ReadManifestEntries(*ctx.io, base, m));
      replaced_.insert(m.manifest_path);
      bytes += m.manifest_length;
      entries_read += static_cast<int64_t>(entries.size());
      for (auto& e : entries) {
        if (e.status == EntryStatus::kDeleted) continue;
        e.status = EntryStatus::kExisting;
        by_spec[m.partition_spec_id].push_back(std::move(e));
      }
    }
    if (replaced_.size() < 2) {  // one manifest (or none): nothing to regroup
      replaced_.clear();
      return Ok();
    }
    const int64_t bytes_per_entry = std::max<int64_t>(1, bytes / std::max<int64_t>(1, entries_read));
    const size_t per_manifest = static_cast<size_t>(std::max<int64_t>(1, target_size_bytes_ / bytes_per_entry));
    for (auto& [spec_id, entries] : by_spec) {
      std::stable_sort(entries.begin(), entries.end(), [](const ManifestEntry& a, const ManifestEntry& b) {
        return PartitionKey(a.file) < PartitionKey(b.file);
      });
      for (size_t first = 0; first < entries.size(); first += per_manifest) {
        std::vector<ManifestEntry> chunk(entries.begin() + first,
                                         entries.begin() + std::min(entries.size(), first + per_manifest));
        FLOE_ASSIGN_OR_RETURN(std::string path, ctx.NewMetadataFilePath(base, "-m0.avro"));
        FLOE_ASSIGN_OR_RETURN(ManifestFile written,
                              WriteManifestFile(*ctx.io, base, spec_id, ManifestContent::kData, chunk, path));
        int64_t min_seq = INT64_MAX;
        for (const auto& e : chunk) min_seq = std::min(min_seq, e.sequence_number.value_or(0));
        written.min_sequence_number = min_seq == INT64_MAX ? 0 : min_seq;
        prepared_.push_back(path);
        written_.push_back(std::move(written));
        entries_ += static_cast<int64_t>(chunk.size());
      }
    }
    return Ok();
  }

  Status Validate(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head) override {
    if (replaced_.empty()) return Ok();
    if (!head) return ValidationFailed("Cannot rewrite manifests: branch " + ctx.branch + " has no snapshot any more");
    FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(*ctx.io, current, *head));
    std::set<std::string> present;
    for (const auto& m : manifests) present.insert(m.manifest_path);
    for (const auto& path : replaced_)
      if (!present.contains(path))
        return ValidationFailed("Cannot rewrite manifests: manifest is missing (another commit changed it): " + path);
    return Ok();
  }

  Result<AttemptOutput> Apply(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head,
                              int64_t snapshot_id, int64_t sequence_number) override {
    AttemptOutput out;
    for (ManifestFile m : written_) {
      m.added_snapshot_id = snapshot_id;
      m.sequence_number = sequence_number;
      out.manifests.push_back(std::move(m));
    }
    if (head) {
      FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(*ctx.io, current, *head));
      for (auto& m : manifests)
        if (!replaced_.contains(m.manifest_path)) out.manifests.push_back(std::move(m));
    }
    out.summary.Set("manifests-created", std::to_string(written_.size()));
    out.summary.Set("manifests-replaced", std::to_string(replaced_.size()));
    out.summary.Set("manifests-kept", std::to_string(out.manifests.size() - written_.size()));
    out.summary.Set("entries-processed", std::to_string(entries_));
    return out;
  }

  std::vector<std::string> prepared_files() const override { return prepared_; }

  int64_t replaced() const { return static_cast<int64_t>(replaced_.size()); }
  int64_t written() const { return static_cast<int64_t>(written_.size()); }
  int64_t entries() const { return entries_; }

 private:
  int64_t target_size_bytes_;
  std::set<std::string> replaced_;
  std::vector<ManifestFile> written_;
  std::vector<std::string> prepared_;
  int64_t entries_ = 0;
};

}  // namespace

Result<RewriteManifestsResult> RewriteManifests(Catalog& catalog, const TableIdentifier& id,
                                                const RewriteManifestsOptions& options) {
  if (options.target_size_bytes < 0) return InvalidArgument("manifest target size must not be negative");
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  int64_t target = options.target_size_bytes;
  if (target == 0) {
    FLOE_ASSIGN_OR_RETURN(target, table.metadata.CountProperty(props::kManifestTargetSizeBytes,
                                                               props::kManifestTargetSizeBytesDefault));
  }
  RewriteManifestsResult result;
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(table.metadata, id, options.commit.branch));
  if (!head) return result;
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(*catalog.io(), table.metadata, *head));
  if (std::count_if(manifests.begin(), manifests.end(),
                    [](const ManifestFile& m) { return m.content == ManifestContent::kData; }) < 2)
    return result;  // one data manifest (or none): nothing to regroup
  ManifestRewrite operation(std::max<int64_t>(1, target));
  FLOE_ASSIGN_OR_RETURN(result.commit, CommitOperation(catalog, id, operation, options.commit));
  result.committed = true;
  result.manifests_replaced = operation.replaced();
  result.manifests_written = operation.written();
  result.entries = operation.entries();
  return result;
}

}  // namespace floe
