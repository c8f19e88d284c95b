#include "maint/orphan_files.h"

#include <algorithm>
#include <set>

#include "maint/batched_delete.h"
#include "maint/expiry_record.h"
#include "maint/path_identity.h"
#include "maint/reachable_files.h"
#include "meta/table_properties.h"
#include "table_files/intent_log.h"
#include "table_files/metadata_document.h"
#include "util/clock.h"

namespace floe {
namespace {

bool NeverAnOrphan(std::string_view path) {
  return IsExpiryRecord(path) || IsIntentObject(path) || path.ends_with("/version-hint.text");
}

std::string WithSlash(std::string s) {
  if (!s.empty() && s.back() != '/') s += '/';
  return s;
}

}  // namespace

Result<std::set<std::string>> FilesReachedByMetadataLog(FileIO& io, const TableMetadata& table,
                                                        const std::string& metadata_location,
                                                        int64_t* documents_read) {
  std::set<std::string> reached;
  ReachableFiles seen;  // manifests already read, across documents
  auto add_document = [&](const TableMetadata& doc) -> Status {
    ReachableFiles fresh;
    fresh.manifest_lists = seen.manifest_lists;  // lists already read are skipped
    FLOE_RETURN_IF_ERROR(AddManifests(io, doc, AllSnapshots(doc), fresh, ReachOptions{.missing_ok = true}));
    std::map<std::string, ManifestFile> unread;
    for (auto& [p, m] : fresh.manifests)
      if (!seen.manifests.contains(p)) unread.emplace(p, m);
    FLOE_ASSIGN_OR_RETURN(auto content, ContentFiles(io, doc, unread, false, ReachOptions{.missing_ok = true}));
    for (const auto& p : content) reached.insert(CanonicalPath(p));
    for (const auto& p : fresh.manifest_lists) {
      reached.insert(CanonicalPath(p));
      seen.manifest_lists.insert(p);
    }
    for (auto& [p, m] : unread) {
      reached.insert(CanonicalPath(p));
      seen.manifests.emplace(p, std::move(m));
    }
    AddStatistics(doc, {}, fresh);
    for (const auto& p : fresh.statistics) reached.insert(CanonicalPath(p));
    if (documents_read) ++*documents_read;
    return Ok();
  };
  reached.insert(CanonicalPath(metadata_location));
  FLOE_RETURN_IF_ERROR(add_document(table));
  for (const auto& entry : table.metadata_log) {
    reached.insert(CanonicalPath(entry.metadata_file));
    auto doc = ReadMetadataFile(io, entry.metadata_file);
    if (!doc) {
      if (doc.error().kind == ErrorKind::kNotFound) continue;  // deleted after a later commit
      return std::unexpected(doc.error());
    }
    FLOE_RETURN_IF_ERROR(add_document(*doc));
  }
  return reached;
}

Result<int64_t> OrphanCutoffMs(const TableMetadata& table, const OrphanOptions& options, int64_t now_ms) {
  if (options.older_than_ms) {
    if (*options.older_than_ms > now_ms)
      return InvalidArgument("--older-than " + std::to_string(*options.older_than_ms) +
                             " ms is in the future: files of commits still in flight would be deleted");
    return *options.older_than_ms;
  }
  FLOE_ASSIGN_OR_RETURN(int64_t window,
                        table.CountProperty(props::kOrphanOlderThanMs, props::kOrphanOlderThanMsDefault));
  return now_ms - window;
}

Result<OrphanResult> RemoveOrphanFiles(Catalog& catalog, const TableIdentifier& id, const OrphanOptions& options) {
  const int64_t now_ms = options.now_ms.value_or(NowMillis());
  FileIO& io = *catalog.io();
  FLOE_ASSIGN_OR_RETURN(LoadedTable first, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(const int64_t cutoff, OrphanCutoffMs(first.metadata, options, now_ms));
  const std::string table_root = WithSlash(first.metadata.location);
  std::string prefix = table_root;
  if (options.location) {
    if (!CanonicalPath(WithSlash(*options.location)).starts_with(CanonicalPath(table_root)))
      return InvalidArgument("--location " + *options.location + " is not inside the table's location " +
                             first.metadata.location);
    prefix = *options.location;
  }

  // List first, then load: whatever a commit that landed before the load wrote is reached.
  FLOE_ASSIGN_OR_RETURN(std::vector<FileInfo> listed, io.ListPrefix(prefix));
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  OrphanResult result;
  result.files_listed = static_cast<int64_t>(listed.size());
  FLOE_ASSIGN_OR_RETURN(auto reached, FilesReachedByMetadataLog(io, table.metadata, table.metadata_location,
                                                                &result.metadata_documents_read));
  for (const auto& f : listed) {
    if (reached.contains(CanonicalPath(f.path)) || NeverAnOrphan(f.path)) continue;
    if (f.mtime_ms >= cutoff) {
      ++result.young_files_kept;
      continue;
    }
    result.orphans.push_back(f.path);
  }
  std::sort(result.orphans.begin(), result.orphans.end());
  if (options.dry_run) return result;
  int64_t done = 0;
  DeleteInBatches(io, result.orphans, &result.delete_failures, [&](int64_t deleted) {
    done += deleted;
    if (options.on_progress) options.on_progress(done, static_cast<int64_t>(result.orphans.size()));
  });
  return result;
}

}  // namespace floe
