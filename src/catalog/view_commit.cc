#include "catalog/view_commit.h"

#include "meta/view_builder.h"
#include "meta/view_json.h"
#include "table_files/metadata_document.h"
#include "table_files/metadata_location.h"
#include "util/clock.h"
#include "util/strings.h"
#include "util/uuid.h"

namespace floe {

std::vector<ViewUpdate> NewViewUpdates(const CreateViewRequest& request, const std::string& location) {
  ViewVersion version = request.version;
  version.version_id = 1;
  version.schema_id = -1;  // the schema added below
  if (version.timestamp_ms == 0) version.timestamp_ms = NowMillis();
  std::vector<ViewUpdate> updates;
  updates.push_back(SetLocation{location});
  updates.push_back(AddSchema{request.schema, std::nullopt});
  if (!request.properties.empty()) updates.push_back(SetProperties{request.properties});
  updates.push_back(AddViewVersion{std::move(version)});
  updates.push_back(SetCurrentViewVersion{-1});
  return updates;
}

Result<ViewMetadata> ReadViewMetadataFile(FileIO& io, const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(std::string text, ReadMetadataText(io, location));
  auto parsed = ParseViewMetadata(text);
  if (!parsed) return std::unexpected(Error{parsed.error().kind, location + ": " + parsed.error().message});
  return parsed;
}

Result<LoadedView> LoadViewVia(ViewPointerStore& store, FileIO& io, const TableIdentifier& id) {
  FLOE_ASSIGN_OR_RETURN(std::string location, store.CurrentViewLocation(id));
  FLOE_ASSIGN_OR_RETURN(ViewMetadata metadata, ReadViewMetadataFile(io, location));
  return LoadedView{id, location, std::move(metadata)};
}

std::string VersionedViewLocation(const ViewMetadata& next, const std::string& base_location) {
  int64_t version = 0;
  if (!base_location.empty()) {
    int64_t base_version = ParseMetadataVersion(base_location);
    version = base_version >= 0 ? base_version + 1 : static_cast<int64_t>(next.version_log.size());
  }
  auto folder = next.properties.find("write.metadata.path");
  const std::string metadata = folder != next.properties.end() && !folder->second.empty()
                                   ? TrimTrailingSlashes(folder->second)
                                   : TrimTrailingSlashes(next.location) + "/metadata";
  return metadata + "/" + VersionedMetadataPrefix(version) +
         RandomUuidString() + kMetadataSuffix;
}

Result<LoadedView> CommitViewVia(ViewPointerStore& store, FileIO& io, const ViewCommit& commit, bool create) {
  std::optional<LoadedView> base;
  if (!create) {
    FLOE_ASSIGN_OR_RETURN(base, LoadViewVia(store, io, commit.id));
  } else {
    auto current = store.CurrentViewLocation(commit.id);
    if (current) return ViewAlreadyExists(commit.id.ToString());
    if (current.error().kind != ErrorKind::kNotFound) return std::unexpected(current.error());
  }
  for (const auto& requirement : commit.requirements) {
    FLOE_RETURN_IF_ERROR(CheckViewRequirement(requirement, base ? &base->metadata : nullptr));
  }
  ViewMetadataBuilder builder = base ? ViewMetadataBuilder(base->metadata) : ViewMetadataBuilder(RandomUuidString());
  FLOE_RETURN_IF_ERROR(builder.ApplyAll(commit.updates));
  FLOE_ASSIGN_OR_RETURN(ViewMetadata next, builder.Build());
  const std::string base_location = base ? base->metadata_location : "";
  FLOE_ASSIGN_OR_RETURN(std::string location, store.NewViewLocation(commit.id, next, base_location));
  auto written = io.CreateIfAbsent(location, WriteViewMetadata(next));
  if (!written) {
    if (written.error().kind == ErrorKind::kAlreadyExists && store.ViewDocumentIsPointer()) {
      if (create) return ViewAlreadyExists(commit.id.ToString());
      return CommitConflict("commit to view " + commit.id.ToString() + " lost: another commit created " + location +
                            " first");
    }
    return std::unexpected(written.error());
  }
  if (!store.ViewDocumentIsPointer()) {
    auto swapped = store.SwapViewPointer(PointerSwap{commit.id, base_location, location});
    if (!swapped) {
      if (swapped.error().kind != ErrorKind::kCommitStateUnknown) (void)io.Delete(location);
      if (create && swapped.error().kind == ErrorKind::kCommitConflict) return ViewAlreadyExists(commit.id.ToString());
      return std::unexpected(swapped.error());
    }
  }
  return LoadedView{commit.id, location, std::move(next)};
}

}  // namespace floe
