// MetadataBuilder: applies updates one at a time, validating each before it touches anything.
//
// The rules follow Iceberg's TableMetadata.Builder so that a REST client sees the same
// behaviour from floe's server as from Iceberg's: re-adding an identical schema, spec or sort
// order reuses its id; -1 means "the one added last"; main moving appends to the snapshot
// log; Build appends the base document to the metadata log and trims it.
#include "meta/metadata_builder.h"

#include "meta/builder_finish.h"
#include "meta/property_values.h"

#include <algorithm>
#include <cctype>

#include "util/strings.h"
#include "util/uuid.h"

namespace floe {

namespace {

using builder_internal::kPendingTimestamp;

std::string Str(int64_t v) { return std::to_string(v); }

bool SameRef(const SnapshotRef& a, const SnapshotRef& b) {
  return a.snapshot_id == b.snapshot_id && a.type == b.type && a.min_snapshots_to_keep == b.min_snapshots_to_keep &&
         a.max_snapshot_age_ms == b.max_snapshot_age_ms && a.max_ref_age_ms == b.max_ref_age_ms;
}

// Iceberg reuses a spec that partitions the same way, whatever its field ids.
bool SameSpecFields(const PartitionSpec& a, const PartitionSpec& b) {
  if (a.fields().size() != b.fields().size()) return false;
  for (size_t i = 0; i < a.fields().size(); ++i) {
    const auto& x = a.fields()[i];
    const auto& y = b.fields()[i];
    if (x.source_id != y.source_id || x.source_ids != y.source_ids || x.name != y.name || !(x.transform == y.transform))
      return false;
  }
  return true;
}

}  // namespace

// Applies one update to a builder; one operator() per update type.
class MetadataBuilderAccess {
 public:
  explicit MetadataBuilderAccess(MetadataBuilder& b) : b_(b), m_(b.metadata_) {}

  Status operator()(const AssignUuid& u) {
    if (u.uuid.empty()) return InvalidArgument("Cannot assign an empty uuid");
    if (AsciiLower(u.uuid) == AsciiLower(m_.table_uuid)) return Ok();
    if (!m_.table_uuid.empty()) return InvalidArgument("Cannot reassign uuid: the table's uuid is " + m_.table_uuid);
    m_.table_uuid = u.uuid;
    return Changed();
  }

  Status operator()(const UpgradeFormatVersion& u) {
    if (u.format_version < 1 || u.format_version > kMaxFormatVersion)
      return InvalidArgument("Cannot upgrade table to unsupported format version: v" + Str(u.format_version) +
                             " (supported: v" + Str(kMaxFormatVersion) + ")");
    if (u.format_version == m_.format_version) return Ok();
    // A table being created has nothing a lower version could not express yet.
    if (u.format_version < m_.format_version && !b_.new_table_)
      return InvalidArgument("Cannot downgrade v" + Str(m_.format_version) + " table to v" + Str(u.format_version));
    m_.format_version = u.format_version;
    if (m_.format_version >= 3 && !m_.next_row_id) m_.next_row_id = 0;
    if (m_.format_version < 3) m_.next_row_id.reset();
    return Changed();
  }

  Status operator()(const AddSchema& u) {
    if (auto st = u.schema.Validate(); !st) return st;
    // The update's last-column-id is deprecated (the REST spec: computed by the server). Since
    // Iceberg Java 1.11 a client sends its schema's highest field id there, which is below the
    // table's when the schema drops its last column: like Java, never let it lower the table's.
    int new_last = std::max({m_.last_column_id, u.schema.HighestFieldId(), u.last_column_id.value_or(0)});
    int id = 0;
    bool found = false;
    for (const auto& s : m_.schemas) {
      if (s.SameStructure(u.schema)) {
        id = s.schema_id();
        found = true;
        break;
      }
      id = std::max(id, s.schema_id() + 1);
    }
    if (!found) {
      m_.schemas.emplace_back(id, u.schema.fields(), u.schema.identifier_field_ids());
      b_.added_schema_ids_.insert(id);
      b_.changed_ = true;
    }
    b_.last_added_schema_id_ = id;
    if (new_last != m_.last_column_id) {
      m_.last_column_id = new_last;
      b_.changed_ = true;
    }
    return Ok();
  }

