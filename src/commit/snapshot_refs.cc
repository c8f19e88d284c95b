#include "commit/snapshot_refs.h"

#include "table_files/manifest_io.h"
#include "commit/commit_operation.h"
#include "commit/files_operation.h"
#include "commit/snapshot_lineage.h"

namespace floe {
namespace {

std::string Str(int64_t v) { return std::to_string(v); }

const char* KindName(RefType t) { return t == RefType::kBranch ? "branch" : "tag"; }

// The change that sets `name` to `ref`, asserting the ref's current target.
MetadataChange SetRef(const TableMetadata& base, const std::string& name, const SnapshotRef& ref, std::string what) {
  MetadataChange change;
  change.what = std::move(what);
  std::optional<int64_t> current;
  if (auto it = base.refs.find(name); it != base.refs.end()) current = it->second.snapshot_id;
  change.requirements.push_back(AssertTableUuid{base.table_uuid});
  change.requirements.push_back(AssertRefSnapshotId{name, current});
  change.updates.push_back(SetSnapshotRef{name, ref});
  return change;
}

Result<int64_t> ResolveSnapshot(const TableMetadata& table, const TableIdentifier& id, std::optional<int64_t> wanted) {
  if (wanted) {
    if (!table.SnapshotById(*wanted)) return NotFound("table " + id.ToString() + " has no snapshot " + Str(*wanted));
    return *wanted;
  }
  const Snapshot* current = table.CurrentSnapshot();
  if (!current) return InvalidArgument("table " + id.ToString() + " has no current snapshot to point a ref at");
  return current->snapshot_id;
}

Result<LoadedTable> CreateRef(Catalog& catalog, const TableIdentifier& id, const std::string& name, RefType type,
                              std::optional<int64_t> snapshot_id, const RefRetention& retention) {
  if (name.empty()) return InvalidArgument("a " + std::string(KindName(type)) + " name is empty");
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  if (auto it = table.metadata.refs.find(name); it != table.metadata.refs.end())
    return AlreadyExists(std::string(KindName(it->second.type)) + " '" + name + "' already exists in " + id.ToString());
  if (type == RefType::kTag && (retention.min_snapshots_to_keep || retention.max_snapshot_age_ms))
    return InvalidArgument("tag '" + name + "' cannot have min-snapshots-to-keep or max-snapshot-age-ms");
  FLOE_ASSIGN_OR_RETURN(int64_t target, ResolveSnapshot(table.metadata, id, snapshot_id));
  SnapshotRef ref;
  ref.snapshot_id = target;
  ref.type = type;
  ref.min_snapshots_to_keep = retention.min_snapshots_to_keep;
  ref.max_snapshot_age_ms = retention.max_snapshot_age_ms;
  ref.max_ref_age_ms = retention.max_ref_age_ms;
  return CommitMetadataChange(catalog, id, SetRef(table.metadata, name, ref, "create " + std::string(KindName(type))));
}

// The ref `name` of `table`, which must exist and be of `type`.
Result<SnapshotRef> ExistingRef(const TableMetadata& table, const TableIdentifier& id, const std::string& name,
                                RefType type) {
  auto it = table.refs.find(name);
  if (it == table.refs.end()) return NotFound(std::string(KindName(type)) + " '" + name + "' does not exist in " + id.ToString());
  if (it->second.type != type)
    return InvalidArgument("'" + name + "' is a " + KindName(it->second.type) + ", not a " + KindName(type));
  return it->second;
}

Result<LoadedTable> ReplaceRef(Catalog& catalog, const TableIdentifier& id, const std::string& name, RefType type,
                               int64_t snapshot_id, const std::optional<RefRetention>& retention) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(SnapshotRef existing, ExistingRef(table.metadata, id, name, type));
  FLOE_ASSIGN_OR_RETURN(int64_t target, ResolveSnapshot(table.metadata, id, snapshot_id));
  SnapshotRef ref = existing;
  ref.snapshot_id = target;
  if (retention) {
    if (type == RefType::kTag && (retention->min_snapshots_to_keep || retention->max_snapshot_age_ms))
      return InvalidArgument("tag '" + name + "' cannot have min-snapshots-to-keep or max-snapshot-age-ms");
    ref.min_snapshots_to_keep = retention->min_snapshots_to_keep;
    ref.max_snapshot_age_ms = retention->max_snapshot_age_ms;
    ref.max_ref_age_ms = retention->max_ref_age_ms;
  }
  return CommitMetadataChange(catalog, id, SetRef(table.metadata, name, ref, "replace " + std::string(KindName(type))));
}

Result<LoadedTable> DropRef(Catalog& catalog, const TableIdentifier& id, const std::string& name, RefType type) {
  if (type == RefType::kBranch && name == kMainBranch) return InvalidArgument("Cannot remove the main branch");
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(SnapshotRef existing, ExistingRef(table.metadata, id, name, type));
  MetadataChange change;
  change.what = "drop " + std::string(KindName(type));
  change.requirements.push_back(AssertTableUuid{table.metadata.table_uuid});
  change.requirements.push_back(AssertRefSnapshotId{name, existing.snapshot_id});
  change.updates.push_back(RemoveSnapshotRef{name});
  return CommitMetadataChange(catalog, id, change);
}

// Moves an existing branch to `target`.
Result<LoadedTable> MoveBranch(Catalog& catalog, const LoadedTable& table, const std::string& branch, int64_t target,
                               const std::string& what) {
  SnapshotRef ref;
  if (auto it = table.metadata.refs.find(branch); it != table.metadata.refs.end()) ref = it->second;
  ref.snapshot_id = target;
  ref.type = RefType::kBranch;
  return CommitMetadataChange(catalog, table.id, SetRef(table.metadata, branch, ref, what));
}

bool IsAncestor(const TableMetadata& table, int64_t head, int64_t candidate) {
  for (const Snapshot* s : table.Ancestry(head))
    if (s->snapshot_id == candidate) return true;
  return false;
}

Result<const Snapshot*> BranchHead(const LoadedTable& table, const std::string& branch) {
  auto it = table.metadata.refs.find(branch);
  if (it == table.metadata.refs.end())
    return NotFound("table " + table.id.ToString() + " has no branch '" + branch + "'");
  if (it->second.type != RefType::kBranch) return InvalidArgument("'" + branch + "' is a tag, not a branch");
  return table.metadata.SnapshotById(it->second.snapshot_id);
}

}  // namespace

