// Table: one Iceberg table of a catalog, and the changes a program makes to it.
//
// A Table is a name plus the connection it came from; every call loads the table's current
// state from the catalog, so a Table never goes stale. Each write is one commit: its files
// are written first, then the catalog's pointer is swapped. A writer that loses the swap to
// another retries on top of it (an append always lands; a delete lands unless another writer
// added rows its filter may match, see error kinds below), waiting commit.retry.min-wait-ms
// to max-wait-ms between attempts, at most commit.retry.num-retries times.
//
// Error kinds every call may return besides those listed: NotFound (the table was dropped),
// Unavailable / IOError (the catalog or the storage could not be reached), Corrupt (a file
// of the table cannot be read).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/filter.h"
#include "floe/input_files.h"
#include "floe/refs.h"
#include "floe/result.h"
#include "floe/rows.h"
#include "floe/scan.h"
#include "floe/schema_info.h"

namespace floe {

class TableTransaction;
class SchemaChange;
struct SchemaChangeOptions;
struct ExpireSnapshotsOptions;
struct ExpireSnapshotsResult;
struct RemoveOrphanFilesOptions;
struct RemoveOrphanFilesResult;
struct RewriteDataFilesOptions;
struct RewriteDataFilesResult;
struct ManifestRewriteResult;
struct MaintainOptions;
struct MaintainResult;
struct TableStats;

// How a write commits.
struct WriteOptions {
  std::string branch = "main";
  // A key for the whole write (a job run's id). A write whose key is already in the branch's
  // history commits nothing and reports idempotent_replay: running a job twice is safe.
  std::optional<std::string> idempotency_key;
  // Called once the write's files are written and before its commit starts: where a program
  // coordinates with others (the examples let a second writer land "half way through").
  std::function<void()> before_commit;
  // Called before each attempt to swap the catalog's pointer, with the attempt's number (1 for
  // the first): a writer that commits here lands first, so this one loses the swap and retries on
  // top of it (what `floe demo` shows). For a REST catalog the swap is the commit request.
  std::function<void(int attempt)> before_swap;
};

// What a commit did.
struct CommitInfo {
  int64_t snapshot_id = 0;      // the snapshot it added (0 when nothing changed)
  int64_t sequence_number = 0;
  int attempts = 0;             // swaps tried; more than 1 after losing to other writers
  int conflicts = 0;            // swaps lost to another writer
  bool idempotent_replay = false;
  bool committed = false;       // false when there was nothing to change (no matching rows)
  int64_t rows_added = 0, rows_deleted = 0, rows_updated = 0;
  int64_t files_added = 0, files_removed = 0;  // data and delete files written; data files replaced
  std::string summary;          // one line for people: attempts, conflicts, where the time went
  // The metadata document the commit left; commits grouped into one catalog swap (appends of
  // one process in flight together) share one.
  std::string metadata_location;
  int rebases = 0;              // times redone on a newer state that left its keys alone (upsert)
  int64_t rows_read = 0;        // rows read from the input (the *Files writes)
};

struct SnapshotInfo {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_id;
  int64_t sequence_number = 0;
  int64_t timestamp_ms = 0;
  std::string operation;                       // append, overwrite, delete, replace
  std::map<std::string, std::string> summary;  // Iceberg's summary: added-records, total-records, ...
};

// InvalidArgument saying why, when `assignments` is not SQL SET syntax ("a = a * 2, b = 'x'");
// checks no table (Table::Update checks the columns).
Status CheckAssignments(const std::string& assignments);

class Table {
 public:
  // "namespace.table".
  const std::string& name() const;

  // The current schema, as "id long not null, country string, ts timestamp" (the form
  // Connection::CreateTable takes).
  Result<std::string> SchemaText() const;
  // The current schema field by field, its JSON form and the default partition spec
  // (floe/schema_info.h).
  Result<SchemaInfo> CurrentSchema() const;
  // The table's snapshots, oldest first.
  Result<std::vector<SnapshotInfo>> Snapshots() const;
  Result<std::map<std::string, std::string>> Properties() const;
  // The table's location: the folder (or URI) its files go under.
  Result<std::string> Location() const;
  // What the current snapshot holds per partition and how much history the table keeps
  // (floe/stats.h); its hints name the table by name(). InvalidArgument: an unreadable
  // write.target-file-size-bytes.
  Result<TableStats> Stats() const;

