#include "maint/compaction.h"

#include <map>
#include <set>

#include "meta/table_properties.h"
#include "scan/table_scan.h"
#include "txn/file_filter.h"
#include "txn/operations.h"
#include "write/data_writer.h"

namespace floe {
namespace {

std::string GroupKey(const DataFile& f) {
  std::string key = std::to_string(f.spec_id);
  for (const auto& v : f.partition) key += "|" + (v.is_null() ? std::string("\x01") : v.ToString());
  return key;
}

}  // namespace

Result<CompactionResult> CompactTable(Catalog& catalog, const TableIdentifier& id, const CompactionOptions& options) {
  CompactionResult result;
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  const TableMetadata& base = table.metadata;
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.commit.branch));
  if (!head) return result;
  int64_t small = options.small_file_bytes;
  if (small <= 0) {
    FLOE_ASSIGN_OR_RETURN(const int64_t target,
                          base.CountProperty(props::kTargetFileSizeBytes, props::kTargetFileSizeBytesDefault));
    small = target / 4 * 3;
  }

  FileIO& io = *catalog.io();
  ScanOptions scan;
  scan.snapshot_id = head->snapshot_id;
  FLOE_ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks, PlanFiles(io, base, scan));
  FLOE_ASSIGN_OR_RETURN(FileFilter filter, FileFilter::Make(options.filter, base));

  // Candidates per partition.
  std::map<std::string, std::vector<const FileScanTask*>> groups;
  for (const auto& task : tasks) {
    FLOE_ASSIGN_OR_RETURN(bool may, filter.MayMatch(task.file));
    if (!may) continue;
    if (options.rewrite_all || task.file.file_size_in_bytes < small || !task.deletes.empty())
      groups[GroupKey(task.file)].push_back(&task);
  }
  std::vector<const FileScanTask*> inputs;
  for (const auto& [key, group] : groups) {
    bool has_deletes = false;
    for (const FileScanTask* t : group) has_deletes |= !t->deletes.empty();
    if (options.rewrite_all || has_deletes || static_cast<int>(group.size()) >= options.min_input_files)
      inputs.insert(inputs.end(), group.begin(), group.end());
  }
  if (inputs.empty()) return result;

  // Delete files that only rewritten inputs need: each live data file a delete applies to is
  // listed with it in the plan.
  std::set<std::string> rewritten;
  for (const FileScanTask* t : inputs) rewritten.insert(t->file.file_path);
  std::map<std::string, DataFile> deletes;
  std::set<std::string> still_needed;
  for (const auto& task : tasks) {
    for (const auto& d : task.deletes) {
      deletes.emplace(d.file.file_path, d.file);
      if (!rewritten.count(task.file.file_path)) still_needed.insert(d.file.file_path);
    }
  }
  std::vector<DataFile> removed_deletes;
  for (const auto& [path, file] : deletes)
    if (!still_needed.count(path)) removed_deletes.push_back(file);

  DataWriter writer(io, base);
  std::vector<DataFile> removed_data;
  for (const FileScanTask* t : inputs) {
    FileScanTask task = *t;
    task.residual = True();
    auto rows = ReadTask(io, base, task, base.CurrentSchema());
    Status written = rows ? writer.Write(*rows) : Status(std::unexpected(rows.error()));
    if (!written) {
      writer.Abort();
      return std::unexpected(written.error().WithContext("compacting " + t->file.file_path));
    }
    removed_data.push_back(t->file);
  }
  auto added = writer.Finish();
  if (!added) {
    writer.Abort();
    return std::unexpected(added.error());
  }
  result.rows_rewritten = writer.stats().rows;
  result.data_files_rewritten = static_cast<int64_t>(removed_data.size());
  result.data_files_added = static_cast<int64_t>(added->size());
  result.delete_files_removed = static_cast<int64_t>(removed_deletes.size());
  if (options.after_files_written) options.after_files_written();

  FilesOperation operation(RewriteFiles(std::move(removed_data), std::move(*added), std::move(removed_deletes),
                                        head->snapshot_id));
  CommitOptions commit = options.commit;
  commit.discard_written_files = [&writer] { writer.Abort(); };  // only when certainly failed
  auto report = CommitOperation(catalog, id, operation, commit);
  if (!report) return std::unexpected(report.error());
  result.commit = *report;
  result.committed = true;
  return result;
}

}  // namespace floe
