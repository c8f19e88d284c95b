// Reclaiming what crashed or killed writers left, from their write intents alone: no listing of
// the table's storage (on an object store a listing of a large table is slow and billed per
// thousand keys, iceberg#14931).
//
// Design. Every write names its files through a FileNamer (table_files/file_namer.h), which records each
// name in the write's intent (catalog/intent_store.h) before it hands the name out, in batches
// per folder (1, 2, 4, ... 64 names a record). The exact paths are recorded, never a prefix, so
// reclaiming needs no listing. The write path:
//   - data and delete files: named while the rows stream, before the commit loop starts
//     (DataWriter, PositionDeleteWriter, EqualityDeleteWriter and WriteDeleteFile take the
//     namer). Every operation that writes files makes one with NewWriteNamer and commits
//     through CommitWrittenFiles (rows/commit_written_files.h), which takes it: append, copy-on-write
//     and merge-on-read delete and update, upsert, overwrite; compaction and the CLI's
//     overwrite pass it in CommitOptions::names; a Transaction owns one (names()), which the
//     library's TableTransaction writes through and its plan hands to the engine
//     (PlanOptions::names, one per table of a multi-table commit);
//   - manifests and manifest lists: named by the commit engine through OperationContext::names,
//     in the same intent as the data files; a commit whose caller gave no namer (add-files,
//     cherry-pick) gets one of the engine's, which records only once a file is named (each
//     record is a durable catalog write: about one fsync on SQLite, a PUT on S3);
//   - the manifest list a REST server writes when it rebases an append (contention/append_rebase.h)
//     is named by a namer of the server's group attempt, cleared once the swap landed or
//     certainly failed;
//   - the metadata document is the catalog's: in the storage catalog writing it is the commit
//     itself (never an orphan); a SQL catalog names it in the intent (catalog/document_namer.h).
// The engine clears the intent when the commit landed and its lost attempts' files are
// deleted, or when every attempt is lost and the written files are deleted; when the outcome
// is unknown the intent stays. A process killed at any point leaves an intent naming a superset
// of the files it created.
//
// Reclamation: the intents of the table are read; an attempt is stale when its newest batch is
// older than the window (the listing sweep's: --older-than, else now minus
// floe.maintenance.orphan-older-than-ms, 3 days), so a live writer still streaming files keeps
// its whole intent. If some attempt is stale, the table is loaded (after the intents were read:
// whatever a commit that landed before the load wrote is reached), and of each stale attempt's
// names those that no metadata document in the metadata log reaches are deleted (a name never
// used deletes nothing); a landed commit whose intent outlived it (killed between its swap and
// the clear, or an outcome that stayed unknown) keeps every file, since they are reached. Only
// once all of an attempt's deletes succeeded is its intent cleared; a run killed half-way is
// finished by the next.
#pragma once

#include "catalog/catalog.h"
#include "maint/orphan_files.h"

namespace floe {

// options.location is refused (an intent is reclaimed whole); older_than_ms, dry_run, now_ms
// and on_progress apply. InvalidArgument when the catalog keeps no intents (a REST catalog).
Result<OrphanResult> ReclaimFromIntents(Catalog& catalog, const TableIdentifier& id, const OrphanOptions& options = {});

}  // namespace floe
