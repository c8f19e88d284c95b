#include "catalog/purge.h"

#include <set>

#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"

namespace floe {
namespace {

// Collects failures without stopping: a purge deletes all it can, then says what it could not.
struct Failures {
  std::vector<std::string> messages;
  void Add(const Error& e) { messages.push_back(e.message); }
  Status Result(const std::string& what) const {
    if (messages.empty()) return Ok();
    std::string all = what + ": " + std::to_string(messages.size()) + " problem(s): " + messages[0];
    for (size_t i = 1; i < messages.size() && i < 5; ++i) all += "; " + messages[i];
    return IOError(all);
  }
};

void DeleteFile(FileIO& io, const std::string& path, Failures& failures) {
  auto deleted = io.Delete(path);
  if (!deleted) failures.Add(deleted.error());
}

}  // namespace

Status PurgeTableFiles(FileIO& io, const TableMetadata& metadata, const std::string& metadata_location) {
  Failures failures;
  std::set<std::string> manifests;
  std::set<std::string> manifest_lists;
  for (const auto& snapshot : metadata.snapshots) {
    if (!snapshot.manifest_list.empty()) manifest_lists.insert(snapshot.manifest_list);
    for (const auto& m : snapshot.v1_manifests) manifests.insert(m);
  }
  for (const auto& list : manifest_lists) {
    auto bytes = io.ReadAll(list);
    if (!bytes) {
      // An expired snapshot's list may be gone already (or never existed on a copied table).
      if (bytes.error().kind != ErrorKind::kNotFound) failures.Add(bytes.error());
      continue;
    }
    auto contents = ReadManifestList(*bytes, list);
    if (!contents) {
      failures.Add(contents.error());
      continue;
    }
    for (const auto& m : contents->manifests) manifests.insert(m.manifest_path);
  }

  // Data and delete files: every entry of every manifest, whatever its status (a DELETED entry's
  // file may still exist if an older snapshot was never expired).
  std::set<std::string> data_files;
  for (const auto& manifest : manifests) {
    auto bytes = io.ReadAll(manifest);
    if (!bytes) {
      if (bytes.error().kind != ErrorKind::kNotFound) failures.Add(bytes.error());
      continue;
    }
    auto contents = ReadManifest(*bytes, manifest, ManifestReadOptions{nullptr, &metadata});
    if (!contents) {
      failures.Add(contents.error());
      continue;
    }
    for (const auto& entry : contents->entries) data_files.insert(entry.file.file_path);
  }
  for (const auto& f : data_files) DeleteFile(io, f, failures);
  for (const auto& f : manifests) DeleteFile(io, f, failures);
  for (const auto& f : manifest_lists) DeleteFile(io, f, failures);
  for (const auto& s : metadata.statistics) DeleteFile(io, s.statistics_path, failures);
  for (const auto& s : metadata.partition_statistics) DeleteFile(io, s.statistics_path, failures);
  for (const auto& entry : metadata.metadata_log) DeleteFile(io, entry.metadata_file, failures);
  DeleteFile(io, metadata_location, failures);
  return failures.Result("purging table at " + metadata.location);
}

}  // namespace floe
