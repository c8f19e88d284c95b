#include "commit/files_operation.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "table_files/manifest_io.h"
#include "meta/table_properties.h"
#include "commit/file_filter.h"

namespace floe {
namespace {

constexpr int kPositionDeleteFilePathFieldId = 2147483546;

std::string JoinPaths(const std::vector<std::string>& paths, size_t limit = 10) {
  std::string out = "[";
  for (size_t i = 0; i < paths.size() && i < limit; ++i) out += (i ? ", " : "") + paths[i];
  if (paths.size() > limit) out += ", ... (" + std::to_string(paths.size()) + " files)";
  return out + "]";
}

bool IsDataManifest(const ManifestFile& m) { return m.content == ManifestContent::kData; }

// Could a manifest hold a file with this partition tuple? Uses the manifest's partition
// summaries; anything it cannot decide counts as "could".
bool ManifestMayHold(const ManifestFile& m, const TableMetadata& table, const DataFile& file) {
  if (m.partition_spec_id != file.spec_id) return false;
  if (m.partitions.size() != file.partition.size()) return true;
  const PartitionSpec* spec = table.SpecById(file.spec_id);
  if (!spec) return true;
  auto type = spec->PartitionType(table.CurrentSchema());
  if (!type) return true;
  for (size_t i = 0; i < file.partition.size(); ++i) {
    const Literal& v = file.partition[i];
    const PartitionFieldSummary& s = m.partitions[i];
    if (v.is_null()) {
      if (!s.contains_null) return false;
      continue;
    }
    if (!s.lower_bound || !s.upper_bound) {
      if (!s.lower_bound && !s.upper_bound && !s.contains_nan.value_or(true)) return false;  // only nulls
      continue;
    }
    auto lower = Literal::FromBinary((*type)->fields()[i].type, *s.lower_bound);
    auto upper = Literal::FromBinary((*type)->fields()[i].type, *s.upper_bound);
    if (!lower || !upper) continue;
    auto vv = v.CastTo((*type)->fields()[i].type);
    if (!vv) continue;
    if (Literal::Compare(*vv, *lower) < 0 || Literal::Compare(*vv, *upper) > 0) return false;
  }
  return true;
}

bool SamePartition(const DataFile& a, const DataFile& b) {
  if (a.spec_id != b.spec_id || a.partition.size() != b.partition.size()) return false;
  for (size_t i = 0; i < a.partition.size(); ++i)
    if (!(a.partition[i] == b.partition[i])) return false;
  return true;
}

// Could a delete file (added later) apply to this data file?
bool DeleteMayApply(const TableMetadata& table, const DataFile& del, const DataFile& data) {
  const PartitionSpec* spec = table.SpecById(del.spec_id);
  // Only equality deletes of an unpartitioned spec are global (as in scan/delete_index.h).
  bool global = del.content == FileContent::kEqualityDeletes && spec && spec->is_unpartitioned();
  if (!global && !SamePartition(del, data)) return false;
  if (del.content == FileContent::kPositionDeletes) {
    if (del.referenced_data_file) return *del.referenced_data_file == data.file_path;
    auto lo = del.lower_bounds.find(kPositionDeleteFilePathFieldId);
    auto hi = del.upper_bounds.find(kPositionDeleteFilePathFieldId);
    if (lo != del.lower_bounds.end() && hi != del.upper_bounds.end()) {
      // Bounds on file_path may be truncated prefixes: compare only the prefix length.
      std::string_view path = data.file_path;
      if (path.substr(0, lo->second.size()) < lo->second) return false;
      if (path.substr(0, hi->second.size()) > hi->second) return false;
    }
  }
  return true;
}

ManifestEntry Existing(const ManifestEntry& e) {
  ManifestEntry out = e;
  out.status = EntryStatus::kExisting;
  return out;
}

}  // namespace

Result<std::vector<const Snapshot*>> SnapshotsSince(const TableMetadata& table, const Snapshot* head,
                                                    std::optional<int64_t> from) {
  std::vector<const Snapshot*> out;
  if (!head) {
    if (from) return ValidationFailed("Cannot validate: starting snapshot " + std::to_string(*from) +
                                      " is no longer in the branch (it was rolled back or removed)");
    return out;
  }
  for (const Snapshot* s : table.Ancestry(head->snapshot_id)) {
    if (from && s->snapshot_id == *from) {
      std::reverse(out.begin(), out.end());
      return out;
    }
    out.push_back(s);
  }
  if (!from) {
    std::reverse(out.begin(), out.end());
    return out;
  }
  return ValidationFailed("Cannot determine history between starting snapshot " + std::to_string(*from) +
                          " and the current head " + std::to_string(head->snapshot_id) +
                          ": the starting snapshot is not an ancestor (rolled back or expired)");
}

Result<std::vector<ManifestFile>> FilesOperation::WriteNewManifests(const OperationContext& ctx,
                                                                    const TableMetadata& table,
                                                                    std::optional<int64_t> snapshot_id,
                                                                    std::vector<std::string>* written) {
  std::vector<ManifestFile> out;
  auto write_group = [&](const std::vector<DataFile>& files, ManifestContent content) -> Status {
    std::map<int, std::vector<ManifestEntry>> by_spec;
    for (const auto& f : files) {
      ManifestEntry e;
      e.status = EntryStatus::kAdded;
      e.snapshot_id = snapshot_id;  // null for v2: inherited from the manifest list
      e.file = f;
      by_spec[f.spec_id].push_back(std::move(e));
    }
    for (auto& [spec_id, entries] : by_spec) {
      FLOE_ASSIGN_OR_RETURN(std::string path, ctx.NewMetadataFilePath(table, "-m0.avro"));
      // Listed as written before the write ends: whoever cleans up waits for it first.
      written->push_back(path);
      FLOE_ASSIGN_OR_RETURN(ManifestFile m, WriteManifestFile(*ctx.io, table, spec_id, content, entries, path,
                                                               ctx.background_writes));
      out.push_back(std::move(m));
    }
    return Ok();
  };
  FLOE_RETURN_IF_ERROR(write_group(change_.added_data_files, ManifestContent::kData));
  FLOE_RETURN_IF_ERROR(write_group(change_.added_delete_files, ManifestContent::kDeletes));
  return out;
}

Status FilesOperation::Prepare(const OperationContext& ctx, const TableMetadata& base) {
  if (prepared_) return Ok();
  prepared_ = true;
  for (const auto& f : change_.added_data_files)
    if (f.content != FileContent::kData) return InvalidArgument("a delete file was given as a data file: " + f.file_path);
  for (const auto& f : change_.added_delete_files)
    if (f.content == FileContent::kData) return InvalidArgument("a data file was given as a delete file: " + f.file_path);
  if (!change_.added_delete_files.empty() && base.format_version < 2)
    return InvalidArgument("delete files need format version 2; table is v" + std::to_string(base.format_version));
  // The spec forbids new position delete files in v3: rows are deleted by position only
  // through deletion vectors there (and vectors only there).
  for (const auto& f : change_.added_delete_files) {
    if (f.content != FileContent::kPositionDeletes) continue;
    if (base.format_version >= 3 && !IsDeletionVector(f))
      return InvalidArgument("a v" + std::to_string(base.format_version) +
                             " table takes position deletes only as deletion vectors, not the position delete file " +
                             f.file_path);
    if (base.format_version < 3 && IsDeletionVector(f))
      return InvalidArgument("deletion vectors need format version 3; table is v" +
                             std::to_string(base.format_version) + " (" + f.file_path + ")");
  }
  // v1 entries must carry their snapshot id, so v1 manifests are written per attempt instead.
  if (base.format_version < 2) return Ok();
  FLOE_ASSIGN_OR_RETURN(prepared_manifests_, WriteNewManifests(ctx, base, std::nullopt, &prepared_paths_));
  return Ok();
}

std::vector<std::string> FilesOperation::prepared_files() const { return prepared_paths_; }

Result<const SnapshotChanges*> FilesOperation::ChangesOf(const OperationContext& ctx, const TableMetadata& table,
                                                         const Snapshot& snapshot) {
  auto cached = changes_cache_.find(snapshot.snapshot_id);
  if (cached != changes_cache_.end()) return &cached->second;
  SnapshotChanges changes;
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ReadManifestList(*ctx.io, table, snapshot));
  for (const auto& m : manifests) {
    if (m.added_snapshot_id != snapshot.snapshot_id) continue;  // carried over from an ancestor
    if (!m.has_added_files() && !m.has_deleted_files() && m.added_files_count + m.deleted_files_count == 0 &&
        m.existing_files_count > 0)
      continue;
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestEntries(*ctx.io, table, m));
    for (auto& e : entries) {
      if (e.snapshot_id != snapshot.snapshot_id) continue;
      bool data = e.file.content == FileContent::kData;
      if (e.status == EntryStatus::kAdded) {
        (data ? changes.added_data : changes.added_deletes).push_back(std::move(e));
      } else if (e.status == EntryStatus::kDeleted) {
        (data ? changes.removed_data : changes.removed_deletes).push_back(std::move(e));
      }
    }
  }
  auto [it, _] = changes_cache_.emplace(snapshot.snapshot_id, std::move(changes));
  return &it->second;
}

