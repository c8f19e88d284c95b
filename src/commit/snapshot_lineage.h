// What every commit that adds a snapshot shares: fresh snapshot ids, the new snapshot on top of
// a branch's head, the branch moved to it, and idempotency keys found in a branch's ancestry.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "catalog/catalog.h"
#include "meta/table_metadata.h"

namespace floe {

// A fresh snapshot id for `table`: random, positive, not taken by any of its snapshots.
int64_t NewSnapshotId(const TableMetadata& table);

// The snapshot an attempt adds on top of `head` (nullptr: an empty branch) of `base`, timed now
// but never before the base's last update.
Snapshot NewSnapshot(const TableMetadata& base, const Snapshot* head, int64_t snapshot_id, int64_t sequence_number,
                     const std::string& manifest_list, std::map<std::string, std::string> summary);
// `branch` of `base` (its retention settings kept) moved to `snapshot_id`.
SnapshotRef MovedBranch(const TableMetadata& base, const std::string& branch, int64_t snapshot_id);

// The snapshot at the head of `branch` of table `id`: null when the branch has none yet (an
// empty table's main); NotFound naming the table when a branch other than main does not exist.
Result<const Snapshot*> BranchHead(const TableMetadata& table, const TableIdentifier& id, const std::string& branch);

// The summary key that holds idempotency keys for a table (configurable by property).
std::string IdempotencyKeyProperty(const TableMetadata& table);
// The snapshot in `branch`'s ancestry whose summary carries `key`, if any.
const Snapshot* FindIdempotentSnapshot(const TableMetadata& table, const std::string& branch, const std::string& key);

}  // namespace floe
