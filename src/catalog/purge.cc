#include "catalog/purge.h"

#include <map>
#include <set>

#include "avro/manifest_io.h"

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
  std::set<std::string> manifest_lists;
  std::set<std::string> manifests;           // every manifest path, deleted even if unreadable
  std::map<std::string, ManifestFile> listed;  // those whose entries can be read
  for (const auto& snapshot : metadata.snapshots) {
    if (!snapshot.manifest_list.empty()) manifest_lists.insert(snapshot.manifest_list);
    manifests.insert(snapshot.v1_manifests.begin(), snapshot.v1_manifests.end());
    auto read = ReadManifestList(io, metadata, snapshot);
    if (!read) {
      // An expired snapshot's list may be gone already (or never existed on a copied table).
      if (read.error().kind != ErrorKind::kNotFound) failures.Add(read.error());
      continue;
    }
    for (auto& m : *read) {
      manifests.insert(m.manifest_path);
      listed.emplace(m.manifest_path, std::move(m));
    }
  }

  // Data and delete files: every entry of every manifest, whatever its status (a DELETED entry's
  // file may still exist if an older snapshot was never expired).
  std::set<std::string> data_files;
  for (const auto& [path, manifest] : listed) {
    auto entries = ReadManifestEntries(io, metadata, manifest);
    if (!entries) {
      if (entries.error().kind != ErrorKind::kNotFound) failures.Add(entries.error());
      continue;
    }
    for (const auto& entry : *entries) data_files.insert(entry.file.file_path);
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
