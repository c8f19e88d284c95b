#include "scan/manifest_reading.h"

#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"

namespace floe {

Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const TableMetadata& table, const Snapshot& snapshot) {
  if (!snapshot.manifest_list.empty()) {
    auto bytes = io.ReadAll(snapshot.manifest_list);
    if (!bytes)
      return std::unexpected(bytes.error().WithContext("reading the manifest list of snapshot " +
                                                       std::to_string(snapshot.snapshot_id)));
    FLOE_ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(*bytes, snapshot.manifest_list));
    return std::move(list.manifests);
  }
  // A v1 snapshot without a manifest list names its manifests; summarize each from its bytes.
  std::vector<ManifestFile> out;
  out.reserve(snapshot.v1_manifests.size());
  for (const std::string& path : snapshot.v1_manifests) {
    auto bytes = io.ReadAll(path);
    if (!bytes)
      return std::unexpected(bytes.error().WithContext("reading a manifest of snapshot " +
                                                       std::to_string(snapshot.snapshot_id)));
    FLOE_ASSIGN_OR_RETURN(ManifestFile m, SummarizeManifest(*bytes, path, snapshot.snapshot_id, &table));
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::vector<ManifestEntry>> ReadManifestEntries(FileIO& io, const TableMetadata& table,
                                                       const ManifestFile& manifest) {
  auto bytes = io.ReadAll(manifest.manifest_path);
  if (!bytes) return std::unexpected(bytes.error().WithContext("reading manifest"));
  ManifestReadOptions options;
  options.manifest = &manifest;
  options.table = &table;
  FLOE_ASSIGN_OR_RETURN(ManifestContents contents, ReadManifest(*bytes, manifest.manifest_path, options));
  return std::move(contents.entries);
}

}  // namespace floe