Result<LoadedTable> CreateBranch(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                 std::optional<int64_t> snapshot_id, const RefRetention& retention) {
  return CreateRef(catalog, id, name, RefType::kBranch, snapshot_id, retention);
}

Result<LoadedTable> ReplaceBranch(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                                  int64_t snapshot_id, const std::optional<RefRetention>& retention) {
  return ReplaceRef(catalog, id, name, RefType::kBranch, snapshot_id, retention);
}

Result<LoadedTable> DropBranch(Catalog& catalog, const TableIdentifier& id, const std::string& name) {
  return DropRef(catalog, id, name, RefType::kBranch);
}

Result<LoadedTable> CreateTag(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                              std::optional<int64_t> snapshot_id, std::optional<int64_t> max_ref_age_ms) {
  RefRetention retention;
  retention.max_ref_age_ms = max_ref_age_ms;
  return CreateRef(catalog, id, name, RefType::kTag, snapshot_id, retention);
}

Result<LoadedTable> ReplaceTag(Catalog& catalog, const TableIdentifier& id, const std::string& name,
                               int64_t snapshot_id, std::optional<int64_t> max_ref_age_ms) {
  std::optional<RefRetention> retention;
  if (max_ref_age_ms) retention = RefRetention{std::nullopt, std::nullopt, max_ref_age_ms};
  return ReplaceRef(catalog, id, name, RefType::kTag, snapshot_id, retention);
}

Result<LoadedTable> DropTag(Catalog& catalog, const TableIdentifier& id, const std::string& name) {
  return DropRef(catalog, id, name, RefType::kTag);
}

Result<LoadedTable> RollbackTo(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id,
                               const std::string& branch) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(table, branch));
  if (!table.metadata.SnapshotById(snapshot_id))
    return NotFound("table " + id.ToString() + " has no snapshot " + Str(snapshot_id));
  if (!head || !IsAncestor(table.metadata, head->snapshot_id, snapshot_id))
    return InvalidArgument("Cannot roll back " + branch + " to snapshot " + Str(snapshot_id) +
                           ": it is not an ancestor of the branch's head (use set-current-snapshot instead)");
  return MoveBranch(catalog, table, branch, snapshot_id, "rollback");
}

