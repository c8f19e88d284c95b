#include "maint/compaction.h"

#include "catalog/intent_store.h"

#include <map>
#include <set>

#include "meta/row_lineage.h"
#include "meta/table_properties.h"
#include "scan/table_scan.h"
#include "commit/commit_operation.h"
#include "commit/snapshot_lineage.h"
#include "commit/file_filter.h"
#include "commit/operations.h"
#include "write/data_writer.h"

namespace floe {
namespace {

struct FileGroup {
  std::string partition;
  std::vector<const FileScanTask*> tasks;
};

std::string PartitionText(const TableMetadata& table, const DataFile& f) {
  const PartitionSpec* spec = table.SpecById(f.spec_id);
  std::string text;
  for (size_t i = 0; i < f.partition.size(); ++i) {
    if (!text.empty()) text += "/";
    text += (spec && i < spec->fields().size() ? spec->fields()[i].name : "field" + std::to_string(i)) + "=" +
            (f.partition[i].is_null() ? "null" : f.partition[i].ToString());
  }
  if (!text.empty() && f.spec_id != table.default_spec_id) text = "spec " + std::to_string(f.spec_id) + ": " + text;
  return text;
}

std::string GroupKey(const DataFile& f) {
  std::string key = std::to_string(f.spec_id);
  for (const auto& v : f.partition) key += "|" + (v.is_null() ? std::string("\x01") : v.ToString());
  return key;
}

// The groups worth rewriting: per partition, the candidate files (small, or with deletes).
Result<std::vector<FileGroup>> PlanGroups(const TableMetadata& base, const std::vector<FileScanTask>& tasks,
                                          const CompactionOptions& options, int64_t small) {
  FLOE_ASSIGN_OR_RETURN(FileFilter filter, FileFilter::Make(options.filter, base));
  std::map<std::string, FileGroup> by_partition;
  for (const auto& task : tasks) {
    FLOE_ASSIGN_OR_RETURN(bool may, filter.MayMatch(task.file));
    if (!may) continue;
    if (options.rewrite_all || task.file.file_size_in_bytes < small || !task.deletes.empty()) {
      FileGroup& g = by_partition[GroupKey(task.file)];
      if (g.tasks.empty()) g.partition = PartitionText(base, task.file);
      g.tasks.push_back(&task);
    }
  }
  std::vector<FileGroup> groups;
  for (auto& [key, group] : by_partition) {
    bool has_deletes = false;
    for (const FileScanTask* t : group.tasks) has_deletes |= !t->deletes.empty();
    if (options.rewrite_all || has_deletes || static_cast<int>(group.tasks.size()) >= options.min_input_files)
      groups.push_back(std::move(group));
  }
  return groups;
}

// Delete files that only `inputs` need: each live data file a delete applies to is listed
// with it in the plan.
std::vector<DataFile> DeletesOnlyFor(const std::vector<FileScanTask>& tasks, const std::vector<const FileScanTask*>& inputs) {
  std::set<std::string> rewritten;
  for (const FileScanTask* t : inputs) rewritten.insert(t->file.file_path);
  std::map<std::string, DataFile> deletes;
  std::set<std::string> still_needed;
  for (const auto& task : tasks) {
    for (const auto& d : task.deletes) {
      // By ContentFileKey: the deletion vectors of one Puffin file share its path, and each
      // goes with its own data file alone.
      deletes.emplace(ContentFileKey(d.file), d.file);
      if (!rewritten.count(task.file.file_path)) still_needed.insert(ContentFileKey(d.file));
    }
  }
  std::vector<DataFile> out;
  for (const auto& [path, file] : deletes)
    if (!still_needed.count(path)) out.push_back(file);
  return out;
}

struct CommitBatch {
  std::vector<FileGroup*> groups;
};

// Writes and commits one batch of groups; the error names them and their files.
Status RewriteBatch(Catalog& catalog, const TableIdentifier& id, const TableMetadata& base, const TableMetadata& writing,
                    int64_t head_id, const std::vector<FileScanTask>& tasks, const CommitBatch& batch,
                    const CompactionOptions& options, CompactionResult& result) {
  FileIO& io = *catalog.io();
  std::vector<const FileScanTask*> inputs;
  for (const FileGroup* g : batch.groups) inputs.insert(inputs.end(), g->tasks.begin(), g->tasks.end());
  std::vector<DataFile> removed_deletes = DeletesOnlyFor(tasks, inputs);
  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, writing);
  DataWriter writer(io, writing, names.get());
  // Format 3: rows keep their ids and last-updated sequence numbers in the new files.
  const bool lineage = writing.format_version >= 3;
  const Schema read_schema = lineage ? WithRowLineage(base.CurrentSchema()) : base.CurrentSchema();
  if (lineage) writer.KeepRowLineage();
  std::vector<DataFile> removed_data;
  for (const FileScanTask* t : inputs) {
    FileScanTask task = *t;
    task.residual = True();
    auto rows = ReadTask(io, base, task, read_schema);
    Status written = rows ? writer.Write(*rows) : Status(std::unexpected(rows.error()));
    if (!written) {
      writer.Abort();
      (void)names->Clear();
      return std::unexpected(written.error().WithContext("compacting " + t->file.file_path));
    }
    removed_data.push_back(t->file);
  }
  auto added = writer.Finish();
  if (!added) {
    writer.Abort();
    (void)names->Clear();
    return std::unexpected(added.error());
  }
  if (options.after_files_written) options.after_files_written();
  const int64_t rows = writer.stats().rows, files_in = static_cast<int64_t>(removed_data.size()),
                files_out = static_cast<int64_t>(added->size()),
                deletes_out = static_cast<int64_t>(removed_deletes.size());
  FilesOperation operation(RewriteFiles(std::move(removed_data), std::move(*added), std::move(removed_deletes), head_id));
  CommitOptions commit = options.commit;
  commit.discard_written_files = [&writer] { writer.Abort(); };  // only when certainly failed
  commit.names = names.get();
  auto report = CommitOperation(catalog, id, operation, commit);
  if (!report) return std::unexpected(report.error());
  result.commit = *report;
  result.committed = true;
  ++result.commits;
  result.rows_rewritten += rows;
  result.data_files_rewritten += files_in;
  result.data_files_added += files_out;
  result.delete_files_removed += deletes_out;
  return Ok();
}

std::string Describe(const CommitBatch& batch) {
  std::string text;
  for (const FileGroup* g : batch.groups) {
    if (!text.empty()) text += "; ";
    text += "group " + (g->partition.empty() ? std::string("(unpartitioned)") : g->partition) + " [";
    for (size_t i = 0; i < g->tasks.size(); ++i) text += (i ? ", " : "") + g->tasks[i]->file.file_path;
    text += "]";
  }
  return text;
}

}  // namespace

