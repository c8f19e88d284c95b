#include "server/ui_deletion_vectors.h"

#include <algorithm>
#include <map>

#include "table_files/manifest_io.h"

namespace floe {

Result<UiDeletionVectors> DeletionVectorsOf(FileIO& io, const TableMetadata& table, size_t limit) {
  UiDeletionVectors out;
  const Snapshot* head = table.CurrentSnapshot();
  if (table.format_version < 3 || head == nullptr) return out;
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(io, table, *head));
  std::vector<UiDeletionVector> all;
  std::map<std::string, int64_t> rows_of;  // data file -> record count, for the files some vector names
  for (const ManifestFile& m : manifests) {
    if (m.content != ManifestContent::kDeletes) continue;
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestEntries(io, table, m));
    for (const ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted || !IsDeletionVector(e.file)) continue;
      UiDeletionVector dv;
      dv.data_file = *e.file.referenced_data_file;
      dv.deleted_rows = e.file.record_count;
      dv.puffin_file = e.file.file_path;
      dv.offset = e.file.content_offset.value_or(0);
      dv.length = e.file.content_size_in_bytes.value_or(0);
      rows_of.emplace(dv.data_file, -1);
      out.deleted_rows += dv.deleted_rows;
      all.push_back(std::move(dv));
    }
  }
  out.vectors = static_cast<int64_t>(all.size());
  if (all.empty()) return out;
  for (const ManifestFile& m : manifests) {
    if (m.content != ManifestContent::kData) continue;
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestEntries(io, table, m));
    for (const ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      auto it = rows_of.find(e.file.file_path);
      if (it != rows_of.end()) it->second = e.file.record_count;
    }
  }
  for (UiDeletionVector& dv : all) dv.data_rows = rows_of[dv.data_file];
  std::sort(all.begin(), all.end(), [](const UiDeletionVector& a, const UiDeletionVector& b) {
    return a.deleted_rows != b.deleted_rows ? a.deleted_rows > b.deleted_rows : a.data_file < b.data_file;
  });
  if (all.size() > limit) all.resize(limit);
  out.shown = std::move(all);
  return out;
}

}  // namespace floe
