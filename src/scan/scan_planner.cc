// PlanScan and PlanFiles (table_scan.h).
#include <unordered_map>

#include "avro/manifest_reader.h"
#include "expr/binder.h"
#include "expr/metrics_evaluator.h"
#include "expr/parser.h"
#include "expr/projection.h"
#include "scan/delete_index.h"
#include "scan/manifest_evaluator.h"
#include "scan/manifest_reading.h"
#include "scan/partition_key.h"
#include "scan/snapshot_selection.h"
#include "scan/table_scan.h"

namespace floe {

namespace {

// What planning needs per partition spec, computed once per spec id.
struct SpecFilter {
  const PartitionSpec* spec = nullptr;
  Expr projected;  // the filter projected inclusively onto the spec's partition tuples
  std::optional<ManifestEvaluator> manifests;
  bool partition_decides_nothing = false;  // projection is True: skip per-file partition checks
  std::unordered_map<std::string, Expr> residuals;  // by PartitionKey
};

Result<Expr> BuildFilter(const ScanOptions& options, const Schema& schema) {
  Expr filter = options.filter ? options.filter : True();
  if (!options.filter_text.empty()) {
    auto parsed = ParseFilter(options.filter_text);
    if (!parsed) return std::unexpected(parsed.error().WithContext("filter '" + options.filter_text + "'"));
    filter = And(*parsed, filter);
  }
  if (filter->op() == Op::kTrue) return filter;
  return Bind(filter, schema, options.case_sensitive);
}

FileMetrics MetricsOf(const DataFile& f) {
  FileMetrics m;
  m.record_count = f.record_count;
  m.value_counts = f.value_counts;
  m.null_value_counts = f.null_value_counts;
  m.nan_value_counts = f.nan_value_counts;
  m.lower_bounds = f.lower_bounds;
  m.upper_bounds = f.upper_bounds;
  return m;
}

class Planner {
 public:
  Planner(FileIO& io, const TableMetadata& table, ScanPlan* plan) : io_(io), table_(table), plan_(plan) {}

  Result<SpecFilter*> ForSpec(int spec_id) {
    auto it = specs_.find(spec_id);
    if (it != specs_.end()) return &it->second;
    const PartitionSpec* spec = table_.SpecById(spec_id);
    if (!spec) return Corrupt("a manifest names partition spec " + std::to_string(spec_id) + ", which the table metadata does not have");
    SpecFilter sf;
    sf.spec = spec;
    if (plan_->filter->op() == Op::kTrue) {
      sf.projected = True();
    } else {
      FLOE_ASSIGN_OR_RETURN(sf.projected, ProjectInclusive(plan_->filter, *spec));
    }
    sf.partition_decides_nothing = sf.projected->op() == Op::kTrue;
    if (!sf.partition_decides_nothing) {
      FLOE_ASSIGN_OR_RETURN(TypePtr ptype, PartitionTypeOf(table_, *spec));
      sf.manifests.emplace(sf.projected, ptype);
    }
    return &specs_.emplace(spec_id, std::move(sf)).first->second;
  }

  Result<Expr> ResidualFor(SpecFilter& sf, const DataFile& file) {
    if (plan_->filter->op() == Op::kTrue) return plan_->filter;
    if (sf.spec->fields().empty()) return plan_->filter;
    std::string key = PartitionKey(file.spec_id, file.partition);
    auto it = sf.residuals.find(key);
    if (it != sf.residuals.end()) return it->second;
    FLOE_ASSIGN_OR_RETURN(Expr residual, Residual(plan_->filter, *sf.spec, file.partition));
    sf.residuals.emplace(std::move(key), residual);
    return residual;
  }

