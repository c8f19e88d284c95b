#include "maint/relocate_table.h"

#include <map>
#include <memory>

#include "meta/metadata_json.h"
#include "scan/delete_loader.h"
#include "table_files/manifest_io.h"
#include "table_files/metadata_location.h"
#include "table_files/moved_paths_file_io.h"
#include "util/strings.h"
#include "util/uuid.h"
#include "write/position_delete_writer.h"

namespace floe {
namespace {

// Borrows the caller's FileIO for a MovedPathsFileIO (which holds its inner one shared).
std::shared_ptr<FileIO> Borrow(FileIO& io) { return std::shared_ptr<FileIO>(&io, [](FileIO*) {}); }

class Relocation {
 public:
  Relocation(FileIO& io, const TableMetadata& recorded, const std::string& new_location)
      : io_(io), moved_(Borrow(io), recorded.location, new_location), recorded_(recorded) {
    relocated_ = recorded;
    RelocateDocumentPaths(relocated_, moved_);
  }

  Result<RelocatedTable> Run(const std::string& metadata_location) {
    // Each snapshot's manifest list is read where the recorded one now is, and replaced.
    for (size_t i = 0; i < relocated_.snapshots.size(); ++i)
      FLOE_RETURN_IF_ERROR(RelocateSnapshot(recorded_.snapshots[i], relocated_.snapshots[i]));
    relocated_.metadata_log.push_back({relocated_.last_updated_ms, moved_.Map(metadata_location)});
    FLOE_RETURN_IF_ERROR(relocated_.Validate());

    int64_t version = ParseMetadataVersion(metadata_location);
    std::string location = VersionedMetadataLocation(MetadataFolder(relocated_), version < 0 ? 1 : version + 1);
    FLOE_RETURN_IF_ERROR(io_.CreateIfAbsent(location, WriteTableMetadata(relocated_)));
    written_.push_back(location);
    RelocatedTable out{location, std::move(relocated_), std::move(written_)};
    written_.clear();
    return out;
  }

  // What Run wrote before it failed.
  const std::vector<std::string>& written() const { return written_; }

 private:
  Status RelocateSnapshot(const Snapshot& recorded, Snapshot& snapshot) {
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(moved_, recorded_, recorded));
    for (ManifestFile& manifest : manifests) {
      FLOE_ASSIGN_OR_RETURN(const ManifestFile* copy, RelocatedManifest(manifest));
      // The list's own fields (sequence numbers, adding snapshot, counts, row ids) are kept;
      // only where the manifest now is and its length change.
      manifest.manifest_path = copy->manifest_path;
      manifest.manifest_length = copy->manifest_length;
    }
    std::string path = JoinPath(MetadataFolder(relocated_), "snap-" + std::to_string(snapshot.snapshot_id) + "-1-" +
                                                                 RandomUuidString() + ".avro");
    FLOE_RETURN_IF_ERROR(WriteManifestListFile(io_, relocated_, manifests, snapshot.snapshot_id,
                                               snapshot.parent_snapshot_id, snapshot.sequence_number, path));
    written_.push_back(path);
    snapshot.manifest_list = path;
    snapshot.v1_manifests.clear();
    return Ok();
  }

  // The manifest rewritten with relocated paths, once per manifest however many lists name it.
  Result<const ManifestFile*> RelocatedManifest(const ManifestFile& manifest) {
    auto done = manifests_.find(manifest.manifest_path);
    if (done != manifests_.end()) return &done->second;
    auto entries = ReadManifestEntries(moved_, recorded_, manifest);
    if (!entries) return std::unexpected(entries.error().WithContext("manifest " + manifest.manifest_path));
    for (ManifestEntry& entry : *entries)
      FLOE_RETURN_IF_ERROR(RelocateFile(entry.file, entry.status == EntryStatus::kDeleted));
    std::string path = JoinPath(MetadataFolder(relocated_), RandomUuidString() + "-m0.avro");
    FLOE_ASSIGN_OR_RETURN(ManifestFile written, WriteManifestFile(io_, relocated_, manifest.partition_spec_id,
                                                                  manifest.content, *entries, path));
    written_.push_back(path);
    return &manifests_.emplace(manifest.manifest_path, std::move(written)).first->second;
  }