  Status operator()(const SetCurrentSchema& u) {
    int id = u.schema_id;
    if (id == -1) {
      if (!b_.last_added_schema_id_) return InvalidArgument("Cannot set last added schema: no schema has been added");
      id = *b_.last_added_schema_id_;
    }
    if (!m_.SchemaById(id)) return InvalidArgument("Cannot set current schema to unknown schema: " + Str(id));
    if (id == m_.current_schema_id) return Ok();
    m_.current_schema_id = id;
    return Changed();
  }

  Status operator()(const AddPartitionSpec& u) {
    const Schema* schema = m_.SchemaById(m_.current_schema_id);
    if (!schema) return InvalidArgument("Cannot add a partition spec: the table has no current schema");
    if (auto st = u.spec.Validate(*schema); !st) return st;
    std::set<int> field_ids;
    for (const auto& f : u.spec.fields()) {
      if (!field_ids.insert(f.field_id).second)
        return InvalidArgument("partition spec has two fields with field id " + Str(f.field_id));
      if (f.field_id < PartitionSpec::kFirstFieldId)
        return InvalidArgument("partition field '" + f.name + "' has field id " + Str(f.field_id) +
                               "; partition field ids start at " + Str(PartitionSpec::kFirstFieldId));
    }
    if (m_.format_version == 1) {
      for (size_t i = 0; i < u.spec.fields().size(); ++i)
        if (u.spec.fields()[i].field_id != PartitionSpec::kFirstFieldId + static_cast<int>(i))
          return InvalidArgument("Spec does not use sequential IDs that are required in v1 (field '" +
                                 u.spec.fields()[i].name + "' has id " + Str(u.spec.fields()[i].field_id) + ")");
    }
    int id = 0;
    bool found = false;
    for (const auto& s : m_.partition_specs) {
      if (SameSpecFields(s, u.spec)) {
        id = s.spec_id();
        found = true;
        break;
      }
      id = std::max(id, s.spec_id() + 1);
    }
    if (!found) {
      m_.partition_specs.emplace_back(id, u.spec.fields());
      for (const auto& f : u.spec.fields()) m_.last_partition_id = std::max(m_.last_partition_id, f.field_id);
      b_.changed_ = true;
    }
    b_.last_added_spec_id_ = id;
    return Ok();
  }

  Status operator()(const SetDefaultSpec& u) {
    int id = u.spec_id;
    if (id == -1) {
      if (!b_.last_added_spec_id_) return InvalidArgument("Cannot set last added spec: no spec has been added");
      id = *b_.last_added_spec_id_;
    }
    if (!m_.SpecById(id)) return InvalidArgument("Cannot set default partition spec to unknown spec: " + Str(id));
    if (id == m_.default_spec_id) return Ok();
    m_.default_spec_id = id;
    return Changed();
  }

  Status operator()(const AddSortOrder& u) {
    const SortOrder& order = u.sort_order;
    if (!order.is_unsorted()) {
      const Schema* schema = m_.SchemaById(m_.current_schema_id);
      if (!schema) return InvalidArgument("Cannot add a sort order: the table has no current schema");
      if (auto st = order.Validate(*schema); !st) return st;
    }
    // Iceberg keeps order id 0 for "unsorted"; sorted orders are numbered from 1.
    int id = order.is_unsorted() ? 0 : 1;
    bool found = false;
    for (const auto& o : m_.sort_orders) {
      if (o.SameFields(order)) {
        id = o.order_id();
        found = true;
        break;
      }
    }
    if (!found) {
      int max_id = -1;
      for (const auto& o : m_.sort_orders) max_id = std::max(max_id, o.order_id());
      if (order.is_unsorted()) {
        id = m_.SortOrderById(0) ? max_id + 1 : 0;  // 0 taken by a sorted order: unusual, but keep ids unique
      } else {
        id = std::max(1, max_id + 1);
      }
    }
    if (!found) {
      m_.sort_orders.emplace_back(id, order.fields());
      b_.changed_ = true;
    }
    b_.last_added_order_id_ = id;
    return Ok();
  }