Status FilesOperation::Validate(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head) {
  // Replace partitions judges conflicts by partition, not by a row filter.
  auto in_replaced_partition = [&](const DataFile& f) {
    for (const auto& added : change_.added_data_files)
      if (SamePartition(f, added)) return true;
    return false;
  };
  const bool any_check = change_.fail_on_new_matching_data || change_.fail_on_new_matching_deletes ||
                         change_.fail_on_new_deletes_for_removed || !change_.removed_data_files.empty() ||
                         !change_.removed_delete_files.empty() || !change_.referenced_data_files.empty() ||
                         !change_.deletion_vector_targets.empty();
  // Appends never conflict. An operation that read an empty table (no starting snapshot)
  // validates against everything on the branch.
  if (!any_check) return Ok();
  FLOE_ASSIGN_OR_RETURN(std::vector<const Snapshot*> since, SnapshotsSince(current, head, change_.starting_snapshot_id));
  if (since.empty()) return Ok();
  FLOE_ASSIGN_OR_RETURN(FileFilter filter, FileFilter::Make(change_.conflict_filter, current));

  std::unordered_set<std::string> our_removed;
  for (const auto& f : change_.removed_data_files) our_removed.insert(ContentFileKey(f));
  for (const auto& f : change_.removed_delete_files) our_removed.insert(ContentFileKey(f));
  std::unordered_set<std::string> referenced(change_.referenced_data_files.begin(), change_.referenced_data_files.end());

  // Key-aware: the rows themselves decide (row_conflicts.h). Copy-on-write also needs its
  // inputs free of deletes added meanwhile, or its rewrite would bring deleted rows back.
  rebase_possible_ = false;
  vectors_to_merge_.clear();
  gone_delete_files_.clear();
  const RowConflictJudge* rows = change_.row_scope.get();
  RowTouch touch;
  const bool deletes_for_removed =
      change_.fail_on_new_deletes_for_removed || (rows && !change_.removed_data_files.empty());

  std::vector<std::string> conflicting_data, conflicting_deletes, missing, missing_referenced, new_deletes_for_removed,
      concurrent_vectors;
  // Position deletes added meanwhile for our vector targets, and delete files removed meanwhile
  // (by ContentFileKey): only those still live need merging.
  std::map<std::string, DataFile> added_for_targets;
  std::unordered_set<std::string> removed_deletes_since;
  std::set<std::string> missing_deletes;
  for (const Snapshot* s : since) {
    FLOE_ASSIGN_OR_RETURN(const SnapshotChanges* changes, ChangesOf(ctx, current, *s));
    const std::string op = s->operation();
    if (rows) {
      const bool added = change_.fail_on_new_matching_data && (op == "append" || op == "overwrite");
      FLOE_RETURN_IF_ERROR(
          rows->Inspect(*ctx.io, current, filter, *changes, added, change_.fail_on_new_matching_deletes, &touch));
    }
    if (!rows && change_.fail_on_new_matching_data && (op == "append" || op == "overwrite")) {
      for (const auto& e : changes->added_data) {
        if (change_.replace_added_partitions) {
          if (in_replaced_partition(e.file)) conflicting_data.push_back(e.file.file_path);
          continue;
        }
        FLOE_ASSIGN_OR_RETURN(bool may, filter.MayMatch(e.file));
        if (may) conflicting_data.push_back(e.file.file_path);
      }
    }
    if (!rows && change_.fail_on_new_matching_deletes) {
      for (const auto& e : changes->added_deletes) {
        if (change_.replace_added_partitions) {
          if (in_replaced_partition(e.file)) conflicting_deletes.push_back(e.file.file_path);
          continue;
        }
        FLOE_ASSIGN_OR_RETURN(bool may, filter.MayMatch(e.file));
        if (may) conflicting_deletes.push_back(e.file.file_path);
      }
    }
    for (const auto& e : changes->removed_data) {
      if (our_removed.count(ContentFileKey(e.file))) missing.push_back(e.file.file_path);
      if (referenced.count(e.file.file_path)) missing_referenced.push_back(e.file.file_path);
    }
    for (const auto& e : changes->removed_deletes) {
      removed_deletes_since.insert(ContentFileKey(e.file));
      if (!our_removed.count(ContentFileKey(e.file))) continue;
      missing.push_back(e.file.file_path);
      missing_deletes.insert(ContentFileKey(e.file));
    }
    for (const auto& del : changes->added_deletes) {
      if (del.file.content != FileContent::kPositionDeletes) continue;
      for (const auto& target : change_.deletion_vector_targets)
        if (DeleteMayApply(current, del.file, target)) added_for_targets.emplace(ContentFileKey(del.file), del.file);
    }
    if (deletes_for_removed) {
      for (const auto& del : changes->added_deletes) {
        for (const auto& ours : change_.removed_data_files) {
          if (DeleteMayApply(current, del.file, ours)) {
            new_deletes_for_removed.push_back(ours.file_path);
            break;
          }
        }
      }
    }
  }
  // A vector added and then replaced meanwhile is carried by its replacement; one we merged
  // already is removed by this change.
  std::vector<DataFile> live_vectors;
  for (const auto& [key, del] : added_for_targets) {
    if (removed_deletes_since.count(key) || change_.merged_vectors.count(key)) continue;
    live_vectors.push_back(del);
    for (const auto& target : change_.deletion_vector_targets)
      if (DeleteMayApply(current, del, target)) concurrent_vectors.push_back(target.file_path);
  }
  if (rows) {
    if (touch.deleted() || touch.added()) rebase_possible_ = change_.rebase_when_rows_touched && touch.gave_up.empty();
    if (touch.deleted())
      return ValidationFailed("Found concurrent deletes of rows this write changes: " +
                              touch.Describe(touch.deleted_by) + " (matching " + filter.ToString() + ")");
    if (touch.added()) {
      return ValidationFailed("Found conflicting files that can contain records matching " + filter.ToString() +
                              ", and do: " + touch.Describe(touch.added_in));
    }
    // What is left only says that commits which did not touch our rows replaced or added
    // deletes to our inputs: the write may be redone on the new state.
    rebase_possible_ = !missing.empty() || !missing_referenced.empty() || !new_deletes_for_removed.empty() ||
                       !concurrent_vectors.empty();
  }
  // Only vectors (and the delete files they replaced) stand in the way: a merge, not a redo.
  const bool only_vectors = missing.size() == missing_deletes.size() && missing_referenced.empty() &&
                            new_deletes_for_removed.empty() && conflicting_data.empty() &&
                            conflicting_deletes.empty() && (!live_vectors.empty() || !missing_deletes.empty()) &&
                            std::all_of(live_vectors.begin(), live_vectors.end(),
                                        [](const DataFile& f) { return IsDeletionVector(f); });
  if (only_vectors && !change_.deletion_vector_targets.empty()) {
    vectors_to_merge_ = live_vectors;
    gone_delete_files_ = missing_deletes;
  }
  if (!missing.empty())
    return ValidationFailed("Missing required files to delete: " + JoinPaths(missing) +
                            " (another commit removed or rewrote them)");
  if (!missing_referenced.empty())
    return ValidationFailed("Cannot commit, missing data files: " + JoinPaths(missing_referenced) +
                            " (position deletes point at data files another commit removed)");
  if (!new_deletes_for_removed.empty())
    return ValidationFailed("Cannot commit, found new delete for replaced data file: " +
                            JoinPaths(new_deletes_for_removed));
  if (!concurrent_vectors.empty())
    return ValidationFailed("Found concurrently added deletes for data files this commit writes a deletion vector "
                            "for: " + JoinPaths(concurrent_vectors) +
                            " (their positions are not in this commit's vectors; the delete must be redone on the "
                            "new state to merge them)");
  if (!conflicting_data.empty() && change_.replace_added_partitions)
    return ValidationFailed("Found conflicting files that can contain records in the replaced partitions: " +
                            JoinPaths(conflicting_data));
  if (!conflicting_deletes.empty() && change_.replace_added_partitions)
    return ValidationFailed("Found new conflicting delete files in the replaced partitions: " +
                            JoinPaths(conflicting_deletes));
  if (!conflicting_data.empty())
    return ValidationFailed("Found conflicting files that can contain records matching " + filter.ToString() + ": " +
                            JoinPaths(conflicting_data));
  if (!conflicting_deletes.empty())
    return ValidationFailed("Found new conflicting delete files that can apply to records matching " +
                            filter.ToString() + ": " + JoinPaths(conflicting_deletes));
  return Ok();
}

