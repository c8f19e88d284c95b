#include "rows/row_position_deletes.h"

#include "scan/delete_loader.h"

namespace floe {
namespace {

// Does position delete `del` point at data file `path` alone? A vector always does; a position
// delete file when it says so (referenced_data_file) or its file_path bounds are one path.
bool PointsAtOnly(const DataFile& del, const std::string& path) {
  if (del.referenced_data_file) return *del.referenced_data_file == path;
  auto lo = del.lower_bounds.find(kDeleteFilePathFieldId);
  auto hi = del.upper_bounds.find(kDeleteFilePathFieldId);
  return lo != del.lower_bounds.end() && hi != del.upper_bounds.end() && lo->second == path && hi->second == path;
}

}  // namespace

RowPositionDeletes::RowPositionDeletes(FileIO& io, const TableMetadata& table, FileNamer* names)
    : io_(io), table_(table), vectors_(table.format_version >= 3), files_(io, table, names), dvs_(io, table, names) {}

Status RowPositionDeletes::Delete(const FileScanTask& task, const std::vector<int64_t>& positions) {
  if (positions.empty()) return Ok();
  if (!vectors_) {
    files_.Delete(task.file, positions);
    return Ok();
  }
  if (!dvs_.carried(task.file.file_path)) {
    FileScanTask earlier = task;
    earlier.deletes.clear();
    std::vector<DataFile> replaced;
    for (const ManifestEntry& e : task.deletes) {
      if (e.file.content != FileContent::kPositionDeletes) continue;
      earlier.deletes.push_back(e);
      if (PointsAtOnly(e.file, task.file.file_path)) replaced.push_back(e.file);
    }
    std::vector<int64_t> carried;
    if (!earlier.deletes.empty()) {
      auto loaded = LoadTaskDeletes(io_, table_, earlier, nullptr);
      if (!loaded)
        return std::unexpected(loaded.error().WithContext("reading the deletes of " + task.file.file_path +
                                                          " to carry into its deletion vector"));
      carried = loaded->positions.positions();
    }
    dvs_.Carry(task.file, carried, std::move(replaced));
  }
  dvs_.Delete(task.file, positions);
  return Ok();
}

int64_t RowPositionDeletes::deleted_rows() const { return vectors_ ? dvs_.deleted_rows() : files_.deleted_rows(); }

std::vector<std::string> RowPositionDeletes::referenced_data_files() const {
  return vectors_ ? dvs_.referenced_data_files() : files_.referenced_data_files();
}

Result<RowPositionDeletes::Files> RowPositionDeletes::Finish() {
  Files out;
  if (!vectors_) {
    FLOE_ASSIGN_OR_RETURN(out.added, files_.Finish());
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(DeletionVectorWriter::Output written, dvs_.Finish());
  out.added = std::move(written.vectors);
  out.replaced = std::move(written.replaced);
  out.targets = std::move(written.targets);
  return out;
}

void RowPositionDeletes::Abort() {
  files_.Abort();
  dvs_.Abort();
}

void RowPositionDeletes::AddTo(Files files, FilesChange* change) {
  for (auto& f : files.replaced) change->removed_delete_files.push_back(std::move(f));
  for (auto& f : files.targets) change->deletion_vector_targets.push_back(std::move(f));
}

}  // namespace floe