  // Appends `rows` as one snapshot. InvalidArgument: a column the table does not have, a cell
  // that cannot be cast, a null in a required column, a branch that is a tag; NotFound: a
  // branch other than main that does not exist; CommitConflict: the retries ran out (the table
  // was under heavy contention for commit.retry.total-timeout-ms); CommitStateUnknown: the
  // catalog's answer was lost and could not be checked: the rows may be in the table, a retry
  // with the same idempotency key is safe.
  Result<CommitInfo> Append(const Rows& rows, const WriteOptions& options = {});
  // Appends the rows `next` hands out, a batch at a time, as one snapshot: rows the program
  // produces as it goes are written without all being held at once (files are cut at
  // write.target-file-size-bytes). `next` fills *batch (cleared before each call) and returns
  // true, or false when there are no more rows; an error it returns stops the write and is
  // returned, nothing committed. The errors of Append.
  Result<CommitInfo> AppendBatches(const std::function<Result<bool>(Rows* batch)>& next,
                                   const WriteOptions& options = {});

  // Deletes the rows matching `filter` (copy-on-write, or delete files when the table's
  // write.delete.mode is merge-on-read). ValidationFailed: under serializable isolation (the
  // default, write.delete.isolation-level) another writer committed rows that may match
  // `filter` after this delete read the table, or removed a file it rewrites: nothing was
  // changed, and retrying blindly would delete rows this writer never saw, so read again and
  // decide. InvalidArgument: the filter names an unknown column. CommitConflict and
  // CommitStateUnknown as for Append.
  Result<CommitInfo> Delete(const Filter& filter, const WriteOptions& options = {});

  // Ok when `filter` binds to the table's current schema; InvalidArgument naming the column or
  // value otherwise (an unknown column, a value of the wrong type). Writes nothing.
  Status CheckFilter(const Filter& filter) const;

  // Reads rows. NotFound: no snapshot has the given id, no branch or tag has the name, or the
  // table had no snapshot at the time; InvalidArgument: more than one snapshot selector, or
  // an unknown column. An empty table reads as no rows.
  Result<Rows> Scan(const ScanRequest& request = {}) const;

  // Reads rows batch by batch (one data file's rows at a time, several files read ahead in
  // parallel), in the order Scan returns them, without holding the whole result: `consume`
  // returns false to stop early, or an error, which stops the read and is returned. The errors
  // of Scan, and those of `consume`.
  Status ScanBatches(const ScanRequest& request, const RowBatchConsumer& consume) const;

  // Inserts `rows`, replacing the rows that have the same key (`key_columns`; empty: the
  // table's identifier fields) in one commit: deletes by key (merge-on-read or copy-on-write as
  // write.merge.mode says) plus the new rows. InvalidArgument: no key (no identifier fields and
  // none given), a key column the table does not have, two input rows with one key, the errors
  // of Append for the rows. ValidationFailed: under serializable isolation
  // (write.merge.isolation-level) another writer added or deleted a row with one of these keys
  // after this upsert read the table. CommitConflict and CommitStateUnknown as for Append.
  Result<CommitInfo> Upsert(const Rows& rows, const std::vector<std::string>& key_columns = {},
                            const WriteOptions& options = {});

  // ---- rows from files (floe/input_files.h) ----
  // Append's commit with the rows of `input`, read as they are written. The errors of Append,
  // and NotFound / InvalidArgument / Corrupt naming an input file that is missing, of an
  // unknown format, or unreadable.
  Result<CommitInfo> AppendFiles(const InputFiles& input, const WriteOptions& options = {});
  // Replaces the rows matching `filter` (every row: Filter()) with the rows of `input`, in one
  // overwrite commit: each data file must match `filter` whole or not at all (ValidationFailed
  // otherwise; isolation as for Delete). The errors of Delete and of AppendFiles.
  Result<CommitInfo> OverwriteFiles(const InputFiles& input, const Filter& filter, const WriteOptions& options = {});
  // Upsert with the rows of `input` (all read before the commit). `last_row_per_key`: of the
  // input rows with one key, the last one is written (a stream of changes) instead of refused.
  Result<CommitInfo> UpsertFiles(const InputFiles& input, const std::vector<std::string>& key_columns = {},
                                 const WriteOptions& options = {}, bool last_row_per_key = false);

  // Sets columns of the rows matching `filter`: `assignments` in SQL's SET syntax,
  // "amount_cents = amount_cents * 2, country = 'FR'". Copy-on-write rewrites the files holding
  // them; with write.update.mode = merge-on-read the old rows are deleted by position (a row
  // delta) and the new ones appended. InvalidArgument: assignments that do not parse, an unknown
  // column, a value that cannot be cast. ValidationFailed, CommitConflict and CommitStateUnknown
  // as for Delete (write.update.isolation-level).
  Result<CommitInfo> Update(const Filter& filter, const std::string& assignments, const WriteOptions& options = {});