  // Reads one manifest, keeping the live entries that may match.
  Status ReadManifest(const ManifestFile& manifest, SpecFilter& sf) {
    auto bytes = io_.ReadAll(manifest.manifest_path);
    if (!bytes) return std::unexpected(bytes.error().WithContext("reading manifest"));
    ++plan_->stats.manifests_opened;
    ManifestReadOptions options;
    options.manifest = &manifest;
    options.table = &table_;
    FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(*bytes, manifest.manifest_path, options));
    bool deletes = manifest.content == ManifestContent::kDeletes;
    bool check_metrics = !deletes && plan_->filter->op() != Op::kTrue;
    ManifestEntry entry;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&entry));
      if (!more) break;
      if (entry.status == EntryStatus::kDeleted) continue;
      if (deletes != (entry.file.content != FileContent::kData))
        return Corrupt("manifest " + manifest.manifest_path + " mixes data and delete files");
      if (!deletes) ++plan_->stats.data_files_considered;
      if (!sf.partition_decides_nothing && !EvaluatePartition(sf.projected, *sf.spec, entry.file.partition)) {
        if (!deletes) ++plan_->stats.data_files_pruned_by_partition;
        continue;
      }
      if (check_metrics && !InclusiveMetrics(plan_->filter, MetricsOf(entry.file))) {
        ++plan_->stats.data_files_pruned_by_metrics;
        continue;
      }
      if (deletes) {
        ++plan_->stats.delete_files;
        delete_entries_.push_back(std::move(entry));
      } else {
        data_entries_.push_back(std::move(entry));
      }
    }
    return Ok();
  }

  Status Run(const Snapshot& snapshot) {
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(io_, table_, snapshot));
    if (snapshot.manifest_list.empty()) {
      plan_->stats.manifests_opened += static_cast<int>(manifests.size());  // summarized from their bytes
    } else {
      plan_->stats.manifest_lists_read = 1;
    }
    plan_->stats.manifests_total = static_cast<int>(manifests.size());
    // Counts are required from v2 on; in v1 lists they may be missing (read as 0).
    bool trust_counts = table_.format_version >= 2 && !snapshot.manifest_list.empty();

    for (const ManifestFile& m : manifests) {
      if (trust_counts && !m.has_added_files() && !m.has_existing_files()) {
        ++plan_->stats.manifests_without_live_files;
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(SpecFilter * sf, ForSpec(m.partition_spec_id));
      if (sf->manifests) {
        FLOE_ASSIGN_OR_RETURN(bool might, sf->manifests->MightMatch(m));
        if (!might) {
          ++plan_->stats.manifests_pruned;
          continue;
        }
      }
      FLOE_RETURN_IF_ERROR(ReadManifest(m, *sf));
    }

    FLOE_ASSIGN_OR_RETURN(DeleteIndex index, DeleteIndex::Build(table_, std::move(delete_entries_)));
    plan_->tasks.reserve(data_entries_.size());
    for (ManifestEntry& e : data_entries_) {
      FileScanTask task;
      task.data_sequence_number = DataSequenceNumber(e);
      task.deletes = index.ForDataFile(e.file, task.data_sequence_number);
      FLOE_ASSIGN_OR_RETURN(SpecFilter * sf, ForSpec(e.file.spec_id));
      FLOE_ASSIGN_OR_RETURN(task.residual, ResidualFor(*sf, e.file));
      task.file = std::move(e.file);
      plan_->tasks.push_back(std::move(task));
    }
    plan_->stats.tasks = static_cast<int64_t>(plan_->tasks.size());
    return Ok();
  }

 private:
  FileIO& io_;
  const TableMetadata& table_;
  ScanPlan* plan_;
  std::unordered_map<int, SpecFilter> specs_;
  std::vector<ManifestEntry> data_entries_;
  std::vector<ManifestEntry> delete_entries_;
};

}  // namespace

Result<ScanPlan> PlanScan(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  FLOE_ASSIGN_OR_RETURN(const Snapshot* snapshot, SelectSnapshot(table, options));
  ScanPlan plan;
  plan.schema = ScanSchema(table, snapshot, options);
  FLOE_ASSIGN_OR_RETURN(plan.projection, SelectColumns(plan.schema, options.columns, options.case_sensitive));
  FLOE_ASSIGN_OR_RETURN(plan.filter, BuildFilter(options, plan.schema));
  if (!snapshot) return plan;
  plan.snapshot_id = snapshot->snapshot_id;
  Planner planner(io, table, &plan);
  FLOE_RETURN_IF_ERROR(planner.Run(*snapshot));
  return plan;
}

Result<std::vector<FileScanTask>> PlanFiles(FileIO& io, const TableMetadata& table, const ScanOptions& options) {
  FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(io, table, options));
  return std::move(plan.tasks);
}

}  // namespace floe
