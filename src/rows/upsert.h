// Upsert: rows whose key columns match an existing row replace it; the others are inserted.
//
// The mode is write.merge.mode (or RowWriteOptions::mode):
//   copy-on-write  the files holding matching keys are rewritten without those rows, and the
//                  new rows are added, in one overwrite;
//   merge-on-read  equality deletes on the key columns plus the new rows, in one row delta
//                  (new rows get the commit's sequence number, so the deletes spare them).
//                  An equality delete reaches only its own spec and partition (or everything,
//                  from an unpartitioned spec): the deletes go under each spec that holds data
//                  files, and the files of a spec partitioned by a column outside the key,
//                  where an old row may sit in another partition than its key maps to, are
//                  read and their matching rows deleted by position (key_delete_plan.h).
//                  On a format 3 table every file that may hold a key is read and its
//                  matching rows deleted by deletion vector instead, so that each replaced
//                  row's new version keeps its _row_id (replaced_row_ids.h).
// Validation is by key (key_validation.h): only a concurrent commit that added or deleted a row
// with one of the upsert's keys conflicts, whatever the files' metrics say. One row per key
// at any isolation (write.merge.isolation-level): serializable refuses when a row with one of
// its keys landed meanwhile; snapshot redoes the upsert on the new state, replacing that row.
// A commit whose input files were only replaced by commits that left its keys alone is redone
// on the new state (a rebase, at most commit.retry.num-retries times).
#pragma once

#include <string>
#include <vector>

#include "rows/row_writes.h"

namespace floe {

// `key_columns` empty: the table's identifier fields. Two input rows with the same key are
// refused (which one should win?).
Result<RowWriteResult> Upsert(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& rows,
                              const std::vector<std::string>& key_columns, const RowWriteOptions& options = {});

// `rows` with only the last row of each key (`key_columns` empty: the identifier fields), in
// input order: a stream of changes (floe ingest --key) where a later row supersedes an earlier.
Result<ColumnBatch> LastRowPerKey(const ColumnBatch& rows, const Schema& schema,
                                  const std::vector<std::string>& key_columns);

}  // namespace floe