Result<LoadedTable> RollbackToTime(Catalog& catalog, const TableIdentifier& id, int64_t timestamp_ms,
                                   const std::string& branch) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(table, branch));
  if (head)
    for (const Snapshot* s : table.metadata.Ancestry(head->snapshot_id))
      if (s->timestamp_ms <= timestamp_ms) return MoveBranch(catalog, table, branch, s->snapshot_id, "rollback");
  return NotFound("Cannot roll back " + branch + " of " + id.ToString() + " to " + Str(timestamp_ms) +
                  " ms: no ancestor of its head was committed at or before that time");
}

Result<LoadedTable> SetCurrentSnapshot(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  if (!table.metadata.SnapshotById(snapshot_id))
    return NotFound("table " + id.ToString() + " has no snapshot " + Str(snapshot_id));
  return MoveBranch(catalog, table, kMainBranch, snapshot_id, "set current snapshot");
}

Result<LoadedTable> FastForward(Catalog& catalog, const TableIdentifier& id, const std::string& branch,
                                const std::string& to) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  auto from_it = table.metadata.refs.find(branch);
  if (from_it == table.metadata.refs.end() && branch != kMainBranch)
    return NotFound("table " + id.ToString() + " has no branch '" + branch + "'");
  if (from_it != table.metadata.refs.end() && from_it->second.type != RefType::kBranch)
    return InvalidArgument("'" + branch + "' is a tag; only branches move");
  auto to_it = table.metadata.refs.find(to);
  if (to_it == table.metadata.refs.end()) return NotFound("table " + id.ToString() + " has no branch or tag '" + to + "'");
  int64_t target = to_it->second.snapshot_id;
  if (from_it != table.metadata.refs.end()) {
    int64_t head = from_it->second.snapshot_id;
    if (head == target) return table;
    if (!IsAncestor(table.metadata, target, head))
      return InvalidArgument("Cannot fast-forward " + branch + " to " + to + ": " + branch + "'s head " + Str(head) +
                             " is not an ancestor of " + to + "'s head " + Str(target));
  }
  return MoveBranch(catalog, table, branch, target, "fast-forward");
}

Result<CommitReport> CherryPick(Catalog& catalog, const TableIdentifier& id, int64_t snapshot_id,
                                const CommitOptions& options) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, catalog.LoadTable(id));
  const TableMetadata& m = table.metadata;
  const Snapshot* source = m.SnapshotById(snapshot_id);
  if (!source) return NotFound("table " + id.ToString() + " has no snapshot " + Str(snapshot_id));
  const std::string op = source->operation();
  if (op != "append" && op != "overwrite")
    return InvalidArgument("Cannot cherry-pick snapshot " + Str(snapshot_id) + ": its operation is '" + op +
                           "' (only append and overwrite snapshots can be cherry-picked)");
  const Snapshot* head = m.SnapshotForRef(options.branch);
  if (head) {
    for (const Snapshot* s : m.Ancestry(head->snapshot_id)) {
      if (s->snapshot_id == snapshot_id)
        return InvalidArgument("Cannot cherry-pick snapshot " + Str(snapshot_id) + ": it is already an ancestor of " +
                               options.branch);
      auto picked = s->summary.find("source-snapshot-id");
      if (picked != s->summary.end() && picked->second == Str(snapshot_id))
        return InvalidArgument("Cannot cherry-pick snapshot " + Str(snapshot_id) + ": snapshot " + Str(s->snapshot_id) +
                               " of " + options.branch + " already applied it");
    }
  }

  // The files the source snapshot itself added and removed.
  FilesChange change;
  change.operation = op;
  FileIO& io = *catalog.io();
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(io, m, *source));
  for (const auto& manifest : manifests) {
    if (manifest.added_snapshot_id != snapshot_id) continue;
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestEntries(io, m, manifest));
    for (auto& e : entries) {
      if (e.snapshot_id != snapshot_id) continue;
      bool data = e.file.content == FileContent::kData;
      if (e.status == EntryStatus::kAdded) {
        (data ? change.added_data_files : change.added_delete_files).push_back(std::move(e.file));
      } else if (e.status == EntryStatus::kDeleted) {
        (data ? change.removed_data_files : change.removed_delete_files).push_back(std::move(e.file));
      }
    }
  }
  if (head) change.starting_snapshot_id = head->snapshot_id;
  CommitOptions commit = options;
  commit.summary["source-snapshot-id"] = Str(snapshot_id);
  FilesOperation operation(std::move(change));
  return CommitOperation(catalog, id, operation, commit);
}

}  // namespace floe
