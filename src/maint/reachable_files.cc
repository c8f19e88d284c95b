#include "maint/reachable_files.h"

#include "scan/manifest_reading.h"

namespace floe {
namespace {

bool SkipMissing(const Error& e, const ReachOptions& options) {
  return options.missing_ok && e.kind == ErrorKind::kNotFound;
}

}  // namespace

Status AddManifests(FileIO& io, const TableMetadata& table, const std::vector<const Snapshot*>& snapshots,
                    ReachableFiles& into, const ReachOptions& options) {
  for (const Snapshot* s : snapshots) {
    if (!s->manifest_list.empty() && !into.manifest_lists.insert(s->manifest_list).second) continue;
    auto manifests = ReadManifestList(io, table, *s);
    if (!manifests) {
      if (SkipMissing(manifests.error(), options)) continue;
      return std::unexpected(manifests.error().WithContext("reading the manifests of snapshot " +
                                                           std::to_string(s->snapshot_id)));
    }
    for (auto& m : *manifests) into.manifests.emplace(m.manifest_path, std::move(m));
  }
  return Ok();
}

void AddStatistics(const TableMetadata& table, const std::set<int64_t>& snapshot_ids, ReachableFiles& into) {
  auto wanted = [&](int64_t id) { return snapshot_ids.empty() || snapshot_ids.contains(id); };
  for (const auto& s : table.statistics)
    if (wanted(s.snapshot_id)) into.statistics.insert(s.statistics_path);
  for (const auto& s : table.partition_statistics)
    if (wanted(s.snapshot_id)) into.statistics.insert(s.statistics_path);
}

Result<std::set<std::string>> ContentFiles(FileIO& io, const TableMetadata& table,
                                           const std::map<std::string, ManifestFile>& manifests, bool live_only,
                                           const ReachOptions& options) {
  std::set<std::string> files;
  for (const auto& [path, manifest] : manifests) {
    auto entries = ReadManifestEntries(io, table, manifest);
    if (!entries) {
      if (SkipMissing(entries.error(), options)) continue;
      return std::unexpected(entries.error().WithContext("reading manifest " + path));
    }
    for (const auto& e : *entries) {
      if (live_only && e.status == EntryStatus::kDeleted) continue;
      files.insert(e.file.file_path);
    }
  }
  return files;
}

std::vector<const Snapshot*> AllSnapshots(const TableMetadata& table) {
  std::vector<const Snapshot*> out;
  out.reserve(table.snapshots.size());
  for (const auto& s : table.snapshots) out.push_back(&s);
  return out;
}

}  // namespace floe