  Status operator()(const SetDefaultSortOrder& u) {
    int id = u.sort_order_id;
    if (id == -1) {
      if (!b_.last_added_order_id_) return InvalidArgument("Cannot set last added sort order: no sort order has been added");
      id = *b_.last_added_order_id_;
    }
    if (!m_.SortOrderById(id)) return InvalidArgument("Cannot set default sort order to unknown order: " + Str(id));
    if (id == m_.default_sort_order_id) return Ok();
    m_.default_sort_order_id = id;
    return Changed();
  }

  Status operator()(const AddSnapshot& u) {
    const Snapshot& s = u.snapshot;
    if (m_.schemas.empty()) return InvalidArgument("Attempting to add a snapshot before a schema is added");
    if (m_.SnapshotById(s.snapshot_id)) return InvalidArgument("Snapshot already exists for id: " + Str(s.snapshot_id));
    // A snapshot without a parent (a replace transaction's first) may reuse a sequence number,
    // as Iceberg Java allows: it starts a new line of history rather than continuing one.
    if (m_.format_version >= 2 && s.sequence_number <= m_.last_sequence_number && s.parent_snapshot_id)
      return InvalidArgument("Cannot add snapshot with sequence number " + Str(s.sequence_number) +
                             " older than last sequence number " + Str(m_.last_sequence_number));
    if (m_.format_version >= 3) {
      // Row lineage: each snapshot claims the row-id range [first-row-id, first-row-id + added-rows).
      if (!s.first_row_id) return InvalidArgument("Cannot add a snapshot: first-row-id is null (required in v3)");
      if (!s.added_rows) return InvalidArgument("Cannot add a snapshot: added-rows is null (required in v3)");
      if (*s.added_rows < 0)
        return InvalidArgument("Cannot add a snapshot: added-rows is negative: " + Str(*s.added_rows));
      int64_t next = m_.next_row_id.value_or(0);
      if (*s.first_row_id < next)
        return InvalidArgument("Cannot add a snapshot, first-row-id is behind table next-row-id: " +
                               Str(*s.first_row_id) + " < " + Str(next));
      m_.next_row_id = next + s.added_rows.value_or(0);
    }
    m_.snapshots.push_back(s);
    m_.last_sequence_number = std::max(m_.last_sequence_number, s.sequence_number);
    b_.added_snapshot_ids_.insert(s.snapshot_id);
    return Changed();
  }

  Status operator()(const SetSnapshotRef& u) {
    if (u.ref_name.empty()) return InvalidArgument("Cannot set a ref with an empty name");
    const Snapshot* snapshot = m_.SnapshotById(u.ref.snapshot_id);
    if (!snapshot) return InvalidArgument("Cannot set " + u.ref_name + " to unknown snapshot: " + Str(u.ref.snapshot_id));
    if (u.ref.type == RefType::kTag && (u.ref.min_snapshots_to_keep || u.ref.max_snapshot_age_ms))
      return InvalidArgument("Tag " + u.ref_name + " cannot have min-snapshots-to-keep or max-snapshot-age-ms");
    if (u.ref_name == kMainBranch && u.ref.type != RefType::kBranch)
      return InvalidArgument("Cannot set main to a tag: main must be a branch");
    auto it = m_.refs.find(u.ref_name);
    if (it != m_.refs.end() && SameRef(it->second, u.ref)) return Ok();
    m_.refs[u.ref_name] = u.ref;
    if (u.ref_name == kMainBranch) {
      m_.current_snapshot_id = u.ref.snapshot_id;
      // A snapshot committed in this change became current when it was made; an older one
      // becomes current now (a rollback), which Build knows.
      bool added_here = b_.added_snapshot_ids_.contains(u.ref.snapshot_id);
      m_.snapshot_log.push_back({added_here ? snapshot->timestamp_ms : kPendingTimestamp, u.ref.snapshot_id});
      b_.main_history_.push_back(u.ref.snapshot_id);
    }
    return Changed();
  }

