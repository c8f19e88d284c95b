#include "rows/upsert.h"

#include <unordered_set>

#include "catalog/intent_store.h"
#include "expr/binder.h"
#include "meta/row_lineage.h"
#include "scan/delete_filter.h"
#include "scan/table_scan.h"
#include "rows/key_delete_plan.h"
#include "commit/commit_base.h"
#include "rows/commit_written_files.h"
#include "rows/row_delta_commit.h"
#include "commit/snapshot_lineage.h"
#include "rows/merge_on_read.h"
#include "rows/replaced_row_ids.h"
#include "rows/write_mode.h"
#include "commit/operations.h"
#include "write/data_writer.h"
#include "write/equality_delete_writer.h"
#include "rows/row_position_deletes.h"

namespace floe {
namespace {

Result<std::vector<int>> KeyColumns(const ColumnBatch& batch, const Schema& schema, const std::vector<int>& ids) {
  std::vector<int> out;
  for (int id : ids) {
    int index = batch.ColumnIndexById(id);
    if (index < 0) return InvalidArgument("upsert rows lack key column '" + schema.FindColumnName(id) + "'");
    out.push_back(index);
  }
  return out;
}

Result<RowWriteResult> UpsertOnce(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& input,
                                  const std::vector<std::string>& key_columns, const RowWriteOptions& options,
                                  bool* rebase_possible) {
  RowWriteResult result;
  // The base the caller handed, unless a commit took it (a redo), is also the commit's; kept
  // alive here, as the deletes read it while the commit merges deletion vectors.
  RowWriteOptions handed = options;
  FLOE_ASSIGN_OR_RETURN(handed.commit.base, CommitBase::HandedOrLoad(catalog, id, options.commit.base));
  const std::shared_ptr<const TableMetadata> kept = handed.commit.base->KeepAlive();
  const TableMetadata& base = *kept;
  const Schema& schema = base.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(std::vector<int> key_ids, ResolveEqualityIds(schema, key_columns));
  WriteMode mode = WriteMode::kCopyOnWrite;
  if (options.mode) {
    mode = *options.mode;
  } else {
    FLOE_ASSIGN_OR_RETURN(mode, WriteModeFor(base, RowLevelCommand::kMerge));
  }
  FLOE_ASSIGN_OR_RETURN(IsolationLevel isolation, IsolationFor(base, RowLevelCommand::kMerge));
  if (mode == WriteMode::kMergeOnRead && base.format_version < 2)
    return InvalidArgument("merge-on-read upsert needs format version 2; " + id.ToString() + " is v" +
                           std::to_string(base.format_version));
  if (input.num_rows == 0) return result;

  // The incoming keys, refusing duplicates.
  FLOE_ASSIGN_OR_RETURN(std::vector<int> input_keys, KeyColumns(input, schema, key_ids));
  auto key_set = std::make_shared<KeySet>();
  KeySet& keys = *key_set;
  for (size_t r = 0; r < input.num_rows; ++r)
    if (!keys.insert(KeyOfRow(input, input_keys, r)).second)
      return InvalidArgument("upsert rows hold the key " + [&] {
        std::string text;
        for (int c : input_keys) text += (text.empty() ? "" : ", ") + input.columns[c].Get(r).ToString();
        return "(" + text + ")";
      }() + " more than once");

  // The filter that selects the existing rows the upsert replaces: key IN (values), per key
  // column (conservative for multi-column keys; rows are matched exactly below).
  Expr filter = True();
  for (size_t k = 0; k < key_ids.size(); ++k) {
    std::vector<Literal> values;
    for (size_t r = 0; r < input.num_rows; ++r) values.push_back(input.columns[input_keys[k]].Get(r));
    filter = And(filter, In(schema.FindColumnName(key_ids[k]), std::move(values)));
  }
  FLOE_ASSIGN_OR_RETURN(Expr bound, Bind(filter, schema));

  FileIO& io = *catalog.io();
  FLOE_ASSIGN_OR_RETURN(const Snapshot* head, BranchHead(base, id, options.commit.branch));
  std::optional<int64_t> start;
  if (head) start = head->snapshot_id;

  // Merge-on-read: equality deletes under every spec they can reach the old rows in, position
  // deletes for the files of the other specs (key_delete_plan.h). Copy-on-write reads every
  // file that may hold a key.
  KeyDeletePlan plan;
  const bool lineage = base.format_version >= 3;
  const Schema read_schema = lineage ? WithRowLineage(schema) : schema;
  ReplacedRowIds replaced_ids;
  if (mode == WriteMode::kMergeOnRead) {
    std::set<int> live_specs;
    if (head) {
      FLOE_ASSIGN_OR_RETURN(live_specs, LiveDataSpecIds(io, base, *head));
    }
    plan = PlanKeyDeletes(base, key_ids, live_specs);
    // Format 3: the new version of a row keeps the old one's _row_id, which only reading the
    // old row tells: every old row is deleted by position (a deletion vector).
    if (lineage) {
      plan.position_spec_ids.insert(plan.equality_spec_ids.begin(), plan.equality_spec_ids.end());
      plan.position_spec_ids.insert(live_specs.begin(), live_specs.end());
      plan.equality_spec_ids.clear();
    }
  }
  const bool read_files = mode == WriteMode::kCopyOnWrite || !plan.position_spec_ids.empty();

  const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, base);
  DataWriter writer(io, base, names.get());
  if (lineage) writer.KeepRowLineage();
  RowPositionDeletes position_deletes(io, base, names.get());  // files on v2, deletion vectors on v3
  EqualityDeleteWriter equality_deletes(io, base, key_ids, names.get(), plan.equality_spec_ids);
  auto abort = [&] {
    writer.Abort();
    position_deletes.Abort();
    equality_deletes.Abort();
    (void)names->Clear();
  };
  auto fail = [&](const Error& e) -> Result<RowWriteResult> {
    abort();
    return std::unexpected(e);
  };

