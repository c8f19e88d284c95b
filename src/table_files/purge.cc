#include "table_files/purge.h"

#include <map>
#include <set>

#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "table_files/location_scope.h"

namespace floe {
namespace {

// Collects the plan's files in order, each once, and checks that each lies under the table.
class Planner {
 public:
  Planner(FileIO& io, const TableMetadata& metadata) : io_(io), metadata_(metadata) {}

  Status Init() {
    auto root = NormalizeLocation(io_.ResolvedPath(metadata_.location));
    if (!root) return InvalidArgument("cannot purge: the table's location: " + root.error().message);
    root_ = std::move(*root);
    return Ok();
  }

  // Ok when `path` may be deleted by this purge; the refusal names what referenced it.
  Status Check(const std::string& path, std::string_view referenced_by) const {
    auto normal = NormalizeLocation(io_.ResolvedPath(path));
    if (normal && normal->IsWithin(root_)) return Ok();
    return InvalidArgument("purge refused, nothing deleted: " + std::string(referenced_by) + " names " + path +
                           ", which lies outside the table's location " + metadata_.location);
  }

  // The bytes of a manifest list or manifest; nullopt when it is already gone.
  Result<std::optional<std::string>> Read(const std::string& path, std::string_view referenced_by) {
    FLOE_RETURN_IF_ERROR(Check(path, referenced_by));
    auto bytes = io_.ReadAll(path);
    if (bytes) return std::optional<std::string>(std::move(*bytes));
    // An expired snapshot's list may be gone already (or never existed on a copied table).
    if (bytes.error().kind == ErrorKind::kNotFound) return std::optional<std::string>();
    return std::unexpected(bytes.error());
  }

  void Add(std::vector<std::string>& group, const std::string& path) {
    if (seen_.insert(path).second) group.push_back(path);
  }

  FileIO& io_;
  const TableMetadata& metadata_;
  NormalLocation root_;
  std::set<std::string> seen_;
};

std::string Refused(const Error& e) { return "purge refused, nothing deleted: " + e.message; }

}  // namespace

Result<PurgePlan> PlanPurge(FileIO& io, const TableMetadata& metadata, const std::string& metadata_location) {
  Planner p(io, metadata);
  FLOE_RETURN_IF_ERROR(p.Init());
  std::vector<std::string> data_files, manifests, lists, others;
  for (const auto& snapshot : metadata.snapshots) {
    if (!snapshot.manifest_list.empty()) {
      FLOE_RETURN_IF_ERROR(p.Check(snapshot.manifest_list, "the manifest-list of snapshot " +
                                                               std::to_string(snapshot.snapshot_id)));
      p.Add(lists, snapshot.manifest_list);
    }
    for (const auto& m : snapshot.v1_manifests) {
      FLOE_RETURN_IF_ERROR(p.Check(m, "the manifests of snapshot " + std::to_string(snapshot.snapshot_id)));
      p.Add(manifests, m);
    }
  }
  for (const auto& list : std::vector<std::string>(lists)) {
    FLOE_ASSIGN_OR_RETURN(auto bytes, p.Read(list, "the metadata"));
    if (!bytes) continue;
    auto contents = ReadManifestList(*bytes, list);
    if (!contents) return std::unexpected(Error{contents.error().kind, Refused(contents.error())});
    for (const auto& m : contents->manifests) {
      FLOE_RETURN_IF_ERROR(p.Check(m.manifest_path, "manifest list " + list));
      p.Add(manifests, m.manifest_path);
    }
  }
  // Data and delete files: every entry of every manifest, whatever its status (a DELETED entry's
  // file may still exist if an older snapshot was never expired).
  for (const auto& manifest : std::vector<std::string>(manifests)) {
    FLOE_ASSIGN_OR_RETURN(auto bytes, p.Read(manifest, "a manifest list"));
    if (!bytes) continue;
    auto contents = ReadManifest(*bytes, manifest, ManifestReadOptions{nullptr, &metadata});
    if (!contents) return std::unexpected(Error{contents.error().kind, Refused(contents.error())});
    for (const auto& entry : contents->entries) {
      FLOE_RETURN_IF_ERROR(p.Check(entry.file.file_path, "manifest " + manifest));
      p.Add(data_files, entry.file.file_path);
    }
  }
  for (const auto& s : metadata.statistics) {
    FLOE_RETURN_IF_ERROR(p.Check(s.statistics_path, "statistics"));
    p.Add(others, s.statistics_path);
  }
  for (const auto& s : metadata.partition_statistics) {
    FLOE_RETURN_IF_ERROR(p.Check(s.statistics_path, "partition-statistics"));
    p.Add(others, s.statistics_path);
  }
  // Documents last, the current one at the very end: until it goes, the purge can be rerun.
  for (const auto& entry : metadata.metadata_log) {
    FLOE_RETURN_IF_ERROR(p.Check(entry.metadata_file, "metadata-log"));
    p.Add(others, entry.metadata_file);
  }
  FLOE_RETURN_IF_ERROR(p.Check(metadata_location, "the catalog's pointer"));
  p.Add(others, metadata_location);

  PurgePlan plan;
  plan.table_location = metadata.location;
  for (auto* group : {&data_files, &manifests, &lists, &others}) {
    plan.files.insert(plan.files.end(), group->begin(), group->end());
  }
  return plan;
}

Status DeletePurgeFiles(FileIO& io, const PurgePlan& plan) {
  std::vector<std::string> failures;
  for (const auto& f : plan.files) {
    auto deleted = io.Delete(f);
    if (!deleted && deleted.error().kind != ErrorKind::kNotFound) failures.push_back(deleted.error().message);
  }
  if (failures.empty()) return Ok();
  std::string all = "purging table at " + plan.table_location + ": " + std::to_string(failures.size()) +
                    " file(s) could not be deleted: " + failures[0];
  for (size_t i = 1; i < failures.size() && i < 5; ++i) all += "; " + failures[i];
  return IOError(all);
}

}  // namespace floe
