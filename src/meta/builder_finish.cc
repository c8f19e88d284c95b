#include "meta/builder_finish.h"

#include <algorithm>
#include <unordered_set>

#include "meta/table_properties.h"

namespace floe::builder_internal {

std::vector<SnapshotLogEntry> FinishSnapshotLog(const TableMetadata& m, const std::vector<int64_t>& main_history,
                                                const std::set<int64_t>& added_snapshot_ids, bool removed_snapshots,
                                                int64_t commit_ms) {
  // Main moving several times in one change logs only where it ended for snapshots made in
  // this change: the others were never visible to anyone.
  std::set<int64_t> intermediate;
  for (size_t i = 0; i + 1 < main_history.size(); ++i)
    if (added_snapshot_ids.contains(main_history[i]) && main_history[i] != main_history.back())
      intermediate.insert(main_history[i]);
  // Which snapshots are live matters only when this change removed some: otherwise the log
  // keeps its entries as they were (and building the set would cost every commit time that
  // grows with history).
  std::unordered_set<int64_t> live;
  if (removed_snapshots) {
    live.reserve(m.snapshots.size());
    for (const auto& s : m.snapshots) live.insert(s.snapshot_id);
  }
  std::vector<SnapshotLogEntry> log;
  log.reserve(m.snapshot_log.size());
  for (auto e : m.snapshot_log) {
    if (removed_snapshots && !live.contains(e.snapshot_id)) {
      // An entry for a snapshot this change removed invalidates the history before it:
      // otherwise the log would show the next snapshot current during a time when it was not,
      // and time travel into that gap would read the wrong state.
      log.clear();
      continue;
    } else if (intermediate.contains(e.snapshot_id)) {
      continue;
    }
    if (e.timestamp_ms == kPendingTimestamp) e.timestamp_ms = commit_ms;
    log.push_back(e);
  }
  return log;
}

void AppendMetadataLog(TableMetadata& m, int64_t base_last_updated_ms, const std::string& base_location) {
  m.metadata_log.push_back({base_last_updated_ms, base_location});
  // A value floe cannot read (set by an engine that did not check it) keeps the default: the
  // log's length is housekeeping, not worth refusing a commit for.
  int64_t max_entries = std::max<int64_t>(1, m.CountProperty(props::kMetadataPreviousVersionsMax,
                                                             props::kMetadataPreviousVersionsMaxDefault)
                                                 .value_or(props::kMetadataPreviousVersionsMaxDefault));
  if (static_cast<int64_t>(m.metadata_log.size()) > max_entries)
    m.metadata_log.erase(m.metadata_log.begin(), m.metadata_log.end() - max_entries);
}

Status CheckDefaultsFitSchema(const TableMetadata& m) {
  const Schema& schema = m.CurrentSchema();
  for (const auto& f : m.DefaultSpec().fields()) {
    if (f.transform.kind() == TransformKind::kVoid) continue;
    for (int id : f.source_ids.empty() ? std::vector<int>{f.source_id} : f.source_ids) {
      if (!schema.FindField(id))
        return InvalidArgument("Cannot find source column " + std::to_string(id) + " for partition field '" + f.name +
                               "' of the default spec in the current schema");
    }
    if (!f.evaluable()) continue;  // kept as written, never computed
    const NestedField* source = schema.FindField(f.source_id);
    if (!f.transform.CanTransform(*source->type))
      return InvalidArgument("partition field '" + f.name + "': " + f.transform.ToString() +
                             " cannot be applied to type " + source->type->ToString());
  }
  if (const SortOrder* order = m.SortOrderById(m.default_sort_order_id)) FLOE_RETURN_IF_ERROR(order->Validate(schema));
  return Ok();
}

namespace {

// Defaults and the format 3 types (timestamp_ns, unknown, variant, geometry, ...) below `type`.
Status NoDefaultsBelow(const Type& type, int format_version) {
  for (const auto& f : type.fields()) {
    if (f.type->NeedsFormatV3())
      return InvalidArgument("Invalid type for " + f.name + ": " + f.type->ToString() +
                             " is not supported until v3 (this table is v" + std::to_string(format_version) +
                             "; upgrade it with format-version=3)");
    for (auto [text, which] : {std::pair{&f.initial_default, "initial"}, std::pair{&f.write_default, "write"}}) {
      if (*text && *text != "null")
        return InvalidArgument("Invalid " + std::string(which) + " default for " + f.name + ": non-null default (" +
                               **text + ") is not supported until v3 (this table is v" +
                               std::to_string(format_version) + ")");
    }
    if (f.type->is_nested()) FLOE_RETURN_IF_ERROR(NoDefaultsBelow(*f.type, format_version));
  }
  return Ok();
}

}  // namespace

Status CheckFieldDefaultsNeedV3(const TableMetadata& m, const std::set<int>& added_schema_ids) {
  if (m.format_version >= 3) return Ok();
  for (int id : added_schema_ids) {
    if (const Schema* s = m.SchemaById(id)) FLOE_RETURN_IF_ERROR(NoDefaultsBelow(*s->AsStruct(), m.format_version));
  }
  return Ok();
}

}  // namespace floe::builder_internal
