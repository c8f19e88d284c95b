// The seam between the commit protocol and row-level writes for key-aware validation.
//
// File-grain validation (files_operation.h, by file_filter.h) refuses a write when a concurrent
// file MAY hold rows it read. A row-level write can do better: read those files and refuse only
// when a concurrent commit really added or deleted one of its rows. Reading rows needs the scan
// room, which the commit protocol must not use, so the write hands its FilesChange a judge
// (FilesChange::row_scope): the rows room implements it (rows/key_validation.h, RowScope), the
// commit protocol only asks it, snapshot by snapshot, and words the refusal.
#pragma once

#include <string>
#include <vector>

#include "commit/file_filter.h"
#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"

namespace floe {

// What a snapshot added and removed, read once per snapshot id.
struct SnapshotChanges {
  std::vector<ManifestEntry> added_data, added_deletes, removed_data, removed_deletes;
};

// What the concurrent commits did to our rows.
struct RowTouch {
  std::vector<std::string> added_in;    // files holding rows of ours that were added
  std::vector<std::string> deleted_by;  // files that deleted rows of ours
  std::vector<std::string> keys;        // the rows, as "(v1, v2)" (the first few)
  std::string gave_up;                  // non-empty: why the check answered conservatively
  int64_t bytes_read = 0;               // read by this validation (charged to the cap)
  int files_read = 0;
  int files_recalled = 0;               // judged by an earlier attempt: not read again

  // Adds a row's label to `keys` (once; the first few only).
  void NoteKey(const std::string& label);
  bool added() const { return !added_in.empty(); }
  bool deleted() const { return !deleted_by.empty(); }
  // "keys (5, '2026-01-02'), ... in [files]" for a refusal message.
  std::string Describe(const std::vector<std::string>& files) const;
};

class RowConflictJudge {
 public:
  virtual ~RowConflictJudge() = default;
  // Adds to `touch` what one concurrent snapshot's `changes` did to the write's rows on
  // `table` (as loaded): added rows when `added_rows`, deleted rows when `deleted_rows`. Files
  // `filter` rules out are never read.
  virtual Status Inspect(FileIO& io, const TableMetadata& table, const FileFilter& filter,
                         const SnapshotChanges& changes, bool added_rows, bool deleted_rows,
                         RowTouch* touch) const = 0;
};

}  // namespace floe
