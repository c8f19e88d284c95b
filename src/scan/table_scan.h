// Reading a table: plan which files hold the rows a scan asks for, then read those files with
// their deletes applied.
//
//   ScanOptions opts;  opts.filter_text = "day = '2026-01-02' AND amount > 10";
//   FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(io, table, opts));   // tasks + stats
//   for (const FileScanTask& t : plan.tasks) { auto rows = ReadTask(io, table, t, plan.projection); ... }
//   // or simply: FLOE_ASSIGN_OR_RETURN(ColumnBatch all, ReadTable(io, table, opts));
//
// Planning resolves one snapshot (snapshot_selection.h) and opens only its manifest list and
// the manifests that may hold matching files:
//   1. manifests whose partition summaries rule out the filter (projected through each
//      manifest's own partition spec; specs evolve) are never opened;
//   2. in the opened manifests, files whose partition tuple or column metrics rule out the
//      filter are dropped;
//   3. each remaining data file becomes a task with the delete files that apply to it
//      (delete_index.h) and the residual: what of the filter its partition does not decide.
// Reading a task returns exactly the file's live rows that match the filter, in the projected
// schema (schema evolution by field id; identity partition values filled in from the manifest
// when the file lacks the column).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "expr/expression.h"
#include "floe/file_io.h"
#include "meta/data_file.h"
#include "meta/table_metadata.h"
#include "scan/scan_options.h"
#include "types/column_batch.h"

namespace floe {

struct FileScanTask {
  DataFile file;
  int64_t data_sequence_number = 0;
  std::vector<ManifestEntry> deletes;  // delete files that apply, by ascending sequence number
  // Bound to the scan's schema: the part of the filter the file's partition does not decide.
  // True when every row of the file matches (apart from deletes).
  Expr residual;
};

// What planning touched: a pruned plan should open few manifests.
struct PlanStats {
  int manifest_lists_read = 0;
  int manifests_total = 0;           // in the snapshot's manifest list
  int manifests_opened = 0;          // read from storage (data and delete manifests)
  int manifests_pruned = 0;          // ruled out by partition summaries, never opened
  int manifests_without_live_files = 0;  // nothing added or existing: not opened
  int64_t data_files_considered = 0;     // live data entries in opened manifests
  int64_t data_files_pruned_by_partition = 0;
  int64_t data_files_pruned_by_metrics = 0;
  int64_t delete_files = 0;              // live delete entries read
  int64_t tasks = 0;
};

struct ScanPlan {
  std::optional<int64_t> snapshot_id;  // none: the table has no snapshot, so no rows
  Schema schema;      // the schema the scan reads with (snapshot_selection.h: ScanSchema)
  Schema projection;  // the columns to return (ScanOptions::columns, or the whole schema)
  Expr filter;        // bound to `schema`; True when the scan has no filter
  std::vector<FileScanTask> tasks;
  PlanStats stats;
  std::optional<int64_t> limit;  // ScanOptions::limit: ReadTasks returns at most this many rows
};

// Plans a scan (see the top of this file). Errors: a bad snapshot choice, a filter that does
// not parse or bind (InvalidArgument naming the column), unreadable or corrupt metadata files.
Result<ScanPlan> PlanScan(FileIO& io, const TableMetadata& table, const ScanOptions& options);
// The tasks of PlanScan.
Result<std::vector<FileScanTask>> PlanFiles(FileIO& io, const TableMetadata& table, const ScanOptions& options);

// The live rows of one task that match its residual, with the columns of `projection` (matched
// to the file by field id). Columns the file lacks read as null, or as the identity partition
// value of the task's partition when the partition has one; a required column missing from
// the file without such a value is Corrupt.
Result<ColumnBatch> ReadTask(FileIO& io, const TableMetadata& table, const FileScanTask& task, const Schema& projection);

// ReadTask, also giving each returned row's position in the data file (Iceberg's `_pos`: its
// 0-based ordinal in the file), ascending. Merge-on-read writers delete rows by these.
Result<ColumnBatch> ReadTaskWithPositions(FileIO& io, const TableMetadata& table, const FileScanTask& task,
                                          const Schema& projection, std::vector<int64_t>* positions);

// Receives the rows of plan.tasks[task_index]; returns false to stop reading (a --limit met).
using TaskRowsConsumer = std::function<Result<bool>(size_t task_index, ColumnBatch&& rows)>;

// Reads the plan's tasks `parallelism` at a time (0: ScanParallelism's default; a plan with a
// limit reads one at a time, each only as far as the rows still missing) and hands each
// task's rows to `consume` on the calling thread, in task order: the same rows in the same
// order as ReadTask task by task. At most `parallelism` tasks' rows are held at once. The
// first error (a task's, naming its data file, or `consume`'s) stops the reads and is
// returned; every reading thread has ended when ReadTasks returns.
Status ReadTasks(FileIO& io, const TableMetadata& table, const ScanPlan& plan, int parallelism,
                 const TaskRowsConsumer& consume);

// Tasks read at once, and manifests read at once while planning: `requested` when positive,
// else kRemoteScanParallelism for files on an object store (s3://: requests are round trips,
// several in flight hide them) and one per core (at most kRemoteScanParallelism) locally.
inline constexpr int kRemoteScanParallelism = 8;
int ScanParallelism(int requested, std::string_view path);

// Every row the scan selects: PlanScan, then ReadTasks, concatenated.
Result<ColumnBatch> ReadTable(FileIO& io, const TableMetadata& table, const ScanOptions& options);

// The schema holding the named columns of `schema`, in the order named ("a", "s.b" selects the
// struct s with only its field b). Empty `columns` selects the whole schema.
Result<Schema> SelectColumns(const Schema& schema, const std::vector<std::string>& columns, bool case_sensitive);

}  // namespace floe