  Status operator()(const RemoveSnapshots& u) {
    std::set<int64_t> removed;
    std::set<int64_t> wanted(u.snapshot_ids.begin(), u.snapshot_ids.end());
    std::erase_if(m_.snapshots, [&](const Snapshot& s) {
      if (!wanted.contains(s.snapshot_id)) return false;
      removed.insert(s.snapshot_id);
      return true;
    });
    if (removed.empty()) return Ok();
    // Refs to removed snapshots go with them; a removed main leaves the table without a
    // current snapshot.
    for (auto it = m_.refs.begin(); it != m_.refs.end();) {
      if (removed.contains(it->second.snapshot_id)) {
        if (it->first == kMainBranch) m_.current_snapshot_id.reset();
        it = m_.refs.erase(it);
      } else {
        ++it;
      }
    }
    std::erase_if(m_.statistics, [&](const StatisticsFile& f) { return removed.contains(f.snapshot_id); });
    std::erase_if(m_.partition_statistics,
                  [&](const PartitionStatisticsFile& f) { return removed.contains(f.snapshot_id); });
    for (int64_t id : removed) b_.added_snapshot_ids_.erase(id);
    b_.removed_snapshots_ = true;
    return Changed();
  }

  Status operator()(const RemoveSnapshotRef& u) {
    auto it = m_.refs.find(u.ref_name);
    if (it == m_.refs.end()) return Ok();
    m_.refs.erase(it);
    if (u.ref_name == kMainBranch) m_.current_snapshot_id.reset();
    return Changed();
  }

  Status operator()(const SetLocation& u) {
    if (u.location.empty()) return InvalidArgument("Cannot set an empty table location");
    if (u.location == m_.location) return Ok();
    m_.location = u.location;
    return Changed();
  }

  Status operator()(const SetProperties& u) {
    for (const auto& [k, v] : u.updates) FLOE_RETURN_IF_ERROR(CheckPropertyValue(k, v));
    for (const auto& [k, v] : u.updates) {
      auto it = m_.properties.find(k);
      if (it != m_.properties.end() && it->second == v) continue;
      m_.properties[k] = v;
      b_.changed_ = true;
    }
    return Ok();
  }

  Status operator()(const RemoveProperties& u) {
    for (const auto& k : u.removals)
      if (m_.properties.erase(k)) b_.changed_ = true;
    return Ok();
  }

  Status operator()(const SetStatistics& u) {
    std::erase_if(m_.statistics, [&](const StatisticsFile& f) { return f.snapshot_id == u.statistics.snapshot_id; });
    m_.statistics.push_back(u.statistics);
    return Changed();
  }

  Status operator()(const RemoveStatistics& u) {
    if (std::erase_if(m_.statistics, [&](const StatisticsFile& f) { return f.snapshot_id == u.snapshot_id; }))
      b_.changed_ = true;
    return Ok();
  }

  Status operator()(const SetPartitionStatistics& u) {
    std::erase_if(m_.partition_statistics, [&](const PartitionStatisticsFile& f) {
      return f.snapshot_id == u.partition_statistics.snapshot_id;
    });
    m_.partition_statistics.push_back(u.partition_statistics);
    return Changed();
  }

  Status operator()(const RemovePartitionStatistics& u) {
    if (std::erase_if(m_.partition_statistics,
                      [&](const PartitionStatisticsFile& f) { return f.snapshot_id == u.snapshot_id; }))
      b_.changed_ = true;
    return Ok();
  }

  Status operator()(const RemovePartitionSpecs& u) {
    for (int id : u.spec_ids)
      if (id == m_.default_spec_id) return InvalidArgument("Cannot remove the default partition spec: " + Str(id));
    std::set<int> ids(u.spec_ids.begin(), u.spec_ids.end());
    if (std::erase_if(m_.partition_specs, [&](const PartitionSpec& s) { return ids.contains(s.spec_id()); }))
      b_.changed_ = true;
    return Ok();
  }

  Status operator()(const RemoveSchemas& u) {
    for (int id : u.schema_ids)
      if (id == m_.current_schema_id) return InvalidArgument("Cannot remove current schema: " + Str(id));
    std::set<int> ids(u.schema_ids.begin(), u.schema_ids.end());
    if (std::erase_if(m_.schemas, [&](const Schema& s) { return ids.contains(s.schema_id()); })) b_.changed_ = true;
    return Ok();
  }