Result<CompactionResult> CompactTable(Catalog& catalog, const TableIdentifier& id, const CompactionOptions& options) {
  if (options.partial_progress && options.max_commits < 1)
    return InvalidArgument("partial-progress.max-commits must be at least 1 (got " +
                           std::to_string(options.max_commits) + ")");
  if (options.min_input_files < 1)
    return InvalidArgument("min-input-files must be at least 1 (got " + std::to_string(options.min_input_files) + ")");
  if (options.target_file_size_bytes < 0)
    return InvalidArgument("target-file-size-bytes must not be negative");
  CompactionResult result;
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  const TableMetadata& base = table.metadata;
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.commit.branch));
  if (!head) return result;
  FLOE_ASSIGN_OR_RETURN(int64_t target,
                        base.CountProperty(props::kTargetFileSizeBytes, props::kTargetFileSizeBytesDefault));
  if (options.target_file_size_bytes > 0) target = options.target_file_size_bytes;
  const int64_t small = options.small_file_bytes > 0 ? options.small_file_bytes : target / 4 * 3;
  // The writer's view of the table: its target size, without the history it does not need.
  TableMetadata writing = base;
  writing.snapshots.clear();
  writing.snapshot_log.clear();
  writing.metadata_log.clear();
  writing.properties[props::kTargetFileSizeBytes] = std::to_string(target);

  ScanOptions scan;
  scan.snapshot_id = head->snapshot_id;
  FLOE_ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks, PlanFiles(*catalog.io(), base, scan));
  FLOE_ASSIGN_OR_RETURN(std::vector<FileGroup> groups, PlanGroups(base, tasks, options, small));
  if (groups.empty()) return result;
  for (const auto& g : groups) {
    FileGroupResult r;
    r.partition = g.partition;
    for (const FileScanTask* t : g.tasks) r.inputs.push_back(t->file.file_path);
    result.groups.push_back(std::move(r));
  }

  // Batches: all groups at once, or with partial progress spread over at most max_commits.
  const size_t per_batch =
      options.partial_progress ? (groups.size() + options.max_commits - 1) / options.max_commits : groups.size();
  std::optional<Error> hard_failure;
  int64_t done = 0;
  for (size_t first = 0; first < groups.size(); first += per_batch) {
    CommitBatch batch;
    for (size_t i = first; i < std::min(groups.size(), first + per_batch); ++i) batch.groups.push_back(&groups[i]);
    Status landed = RewriteBatch(catalog, id, base, writing, head->snapshot_id, tasks, batch, options, result);
    done += static_cast<int64_t>(batch.groups.size());
    if (options.on_progress) options.on_progress(done, static_cast<int64_t>(groups.size()));
    for (size_t i = first; i < first + batch.groups.size(); ++i) result.groups[i].committed = landed.has_value();
    if (landed) continue;
    Error named = landed.error().WithContext("rewriting " + Describe(batch));
    for (size_t i = first; i < first + batch.groups.size(); ++i) result.groups[i].error = named.message;
    if (!options.partial_progress) return std::unexpected(named);
    const ErrorKind kind = landed.error().kind;
    if (kind != ErrorKind::kValidationFailed && kind != ErrorKind::kCommitConflict) hard_failure = named;
  }
  if (hard_failure && result.commits == 0) return std::unexpected(*hard_failure);
  return result;
}

}  // namespace floe
