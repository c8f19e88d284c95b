#include "rows/row_position_deletes.h"

#include <algorithm>

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
    : io_(io), table_(table), names_(names), vectors_(table.format_version >= 3), files_(io, table, names) {}

Status RowPositionDeletes::Delete(const FileScanTask& task, const std::vector<int64_t>& positions) {
  if (positions.empty()) return Ok();
  if (!vectors_) {
    files_.Delete(task.file, positions);
    return Ok();
  }
  Target& target = targets_[task.file.file_path];
  target.data_file = task.file;
  if (!target.has_carry) {
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
    target.carried = std::move(carried);
    target.replaced = std::move(replaced);
    target.has_carry = true;
  }
  target.added.insert(target.added.end(), positions.begin(), positions.end());
  return Ok();
}

int64_t RowPositionDeletes::deleted_rows() const {
  if (!vectors_) return files_.deleted_rows();
  int64_t n = 0;
  for (const auto& [path, t] : targets_) n += DistinctPositions(t.added);
  return n;
}

std::vector<std::string> RowPositionDeletes::referenced_data_files() const {
  if (!vectors_) return files_.referenced_data_files();
  std::vector<std::string> out;
  for (const auto& [path, t] : targets_)
    if (!t.added.empty()) out.push_back(path);
  return out;
}

Result<RowPositionDeletes::Files> RowPositionDeletes::WriteVectors() {
  auto writer = std::make_unique<DeletionVectorWriter>(io_, table_, names_);
  for (const auto& [path, t] : targets_) {
    writer->Carry(t.data_file, t.carried, t.replaced);
    writer->Delete(t.data_file, t.added);
  }
  auto written = writer->Finish();
  written_.push_back(std::move(writer));  // Abort deletes what it wrote, even a part
  if (!written) return std::unexpected(written.error());
  Files out;
  out.added = std::move(written->vectors);
  out.replaced = std::move(written->replaced);
  out.targets = std::move(written->targets);
  return out;
}

Result<RowPositionDeletes::Files> RowPositionDeletes::Remerge(const std::vector<DataFile>& others,
                                                              const std::set<std::string>& gone) {
  for (const DataFile& other : others) {
    auto it = other.referenced_data_file ? targets_.find(*other.referenced_data_file) : targets_.end();
    if (it == targets_.end())
      return InvalidArgument("cannot merge the deletion vector in " + other.file_path +
                             ": it is for no data file this write deletes from");
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, ReadDeletionVector(io_, other));
    Target& t = it->second;
    t.carried.insert(t.carried.end(), positions.begin(), positions.end());
    t.replaced.push_back(other);
  }
  for (auto& [path, t] : targets_)
    std::erase_if(t.replaced, [&](const DataFile& f) { return gone.count(ContentFileKey(f)) > 0; });
  return WriteVectors();
}

void RowPositionDeletes::DropSuperseded() {
  for (size_t i = 0; i + 1 < written_.size(); ++i) written_[i]->Abort();
}

Result<RowPositionDeletes::Files> RowPositionDeletes::Finish() {
  Files out;
  if (!vectors_) {
    FLOE_ASSIGN_OR_RETURN(out.added, files_.Finish());
    return out;
  }
  return WriteVectors();
}

void RowPositionDeletes::Abort() {
  files_.Abort();
  for (auto& w : written_) w->Abort();
}

void RowPositionDeletes::AddTo(Files files, FilesChange* change) {
  for (auto& f : files.replaced) change->removed_delete_files.push_back(std::move(f));
  for (auto& f : files.targets) change->deletion_vector_targets.push_back(std::move(f));
}

}  // namespace floe