  std::vector<DataFile> removed;
  if (!plan.equality_spec_ids.empty()) {
    if (auto st = equality_deletes.Delete(input); !st) return fail(st.error());
  }
  if (read_files && head) {
    ScanOptions scan;
    scan.snapshot_id = head->snapshot_id;
    scan.filter = bound;
    auto tasks = PlanFiles(io, base, scan);
    if (!tasks) return fail(tasks.error());
    std::vector<int64_t> positions;
    for (FileScanTask task : *tasks) {
      if (mode == WriteMode::kMergeOnRead && !plan.position_spec_ids.count(task.file.spec_id)) continue;
      task.residual = True();
      auto rows = ReadTaskWithPositions(io, base, task, read_schema, &positions);
      if (!rows) return fail(rows.error());
      auto row_keys = KeyColumns(*rows, schema, key_ids);
      if (!row_keys) return fail(row_keys.error());
      std::vector<uint8_t> keep(rows->num_rows, 1);
      std::vector<int64_t> matched;
      for (size_t r = 0; r < rows->num_rows; ++r) {
        if (!keys.count(KeyOfRow(*rows, *row_keys, r))) continue;
        keep[r] = 0;
        matched.push_back(positions[r]);
      }
      if (matched.empty()) continue;
      if (lineage) {
        std::vector<uint8_t> replaced(keep.size());
        for (size_t r = 0; r < keep.size(); ++r) replaced[r] = !keep[r];
        replaced_ids.Collect(*rows, *row_keys, replaced);
      }
      result.rows_updated += static_cast<int64_t>(matched.size());
      if (mode == WriteMode::kMergeOnRead) {
        if (auto st = position_deletes.Delete(task, matched); !st) return fail(st.error());
      } else {
        removed.push_back(task.file);
        if (auto st = writer.Write(rows->Filter(keep)); !st) return fail(st.error());
      }
    }
  }
  if (auto st = lineage ? writer.Write(replaced_ids.Stamp(input, input_keys)) : writer.Write(input); !st)
    return fail(st.error());
  result.rows_added = static_cast<int64_t>(input.num_rows);

  std::vector<std::string> referenced = position_deletes.referenced_data_files();
  auto data_files = writer.Finish();
  if (!data_files) return fail(data_files.error());
  auto pos_files = position_deletes.Finish();
  if (!pos_files) return fail(pos_files.error());
  auto eq_files = equality_deletes.Finish();
  if (!eq_files) return fail(eq_files.error());
  std::vector<DataFile> delete_files = pos_files->added;
  delete_files.insert(delete_files.end(), eq_files->begin(), eq_files->end());
  if (options.after_files_written) options.after_files_written();
  result.files_added = static_cast<int64_t>(data_files->size() + delete_files.size());
  result.files_removed = static_cast<int64_t>(removed.size());

  FilesChange change = mode == WriteMode::kMergeOnRead
                           ? RowDelta(std::move(*data_files), std::move(delete_files), start, bound, isolation,
                                      std::move(referenced))
                           : CopyOnWrite(std::move(removed), std::move(*data_files), start, bound, isolation);
  // New versions of rows: a concurrent delete or update of the same keys must not let two
  // versions survive (see merge_on_read.cc).
  if (mode == WriteMode::kMergeOnRead) RowPositionDeletes::AddTo(std::move(*pos_files), &change);
  change.fail_on_new_matching_deletes = true;
  // One row per key at any isolation: a row with one of our keys that landed meanwhile is never
  // left beside ours. Serializable refuses; snapshot redoes the upsert on the new state, which
  // replaces it (an upsert's rows do not depend on what it read, so redoing it is correct).
  // Only rows really holding our keys count (key_validation.h).
  change.fail_on_new_matching_data = true;
  change.rebase_when_rows_touched = isolation == IsolationLevel::kSnapshot;
  change.row_scope = RowScopeFor(bound, options, key_ids, key_set);
  if (mode == WriteMode::kMergeOnRead && lineage) {
    int merges = 0;
    FLOE_ASSIGN_OR_RETURN(result.commit, CommitRowDelta(catalog, id, std::move(change), position_deletes, handed,
                                                        *names, abort, rebase_possible, &merges));
    result.vector_merges = merges;
  } else {
    FLOE_ASSIGN_OR_RETURN(result.commit,
                          CommitWrittenFiles(catalog, id, std::move(change), handed, *names, abort, rebase_possible));
  }
  result.committed = !result.commit.idempotent_replay;
  return result;
}

}  // namespace

Result<ColumnBatch> LastRowPerKey(const ColumnBatch& rows, const Schema& schema,
                                  const std::vector<std::string>& key_columns) {
  FLOE_ASSIGN_OR_RETURN(std::vector<int> key_ids, ResolveEqualityIds(schema, key_columns));
  FLOE_ASSIGN_OR_RETURN(std::vector<int> columns, KeyColumns(rows, schema, key_ids));
  std::unordered_set<std::string> seen;
  std::vector<uint8_t> keep(rows.num_rows, 0);
  for (size_t r = rows.num_rows; r-- > 0;) keep[r] = seen.insert(KeyOfRow(rows, columns, r)).second;
  return rows.Filter(keep);
}

Result<RowWriteResult> Upsert(Catalog& catalog, const TableIdentifier& id, const ColumnBatch& input,
                              const std::vector<std::string>& key_columns, const RowWriteOptions& options) {
  return WithRebase(catalog, id, options, [&](const RowWriteOptions& run, bool* rebase_possible) {
    return UpsertOnce(catalog, id, input, key_columns, run, rebase_possible);
  });
}

}  // namespace floe
