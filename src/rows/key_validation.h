// Key-aware validation: did a concurrent commit really touch the rows of this write?
//
// File-grain validation (file_filter.h) says a concurrent file MAY hold rows of a write when
// its partition and metrics do not rule them out. On a hot partition with interleaved keys
// nearly every file may. This check reads just those files, and only the columns that decide
// (the key columns, or the filter's columns), and answers for the rows themselves:
//
//   * a row of ours is one whose key tuple is among the write's keys (keyed writes: upsert,
//     delete or update by key), or that matches the write's filter (keyless writes);
//   * a snapshot ADDED a row of ours when its added data files hold one that the data files it
//     removed did not hold (rows a rewrite only carries over, byte for byte, are no change);
//   * it DELETED a row of ours when its removed data files held one its added files do not, or
//     when one of its delete files names one (an equality delete on our key, a position delete
//     pointing at a row of ours).
//
// Conservative where it cannot judge, and says why in the answer: a delete file whose
// equality columns are not the write's key columns, a file it cannot read as Parquet, or the
// read cap (RowScope::max_bytes_read / max_files_read) reached. Deletes that the concurrent
// commits added are not applied to the files they added (a key added and deleted meanwhile
// still counts as added).
//
// A commit that loses the swap validates again against everything since its snapshot, which
// grows by the winners' files with every lost round. Files never change, so what a file holds
// of a write's rows is judged once per write (RowScope::judged) and a retry reads only the
// files that landed since its last attempt; the cap bounds the files and bytes READ by one
// validation, not those it looked up.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "expr/expression.h"
#include "floe/file_io.h"
#include "meta/table_metadata.h"
#include "types/column_batch.h"
#include "commit/file_filter.h"
#include "commit/row_conflicts.h"

namespace floe {

// Encodings of key tuples (AppendValueKey of each key column, in key order).
using KeySet = std::unordered_set<std::string>;

// The encoding of row `row`'s values in `columns` (indexes into `batch`), in that order.
std::string KeyOfRow(const ColumnBatch& batch, const std::vector<int>& columns, size_t row);

// What files hold of one write's rows, by file path and the schema id they were read with
// (files are immutable: a verdict holds for the write's lifetime). Only verdicts from reading
// the file are kept, never a conservative answer. Shared by the attempts of one commit, which
// may validate on other threads than the first, hence the lock.
class JudgedFiles {
 public:
  struct Verdict {
    std::vector<std::string> rows;    // data file: full-row encodings of the rows of ours
    std::vector<std::string> labels;  // their key labels; for a delete file, the rows it deletes
    bool deletes_ours = false;        // delete file: it deletes a row of ours
  };
  std::optional<Verdict> Find(int schema_id, const std::string& path) const;
  void Keep(int schema_id, const std::string& path, Verdict verdict);
  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Verdict> verdicts_;
};

// The rows a row-level write reads and changes, as validation checks them.
struct RowScope : RowConflictJudge {
  // Bound to the table's current schema; prunes files by partition and metrics and, for a
  // keyless write, decides which rows are ours.
  Expr filter;
  // A keyed write: a row is ours exactly when its values in these columns (field ids) encode
  // to one of `keys`.
  std::vector<int> key_ids;
  std::shared_ptr<const KeySet> keys;
  // The cost cap of one validation (all concurrent snapshots together). Past it the check
  // answers "conflict" as file-grain validation would, naming the cap.
  int64_t max_bytes_read = 64LL << 20;
  int max_files_read = 64;
  // Verdicts of the files already read, kept across the attempts (and rebases) of the write.
  std::shared_ptr<JudgedFiles> judged = std::make_shared<JudgedFiles>();

  bool keyed() const { return !key_ids.empty() && keys; }

  // RowConflictCheck over this scope (below).
  Status Inspect(FileIO& io, const TableMetadata& table, const FileFilter& filter, const SnapshotChanges& changes,
                 bool added_rows, bool deleted_rows, RowTouch* touch) const override;
};

class RowConflictCheck {
 public:
  RowConflictCheck(const RowScope& scope, const TableMetadata& table, const FileFilter& filter)
      : scope_(scope), table_(table), filter_(filter) {}

  // Adds to `touch` what one concurrent snapshot's changes did to our rows: added rows when
  // `added_rows`, deleted rows when `deleted_rows`. Files the filter rules out are never read.
  Status Inspect(FileIO& io, const SnapshotChanges& changes, bool added_rows, bool deleted_rows, RowTouch* touch);

 private:
  struct Hits;
  Result<Hits> RowsOfOurs(FileIO& io, const DataFile& file, RowTouch* touch);
  Result<Hits> ReadRowsOfOurs(FileIO& io, const DataFile& file, RowTouch* touch);
  // `removed`: the delete files the same snapshot removed (a deletion vector replaces its data
  // file's old one and carries its positions, which are no new deletes).
  Status DeletedByDeleteFile(FileIO& io, const DataFile& del, const std::vector<ManifestEntry>& removed,
                             RowTouch* touch);
  // The verdict on a delete file; nullopt when judged conservatively (touch->gave_up says why).
  Result<std::optional<JudgedFiles::Verdict>> JudgeDeleteFile(FileIO& io, const DataFile& del,
                                                              const std::vector<ManifestEntry>& removed,
                                                              RowTouch* touch);
  bool Charge(const DataFile& file, RowTouch* touch);
  // The columns that decide whether a row is ours (the key, or the filter's), their schema,
  // and which rows of `rows` (holding them at `columns`) are ours.
  std::vector<int> DecidingIds() const;
  std::optional<Schema> DecidingProjection(const std::vector<int>& ids) const;
  Result<std::vector<uint8_t>> OursAmong(const ColumnBatch& rows, const std::vector<int>& columns) const;

  const RowScope& scope_;
  const TableMetadata& table_;
  const FileFilter& filter_;
};

}  // namespace floe