 private:
  Status Changed() {
    b_.changed_ = true;
    return Ok();
  }

  MetadataBuilder& b_;
  TableMetadata& m_;
};

MetadataBuilder MetadataBuilder::From(TableMetadata base, std::string base_location) {
  MetadataBuilder b;
  if (!base_location.empty()) b.base_location_ = std::move(base_location);
  b.base_last_updated_ms_ = base.last_updated_ms;
  b.previous_main_snapshot_ = base.current_snapshot_id.value_or(-1);
  b.metadata_ = std::move(base);
  return b;
}

MetadataBuilder MetadataBuilder::ForNewTable(int format_version) {
  MetadataBuilder b;
  b.new_table_ = true;
  TableMetadata& m = b.metadata_;
  m.format_version = format_version;
  // Nothing is current until the creating updates say so.
  m.current_schema_id = -1;
  m.default_spec_id = -1;
  m.default_sort_order_id = -1;
  m.last_partition_id = PartitionSpec::kFirstFieldId - 1;
  if (format_version >= 3) m.next_row_id = 0;
  if (format_version < 1 || format_version > kMaxFormatVersion)
    b.error_ = Error{ErrorKind::kInvalidArgument, "Unsupported format version for a new table: v" + Str(format_version)};
  return b;
}

Status MetadataBuilder::Apply(const TableUpdate& update) {
  if (error_) return std::unexpected(*error_);
  // Every update validates before it writes. Should one still fail halfway, the builder is
  // spent anyway, so its state is never seen.
  MetadataBuilderAccess access(*this);
  Status st = std::visit(access, update);
  if (!st) {
    Error e = st.error();
    e.kind = ErrorKind::kInvalidArgument;
    error_ = e.WithContext(UpdateName(update));
    return std::unexpected(*error_);
  }
  return Ok();
}

Status MetadataBuilder::ApplyAll(const std::vector<TableUpdate>& updates) {
  for (const auto& u : updates) FLOE_RETURN_IF_ERROR(Apply(u));
  return Ok();
}

Result<TableMetadata> MetadataBuilder::Build(int64_t now_ms) {
  if (error_) return std::unexpected(*error_);
  // The builder builds once: moving the document out spares a copy of the whole history.
  error_ = Error{ErrorKind::kInvalidArgument, "this metadata builder has already built its document"};
  if (!new_table_ && !changed_) return std::move(metadata_);  // nothing changed: the base, as it was
  TableMetadata m = std::move(metadata_);
  if (new_table_) {
    if (m.table_uuid.empty()) m.table_uuid = RandomUuidString();
    // A table created without a spec or order is unpartitioned and unsorted.
    if (m.partition_specs.empty()) {
      m.partition_specs.push_back(PartitionSpec::Unpartitioned());
      m.default_spec_id = 0;
    }
    if (m.sort_orders.empty()) {
      m.sort_orders.push_back(SortOrder::Unsorted());
      m.default_sort_order_id = 0;
    }
  }
  // Clocks of different writers disagree; time must still not run backwards in one table.
  int64_t updated = std::max(now_ms, base_last_updated_ms_.value_or(now_ms));

  m.snapshot_log = builder_internal::FinishSnapshotLog(m, main_history_, added_snapshot_ids_, removed_snapshots_, updated);
  if (!m.snapshot_log.empty()) updated = std::max(updated, m.snapshot_log.back().timestamp_ms);
  m.last_updated_ms = updated;
  if (base_location_) builder_internal::AppendMetadataLog(m, base_last_updated_ms_.value_or(0), *base_location_);
  FLOE_RETURN_IF_ERROR(m.Validate());
  FLOE_RETURN_IF_ERROR(builder_internal::CheckDefaultsFitSchema(m));
  FLOE_RETURN_IF_ERROR(builder_internal::CheckFieldDefaultsNeedV3(m, added_schema_ids_));
  return m;
}

}  // namespace floe