Result<AttemptOutput> FilesOperation::Apply(const OperationContext& ctx, const TableMetadata& current,
                                            const Snapshot* head, int64_t snapshot_id, int64_t sequence_number) {
  AttemptOutput out;
  for (const auto& f : change_.added_data_files) out.summary.AddedFile(f);
  for (const auto& f : change_.added_delete_files) out.summary.AddedFile(f);

  // 1. The new files' manifests: prepared once (v2), or written now (v1).
  std::vector<ManifestFile> added = prepared_manifests_;
  if (current.format_version < 2) {
    FLOE_ASSIGN_OR_RETURN(added, WriteNewManifests(ctx, current, snapshot_id, &out.attempt_files));
  }
  for (auto& m : added) {
    m.added_snapshot_id = snapshot_id;
    m.sequence_number = sequence_number;
    m.min_sequence_number = sequence_number;
  }

  // 2. The base's manifests, rewritten where they hold files this operation removes.
  std::vector<ManifestFile> base;
  if (head) {
    FLOE_ASSIGN_OR_RETURN(base, ReadManifestList(*ctx.io, current, *head));
  }
  std::unordered_map<std::string, const DataFile*> to_remove;
  for (const auto& f : change_.removed_data_files) to_remove[ContentFileKey(f)] = &f;
  for (const auto& f : change_.removed_delete_files) to_remove[ContentFileKey(f)] = &f;
  std::unordered_set<std::string> found;
  // v3: a deletion vector goes with its data file (it applies to no other), so removing the
  // data file removes its vector in the same commit instead of leaving it dangling.
  std::unordered_set<std::string> removed_data_paths;
  if (current.format_version >= 3)
    for (const auto& f : change_.removed_data_files) removed_data_paths.insert(f.file_path);
  auto dangling_vector = [&](const DataFile& f) {
    return IsDeletionVector(f) && f.referenced_data_file && removed_data_paths.count(*f.referenced_data_file) > 0;
  };
  std::optional<FileFilter> delete_filter;
  if (change_.delete_filter) {
    FLOE_ASSIGN_OR_RETURN(FileFilter f, FileFilter::Make(change_.delete_filter, current));
    delete_filter = std::move(f);
  }

  std::vector<ManifestFile> kept;
  for (const ManifestFile& m : base) {
    bool search = false;
    for (const auto& [path, file] : to_remove) {
      bool same_content = (file->content == FileContent::kData) == IsDataManifest(m);
      if (same_content && ManifestMayHold(m, current, *file)) {
        search = true;
        break;
      }
    }
    if (delete_filter && IsDataManifest(m) && (m.added_files_count + m.existing_files_count > 0)) search = true;
    if (!IsDataManifest(m) && !removed_data_paths.empty())
      for (const auto& f : change_.removed_data_files)
        if (ManifestMayHold(m, current, f)) search = true;
    if (change_.replace_added_partitions)
      for (const auto& added : change_.added_data_files)
        if (ManifestMayHold(m, current, added)) search = true;
    if (!search) {
      kept.push_back(m);
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestEntries(*ctx.io, current, m));
    std::vector<ManifestEntry> rewritten;
    for (const auto& e : entries) {
      // Old tombstones are dropped when the manifest is rewritten anyway; they alone do not
      // make it rewritten (it is kept byte for byte below unless this commit removes a file).
      if (e.status == EntryStatus::kDeleted) continue;
      bool remove = to_remove.count(ContentFileKey(e.file)) > 0 || dangling_vector(e.file);
      if (!remove && change_.replace_added_partitions)
        for (const auto& added : change_.added_data_files)
          if (SamePartition(e.file, added)) remove = true;
      if (!remove && delete_filter && e.file.content == FileContent::kData) {
        FLOE_ASSIGN_OR_RETURN(bool all, delete_filter->AllMatch(e.file));
        if (all) {
          remove = true;
        } else {
          FLOE_ASSIGN_OR_RETURN(bool some, delete_filter->MayMatch(e.file));
          if (some)
            return ValidationFailed("Cannot delete file where some, but not all, rows match filter " +
                                    delete_filter->ToString() + ": " + e.file.file_path);
        }
      }
      if (remove) {
        found.insert(ContentFileKey(e.file));
        ManifestEntry gone = e;
        gone.status = EntryStatus::kDeleted;
        gone.snapshot_id = snapshot_id;
        out.summary.RemovedFile(e.file);
        rewritten.push_back(std::move(gone));
        continue;
      }
      rewritten.push_back(Existing(e));
    }
    bool removed_any = std::any_of(rewritten.begin(), rewritten.end(),
                                   [](const ManifestEntry& e) { return e.status == EntryStatus::kDeleted; });
    if (!removed_any) {
      kept.push_back(m);  // nothing of ours here; keep it byte for byte
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(std::string path, ctx.NewMetadataFilePath(current, "-m1.avro"));
    FLOE_ASSIGN_OR_RETURN(ManifestFile rewritten_manifest,
                          WriteManifestFile(*ctx.io, current, m.partition_spec_id, m.content, rewritten, path));
    out.attempt_files.push_back(path);
    rewritten_manifest.added_snapshot_id = snapshot_id;
    rewritten_manifest.sequence_number = sequence_number;
    int64_t min_seq = sequence_number;
    for (const auto& e : rewritten)
      if (e.status != EntryStatus::kDeleted && e.sequence_number) min_seq = std::min(min_seq, *e.sequence_number);
    rewritten_manifest.min_sequence_number = min_seq;
    kept.push_back(std::move(rewritten_manifest));
  }

  std::vector<std::string> missing;
  for (const auto& [path, file] : to_remove)
    if (!found.count(path)) missing.push_back(path);
  if (!missing.empty()) {
    std::sort(missing.begin(), missing.end());
    return ValidationFailed("Missing required files to delete: " + JoinPaths(missing) +
                            " (they are not live in the current snapshot)");
  }

  // 3. Merge append: fold the new data manifest with small base manifests of the same spec.
  bool merge = change_.merge_manifests;
  if (merge) {
    FLOE_ASSIGN_OR_RETURN(merge,
                          current.BooleanProperty(props::kManifestMergeEnabled, props::kManifestMergeEnabledDefault));
  }
  if (merge) {
    FLOE_ASSIGN_OR_RETURN(const int64_t min_count,
                          current.CountProperty(props::kManifestMinMergeCount, props::kManifestMinMergeCountDefault));
    FLOE_ASSIGN_OR_RETURN(const int64_t target, current.CountProperty(props::kManifestTargetSizeBytes,
                                                                      props::kManifestTargetSizeBytesDefault));
    std::vector<ManifestFile> merged_added;
    for (auto& m : added) {
      if (!IsDataManifest(m)) {
        merged_added.push_back(m);
        continue;
      }
      int64_t same_spec = 1;
      for (const auto& b : kept)
        if (IsDataManifest(b) && b.partition_spec_id == m.partition_spec_id) ++same_spec;
      if (same_spec < min_count) {
        merged_added.push_back(m);
        continue;
      }
      // Fold base manifests (newest first) while the merged manifest stays under the target size.
      // This operation's own entries come from memory: its manifest of them may still be being
      // written on another thread (OperationContext::background_writes), and is not read back.
      // They stay ADDED by this snapshot, inheriting its id and sequence numbers.
      std::vector<ManifestEntry> entries;
      for (const auto& f : change_.added_data_files) {
        if (f.spec_id != m.partition_spec_id) continue;
        ManifestEntry e;
        e.status = EntryStatus::kAdded;
        e.file = f;
        entries.push_back(std::move(e));
      }
      int64_t size = m.manifest_length;
      int64_t min_seq = sequence_number;
      std::vector<ManifestFile> rest;
      for (auto& b : kept) {
        if (IsDataManifest(b) && b.partition_spec_id == m.partition_spec_id && size + b.manifest_length <= target) {
          FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> old, ReadManifestEntries(*ctx.io, current, b));
          for (auto& e : old) {
            if (e.status == EntryStatus::kDeleted) continue;
            if (e.sequence_number) min_seq = std::min(min_seq, *e.sequence_number);
            entries.push_back(Existing(e));
          }
          size += b.manifest_length;
        } else {
          rest.push_back(std::move(b));
        }
      }
      out.unlisted_files.push_back(m.manifest_path);  // merged away
      FLOE_ASSIGN_OR_RETURN(std::string path, ctx.NewMetadataFilePath(current, "-m2.avro"));
      FLOE_ASSIGN_OR_RETURN(ManifestFile merged,
                            WriteManifestFile(*ctx.io, current, m.partition_spec_id, m.content, entries, path));
      out.attempt_files.push_back(path);
      merged.added_snapshot_id = snapshot_id;
      merged.sequence_number = sequence_number;
      merged.min_sequence_number = min_seq;
      merged_added.push_back(std::move(merged));
      kept = std::move(rest);
    }
    added = std::move(merged_added);
  }

  out.manifests = std::move(added);
  out.manifests.insert(out.manifests.end(), kept.begin(), kept.end());
  return out;
}

}  // namespace floe
