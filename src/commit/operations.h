// The operations a writer commits, each a configuration of FilesOperation with the rules of
// DESIGN.md's conflict table.
#pragma once

#include <optional>
#include <vector>

#include "expr/expression.h"
#include "meta/table_metadata.h"
#include "commit/files_operation.h"

namespace floe {

enum class IsolationLevel { kSerializable, kSnapshot };
enum class RowLevelCommand { kDelete, kUpdate, kMerge };

// The isolation a table asks for a command (write.<command>.isolation-level, default serializable).
Result<IsolationLevel> IsolationFor(const TableMetadata& table, RowLevelCommand command);

// Fast append: new manifests only. Never conflicts.
FilesChange FastAppend(std::vector<DataFile> files);
// Merge append: like fast append, but small manifests are merged (commit.manifest.*).
FilesChange MergeAppend(std::vector<DataFile> files);

// Copy-on-write delete or update: the files that held matching rows are replaced by rewritten
// ones. `starting_snapshot_id` is the snapshot the rows were read from; `filter` the rows read.
FilesChange CopyOnWrite(std::vector<DataFile> removed, std::vector<DataFile> added,
                        std::optional<int64_t> starting_snapshot_id, Expr filter, IsolationLevel isolation);

// Overwrite by filter: removes files whose rows all match `filter` and adds `added`
// (a file where only some rows match is refused).
FilesChange OverwriteByFilter(Expr filter, std::vector<DataFile> added, std::optional<int64_t> starting_snapshot_id,
                              IsolationLevel isolation);

// Replace partitions (dynamic overwrite): adds `added` and removes every live data and delete
// file in the partitions those files fall in. Serializable refuses data or delete files added
// to those partitions since the starting snapshot; snapshot isolation lets them be replaced.
FilesChange ReplacePartitions(std::vector<DataFile> added, std::optional<int64_t> starting_snapshot_id,
                              IsolationLevel isolation);

// Rewrite (compaction): replaces data files (and the delete files they absorbed) with others.
// Refused if a file it replaces was removed meanwhile or a delete that applies to one landed.
FilesChange RewriteFiles(std::vector<DataFile> removed_data, std::vector<DataFile> added_data,
                         std::vector<DataFile> removed_deletes, std::optional<int64_t> starting_snapshot_id);

// Row delta (merge-on-read): commits data and delete files together.
FilesChange RowDelta(std::vector<DataFile> added_data, std::vector<DataFile> added_deletes,
                     std::optional<int64_t> starting_snapshot_id, Expr filter, IsolationLevel isolation,
                     std::vector<std::string> referenced_data_files);

}  // namespace floe
