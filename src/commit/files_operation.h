// FilesOperation: every snapshot that adds and removes whole files, with the validations of
// DESIGN.md's conflict table. Append, overwrite, delete, rewrite and row delta are
// configurations of it (see operations.h), so each rule lives in one place.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "expr/expression.h"
#include "meta/data_file.h"
#include "commit/row_conflicts.h"
#include "commit/snapshot_operation.h"

namespace floe {

struct FilesChange {
  std::string operation = "append";  // append, overwrite, delete, replace
  std::vector<DataFile> added_data_files;
  std::vector<DataFile> added_delete_files;
  // Removed by path; their partition and spec prune the manifests searched.
  std::vector<DataFile> removed_data_files;
  std::vector<DataFile> removed_delete_files;
  // Overwrite by filter: removes every live data file whose rows all match; a file where only
  // some rows match is refused (it would need rewriting).
  Expr delete_filter;
  // Replace partitions (dynamic overwrite): also removes every live data and delete file in
  // the partitions (spec id and tuple) that the added data files fall in.
  bool replace_added_partitions = false;
  // Merge append: fold small manifests together (commit.manifest.* properties).
  bool merge_manifests = false;

  // ---- validation against what landed since the starting snapshot ----
  std::optional<int64_t> starting_snapshot_id;  // the snapshot the operation read
  Expr conflict_filter;                         // the rows it read; null = the whole table
  bool fail_on_new_matching_data = false;       // serializable delete / update / merge
  bool fail_on_new_matching_deletes = false;    // delete files added that match the filter
  bool fail_on_new_deletes_for_removed = false; // rewrite: deletes added against our inputs
  // Row delta: data files our position deletes point at must still be live.
  std::vector<std::string> referenced_data_files;
  // Row delta on a v3 table: the data files this commit writes a deletion vector for. A table
  // holds at most one vector per data file, and each new one carries every earlier delete of
  // its file; a position delete (vector or file) that another commit added meanwhile for one of
  // them is not in ours, so the commit is refused, naming vectors_to_merge: the writer merges
  // their positions into new vectors and commits again (rows/row_delta_commit.h), or, when other
  // refusals stand beside them, is redone on the new state (rebase_possible) or refused
  // (DESIGN.md, What conflicts: delete (v3)).
  std::vector<DataFile> deletion_vector_targets;
  // Position deletes added meanwhile for those targets whose positions this change's vectors
  // already hold (by ContentFileKey): merged on a retry (FilesOperation::vectors_to_merge), and
  // removed by this change, so no longer a conflict.
  std::set<std::string> merged_vectors;
  // Key-aware validation (row_conflicts.h; the rows room's RowScope judges): files added
  // meanwhile that the filter MAY match are read, and only real rows of ours (by key, or by
  // the filter) refuse the commit. A
  // commit refused only because its input files were replaced or got deletes, by commits
  // that did not touch its rows, may be redone on the new state (FilesOperation::rebase_possible).
  std::shared_ptr<const RowConflictJudge> row_scope;
  // With row_scope, for a write whose new rows do not depend on the rows it read (an upsert at
  // snapshot isolation): a concurrent commit that added or deleted rows of ours is no final
  // refusal either; the write is redone on the new state and replaces them (the later wins).
  bool rebase_when_rows_touched = false;
};

class FilesOperation : public SnapshotOperation {
 public:
  explicit FilesOperation(FilesChange change) : change_(std::move(change)) {}

  std::string operation() const override { return change_.operation; }
  Status Prepare(const OperationContext& ctx, const TableMetadata& base) override;
  Status Validate(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head) override;
  Result<AttemptOutput> Apply(const OperationContext& ctx, const TableMetadata& current, const Snapshot* head,
                              int64_t snapshot_id, int64_t sequence_number) override;
  std::vector<std::string> prepared_files() const override;

  const FilesChange& change() const { return change_; }
  // After a ValidationFailed: the refusal was only that commits which did not touch this
  // write's rows replaced (or added deletes to) its input files; redoing the write on the new
  // state is correct.
  bool rebase_possible() const { return rebase_possible_; }
  // After a ValidationFailed: the refusal was only that other commits added deletion vectors
  // for data files this change writes vectors for (and removed the old delete files it
  // replaces). Merging those vectors' positions into this change's vectors, removing them
  // (and no longer removing the delete files gone meanwhile) makes the change correct on the
  // new state without re-reading any row. Empty otherwise.
  const std::vector<DataFile>& vectors_to_merge() const { return vectors_to_merge_; }
  // With vectors_to_merge: the delete files this change removes that are gone meanwhile (by
  // ContentFileKey).
  const std::set<std::string>& gone_delete_files() const { return gone_delete_files_; }

 private:
  Result<std::vector<ManifestFile>> WriteNewManifests(const OperationContext& ctx, const TableMetadata& table,
                                                      std::optional<int64_t> snapshot_id,
                                                      std::vector<std::string>* written);
  Result<const SnapshotChanges*> ChangesOf(const OperationContext& ctx, const TableMetadata& table,
                                           const Snapshot& snapshot);

  FilesChange change_;
  std::vector<ManifestFile> prepared_manifests_;
  std::vector<std::string> prepared_paths_;
  bool prepared_ = false;
  bool rebase_possible_ = false;
  std::vector<DataFile> vectors_to_merge_;
  std::set<std::string> gone_delete_files_;
  std::map<int64_t, SnapshotChanges> changes_cache_;  // history never changes: read each once
};

// The snapshots committed on top of `from` up to `head`, oldest first. ValidationFailed when
// `from` is not an ancestor of `head` (history was rewritten or expired).
Result<std::vector<const Snapshot*>> SnapshotsSince(const TableMetadata& table, const Snapshot* head,
                                                    std::optional<int64_t> from);

}  // namespace floe