  // ---- branches and tags (floe/refs.h) ----
  // Every branch and tag, by name.
  Result<std::vector<RefInfo>> Refs() const;
  // A new branch or tag at `snapshot_id` (default: the current snapshot of main).
  // AlreadyExists: a ref of that name; NotFound: no such snapshot; InvalidArgument: an empty
  // name, or no snapshot to point at (an empty table).
  Result<RefInfo> CreateBranch(const std::string& name, std::optional<int64_t> snapshot_id = std::nullopt);
  Result<RefInfo> CreateTag(const std::string& name, std::optional<int64_t> snapshot_id = std::nullopt);
  // NotFound: no such branch (tag); InvalidArgument: dropping main, or a tag named as a branch.
  Status DropBranch(const std::string& name);
  Status DropTag(const std::string& name);
  // Sets `branch` back to `snapshot_id`, one of its ancestors (InvalidArgument otherwise), or
  // to its latest ancestor committed at or before `timestamp_ms` (NotFound when none was).
  Result<RefInfo> RollbackTo(int64_t snapshot_id, const std::string& branch = "main");
  Result<RefInfo> RollbackToTime(int64_t timestamp_ms, const std::string& branch = "main");
  // Applies the changes of snapshot `snapshot_id` (an append or overwrite, usually on another
  // branch) to options.branch as a new snapshot. ValidationFailed: it does not apply there (a
  // file it removes is not live); InvalidArgument: it is already in that branch's history.
  Result<CommitInfo> CherryPick(int64_t snapshot_id, const WriteOptions& options = {});

  // ---- maintenance (floe/maintenance.h) ----
  // Removes old snapshots (one commit), then deletes the files only they reached.
  // InvalidArgument: see CheckExpireSnapshotsOptions. CommitConflict: the retries ran out.
  Result<ExpireSnapshotsResult> ExpireSnapshots(const ExpireSnapshotsOptions& options) const;
  // Deletes files under the table's location that no metadata reaches (or, from_intents, what
  // crashed writers' stale intents name). InvalidArgument: a time in the future, a location
  // outside the table's.
  Result<RemoveOrphanFilesResult> RemoveOrphanFiles(const RemoveOrphanFilesOptions& options) const;
  // Compacts small files per partition, deletes applied. Without partial progress a failed
  // commit is the error (ValidationFailed when another writer changed an input file); with it
  // the result lists each group, and the error is returned only when no group could commit
  // for a reason other than a conflict. InvalidArgument: the filter names an unknown column.
  Result<RewriteDataFilesResult> RewriteDataFiles(const RewriteDataFilesOptions& options) const;
  // Regroups the table's manifests by partition (commit.manifest.target-size-bytes).
  Result<ManifestRewriteResult> RewriteManifests() const;
  // The table's maintenance policy, in a safe order: expire, remove orphans, compact, regroup
  // manifests. A step that fails is reported in step_errors and the later steps still run.
  Result<MaintainResult> Maintain(const MaintainOptions& options) const;

  // ---- schema and partition spec evolution, each change its own commit ----
  // Commits `change` (floe/schema_change.h), planned against the schema as loaded now and
  // asserting it: returns the schema after it. InvalidArgument naming the column: a missing
  // column, a taken name, a change Iceberg does not allow (a narrowing type, making an optional
  // column required, dropping an identifier or partition source column, ...), a type or default
  // value that does not read; CommitConflict: another schema change landed after it was planned
  // (it is refused, never re-applied on top). A change that changes nothing commits nothing.
  Result<SchemaInfo> ChangeSchema(const SchemaChange& change, const SchemaChangeOptions& options);
  Result<SchemaInfo> ChangeSchema(const SchemaChange& change);
  // A new default partition spec: the current one plus `field` ("day(ts)", "bucket(16, id)",
  // "country"), or minus the field named `name` (or the identity field of that column). Files
  // written before keep their spec. Returns the schema with the new default spec.
  // InvalidArgument: a field that does not parse, an unknown column, a field the spec has (or
  // lacks, for a removal); CommitConflict: another spec change landed first.
  Result<SchemaInfo> AddPartitionField(const std::string& field);
  Result<SchemaInfo> RemovePartitionField(const std::string& name);

  // Sets (and removes) table properties in one commit. InvalidArgument: a value floe cannot
  // use for a property it reads (commit.retry.num-retries = "many"); CommitConflict: another
  // change to the same properties landed first.
  Status SetProperties(const std::map<std::string, std::string>& set, const std::vector<std::string>& remove = {});
  // SetProperties, returning the properties as that commit left them. "format-version" is not a
  // property but the table's format: setting it to a higher version upgrades the table in the
  // same commit (InvalidArgument for a lower one, or one floe does not write).
  Result<std::map<std::string, std::string>> ChangeProperties(const std::map<std::string, std::string>& set,
                                                              const std::vector<std::string>& remove = {});

  // A transaction: several changes that land as one commit, or not at all.
  Result<TableTransaction> NewTransaction() const;

  struct Impl;
  explicit Table(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

 private:
  friend class TableReader;  // floe/table_reader.h: loads the table's metadata once
  std::shared_ptr<Impl> impl_;
};

}  // namespace floe
