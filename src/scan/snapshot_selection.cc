#include "scan/snapshot_selection.h"

#include <string>

namespace floe {

Result<const Snapshot*> SelectSnapshot(const TableMetadata& table, const ScanOptions& options) {
  int chosen = (options.snapshot_id ? 1 : 0) + (options.ref ? 1 : 0) + (options.as_of_ms ? 1 : 0);
  if (chosen > 1)
    return InvalidArgument("choose at most one of snapshot id, ref and as-of time (got " + std::to_string(chosen) + ")");

  if (options.snapshot_id) {
    const Snapshot* s = table.SnapshotById(*options.snapshot_id);
    if (!s) return NotFound("snapshot " + std::to_string(*options.snapshot_id) +
                             " is not in the table's metadata (expired, or never existed)");
    return s;
  }
  if (options.ref) {
    if (table.refs.find(*options.ref) == table.refs.end()) {
      // "main" exists implicitly on a table with a current snapshot but no refs (v1 tables).
      if (*options.ref == kMainBranch && table.refs.empty()) return table.CurrentSnapshot();
      return NotFound("ref '" + *options.ref + "' not found (no such branch or tag)");
    }
    const Snapshot* s = table.SnapshotForRef(*options.ref);
    if (!s) return Corrupt("ref '" + *options.ref + "' points at a snapshot missing from the metadata");
    return s;
  }
  if (options.as_of_ms) {
    const Snapshot* s = table.SnapshotAsOf(*options.as_of_ms);
    if (!s)
      return NotFound("no snapshot was current at " + std::to_string(*options.as_of_ms) +
                      " ms (before the table's first snapshot, or its log was expired)");
    return s;
  }
  return table.CurrentSnapshot();
}

const Schema& ScanSchema(const TableMetadata& table, const Snapshot* snapshot, const ScanOptions& options) {
  bool travels = options.snapshot_id || options.as_of_ms;
  if (options.ref) {
    auto it = table.refs.find(*options.ref);
    travels = it != table.refs.end() && it->second.type == RefType::kTag;
  }
  if (travels && snapshot && snapshot->schema_id) {
    if (const Schema* s = table.SchemaById(*snapshot->schema_id)) return *s;
  }
  return table.CurrentSchema();
}

}  // namespace floe
