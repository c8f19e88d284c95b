// The rebase of an append whose branch moved on, done by whoever holds the commit: `floe serve`
// for a client's request, the group commit (group_commit.h) for the appends of one process.
//
// An append carries add-snapshot + set-snapshot-ref(branch) and asserts the branch's old head.
// When another commit moved the branch first, its writer would reload, put its new manifests
// over the new head's and swap again: a retry that changes only the manifest list and the
// metadata (invariant 3: new entries leave their sequence numbers null and inherit them from
// the list). The rebase does the same without the retry, but only when it can prove the
// snapshot only adds data files:
//   - the updates are exactly add-snapshot S and set-snapshot-ref(branch -> S); every other
//     requirement still holds; the failed one is the branch's assert-ref-snapshot-id and S's
//     parent is the head it asserted;
//   - S's summary says operation=append, the table is format v2;
//   - every other manifest in S's list was added by S and holds data; each of its entries is
//     either ADDED, S's own (snapshot id null or S's, both sequence numbers null), or EXISTING,
//     an earlier snapshot's (a manifest S merged, as Iceberg Java's MergeAppend does once a
//     table has many); none is DELETED (all read from the manifest itself);
//   - S's list keeps every manifest of the old head that lists a live file, except one whose
//     entries are all DELETED (left out by Iceberg Java and PyIceberg) or whose live files all
//     appear as EXISTING entries in S's merged manifests (it was merged, not dropped);
//   - the files' schema (S's schema id) is compatible with the table's current one: every
//     required column of the current schema is in it and shared columns keep their type;
//   - the branch still exists when it had a head (a branch removed meanwhile is not
//     re-created under the append), and S's idempotency key, if its summary has one, is not
//     already in the branch's ancestry (the writer's retry would find it and stop).
// The rebased snapshot keeps S's id; its manifest list (a new file) is the new head's manifests
// followed by S's new ones with the new sequence number (a merged manifest contributes only its
// ADDED entries, written again as a manifest of their own: the files it carried are the new
// head's to list, so none is lost, and none is listed twice), its parent is the new head, its
// sequence number is the table's next, its schema id the current one and its total-* summary
// keys are the new head's plus what S added. A snapshot that removes or replaces files is never
// rebased: the client must validate it against what was committed meanwhile.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "commit/commit_scheduler.h"
#include "floe/file_io.h"
#include "table_files/file_namer.h"

namespace floe {

struct RebasedAppend {
  std::vector<TableRequirement> requirements;  // the branch now asserted at the new head
  std::vector<TableUpdate> updates;
  std::string manifest_list;
  // Every file the rebase wrote (the list, and the manifests it made of a merged manifest's own
  // files): delete them if the commit certainly fails.
  std::vector<std::string> written;
  int64_t snapshot_id = 0;
  int64_t sequence_number = 0;
};

// The commit rebased onto `current`, or nullopt when it is not an append that may be rebased
// (the caller then answers with the original conflict). An error is a failure to name, read or
// write the files involved. Without a `namer` the new list is named "snap-<id>-rebased-<uuid>".
Result<std::optional<RebasedAppend>> RebaseAppend(FileIO& io, const TableMetadata& current, const TableCommit& commit,
                                                  const ManifestListNamer& namer = nullptr);

// Whether data files written with `written` can be listed under `current`: every required
// column of `current` exists in `written` and every column both know has the same type.
bool SchemaReadsFilesOf(const Schema& current, const Schema& written);

}  // namespace floe
