// Choosing the snapshot a read sees: current, by id, by branch or tag, or as of a time.
//
// A reader resolves the snapshot once, from one metadata document, and from then on touches
// only files that snapshot reaches. That is what makes a read see exactly one committed state
// while writers keep committing.
#pragma once

#include "meta/table_metadata.h"
#include "scan/scan_options.h"
#include "floe/result.h"

namespace floe {

// The snapshot the options name. nullptr (not an error) when the options name nothing and the
// table has no current snapshot: an empty table reads as no rows. Errors: more than one of
// snapshot_id / ref / as_of_ms set (InvalidArgument); an unknown id or ref, or a time before
// the first snapshot (NotFound, naming what was asked for).
Result<const Snapshot*> SelectSnapshot(const TableMetadata& table, const ScanOptions& options);

// The schema a read of `snapshot` uses: the current schema when reading the table's head or a
// branch (a branch's writes follow the table's schema), the snapshot's own schema when time
// travelling by id, time or tag, as Spark and PyIceberg do. Falls back to the current schema
// when the snapshot names none or an unknown one.
const Schema& ScanSchema(const TableMetadata& table, const Snapshot* snapshot, const ScanOptions& options);

}  // namespace floe