  // A deleted entry's file may be gone already (expired with the snapshots that used it): its
  // path is relocated, its contents only when a live entry needs them.
  Status RelocateFile(DataFile& file, bool deleted_entry) {
    if (file.referenced_data_file) file.referenced_data_file = moved_.Map(*file.referenced_data_file);
    auto done = delete_files_.find(file.file_path);
    if (file.content != FileContent::kPositionDeletes || (deleted_entry && done == delete_files_.end())) {
      file.file_path = moved_.Map(file.file_path);
      return Ok();
    }
    // A deletion vector's blob holds positions only, and readers find it by the entry's offset:
    // the Puffin file stays as it is, under its relocated path (its footer's referenced-data-file
    // property keeps the old path, which no reader uses to apply the vector).
    if (IsDeletionVector(file)) {
      file.file_path = moved_.Map(file.file_path);
      return Ok();
    }
    if (done == delete_files_.end()) {
      FLOE_ASSIGN_OR_RETURN(DataFile copy, RewritePositionDeletes(file));
      done = delete_files_.emplace(file.file_path, std::move(copy)).first;
    }
    file = done->second;
    return Ok();
  }

  // A position delete file names the data files it applies to: a copy with those names
  // relocated, in the same partition.
  Result<DataFile> RewritePositionDeletes(const DataFile& file) {
    DataFile moved = file;
    moved.file_path = moved_.Map(file.file_path);
    auto rows = ReadPositionDeleteFile(moved_, file);
    if (!rows) return std::unexpected(rows.error().WithContext("position delete file " + moved.file_path));
    int path_index = rows->ColumnIndexById(kDeleteFilePathFieldId);
    int pos_index = rows->ColumnIndexById(kDeletePosFieldId);
    if (path_index < 0 || pos_index < 0)
      return Corrupt("position delete file " + moved.file_path + " lacks its file_path or pos column");
    const Column& paths = rows->columns[path_index];
    const Column& positions = rows->columns[pos_index];
    PositionDeleteWriter writer(io_, relocated_);
    DataFile target;
    target.spec_id = file.spec_id;
    target.partition = file.partition;
    for (size_t r = 0; r < rows->num_rows; ++r) {
      if (paths.IsNull(r) || positions.IsNull(r)) continue;
      target.file_path = moved_.Map(paths.BytesAt(r));
      writer.Delete(target, positions.type->id() == TypeId::kLong ? positions.longs[r] : positions.ints[r]);
    }
    auto out = writer.Finish();
    if (!out) return std::unexpected(out.error().WithContext("rewriting position delete file " + moved.file_path));
    if (out->size() != 1) {
      writer.Abort();
      return Corrupt("position delete file " + moved.file_path + " holds no deletes");
    }
    written_.push_back(out->front().file_path);
    return std::move(out->front());
  }

  FileIO& io_;
  MovedPathsFileIO moved_;
  const TableMetadata& recorded_;
  TableMetadata relocated_;
  std::map<std::string, ManifestFile> manifests_;  // by recorded path
  std::map<std::string, DataFile> delete_files_;   // by recorded path
  std::vector<std::string> written_;
};

}  // namespace

void RelocateDocumentPaths(TableMetadata& metadata, const MovedPathsFileIO& moved) {
  metadata.location = TrimTrailingSlashes(moved.Map(metadata.location));
  for (const char* key : {"write.data.path", "write.metadata.path", "write.object-storage.path"}) {
    auto it = metadata.properties.find(key);
    if (it != metadata.properties.end()) it->second = moved.Map(it->second);
  }
  for (Snapshot& snapshot : metadata.snapshots) {
    if (!snapshot.manifest_list.empty()) snapshot.manifest_list = moved.Map(snapshot.manifest_list);
    for (std::string& manifest : snapshot.v1_manifests) manifest = moved.Map(manifest);
  }
  for (auto& s : metadata.statistics) s.statistics_path = moved.Map(s.statistics_path);
  for (auto& s : metadata.partition_statistics) s.statistics_path = moved.Map(s.statistics_path);
  for (auto& entry : metadata.metadata_log) entry.metadata_file = moved.Map(entry.metadata_file);
}

Result<RelocatedTable> RelocateTable(FileIO& io, const TableMetadata& metadata, const std::string& metadata_location,
                                     const std::string& new_location) {
  Relocation relocation(io, metadata, new_location);
  auto out = relocation.Run(metadata_location);
  if (!out) {
    for (const std::string& path : relocation.written()) (void)io.Delete(path);
    return std::unexpected(out.error().WithContext("relocating the table to " + new_location));
  }
  return out;
}

void DiscardRelocation(FileIO& io, const RelocatedTable& relocated) {
  for (const std::string& path : relocated.written) (void)io.Delete(path);
}

}  // namespace floe
