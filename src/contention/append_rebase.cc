#include "contention/append_rebase.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "catalog/commit.h"
#include "commit/row_id_assignment.h"
#include "commit/snapshot_lineage.h"
#include "commit/manifest_output.h"
#include "table_files/manifest_io.h"
#include "util/uuid.h"
#include "table_files/metadata_location.h"

namespace floe {
namespace {

// The append's two updates, when the commit is exactly add-snapshot + set-snapshot-ref of a
// branch to that snapshot.
struct AppendShape {
  const Snapshot* snapshot = nullptr;
  const SetSnapshotRef* ref = nullptr;
  const AssertRefSnapshotId* asserted = nullptr;
};

std::optional<AppendShape> ShapeOf(const TableCommit& commit) {
  if (commit.updates.size() != 2) return std::nullopt;
  AppendShape shape;
  for (const auto& u : commit.updates) {
    if (auto* add = std::get_if<AddSnapshot>(&u)) shape.snapshot = &add->snapshot;
    if (auto* set = std::get_if<SetSnapshotRef>(&u)) shape.ref = set;
  }
  if (!shape.snapshot || !shape.ref) return std::nullopt;
  if (shape.ref->ref.type != RefType::kBranch || shape.ref->ref.snapshot_id != shape.snapshot->snapshot_id) {
    return std::nullopt;
  }
  for (const auto& r : commit.requirements) {
    auto* a = std::get_if<AssertRefSnapshotId>(&r);
    if (a && a->ref == shape.ref->ref_name) shape.asserted = a;
  }
  if (!shape.asserted || shape.asserted->snapshot_id != shape.snapshot->parent_snapshot_id) return std::nullopt;
  return shape;
}

// The server reads files a request names only where the table keeps its own (invariant 8):
// under its location or its metadata folder.
bool InsideTable(const TableMetadata& table, const std::string& path) {
  for (std::string folder : {table.location, MetadataFolder(table)}) {
    while (!folder.empty() && folder.back() == '/') folder.pop_back();
    if (!folder.empty() && path.size() > folder.size() + 1 && path.compare(0, folder.size() + 1, folder + "/") == 0 &&
        path.find("/../") == std::string::npos) {
      return true;
    }
  }
  return false;
}

Result<std::vector<ManifestFile>> ManifestsOf(FileIO& io, const Snapshot* snapshot) {
  if (!snapshot) return std::vector<ManifestFile>{};
  if (snapshot->manifest_list.empty()) return NotSupported("snapshot " + std::to_string(snapshot->snapshot_id) + " has no manifest list");
  FLOE_ASSIGN_OR_RETURN(std::string bytes, io.ReadAll(snapshot->manifest_list));
  FLOE_ASSIGN_OR_RETURN(ManifestListContents list, ReadManifestList(bytes, snapshot->manifest_list));
  return std::move(list.manifests);
}

// A file the request named (its manifest list, its manifests) that cannot be read is bad input:
// InvalidArgument naming it, never NotFound (a client takes that as "the table is gone") or
// Corrupt (a server fault). A storage failure stays what it is: that is not the request's fault.
Error RequestFileError(std::string_view what, const std::string& path, const Error& error) {
  if (error.kind == ErrorKind::kIOError || error.kind == ErrorKind::kUnavailable) return error;
  std::string shown = path.substr(0, 300);
  if (error.kind == ErrorKind::kNotFound) {
    return Error{ErrorKind::kInvalidArgument, "the append's " + std::string(what) + " " + shown + " does not exist"};
  }
  return Error{ErrorKind::kInvalidArgument, "the append's " + std::string(what) + " " + shown + " is not readable: " +
                                                error.message.substr(0, 300)};
}

// Whether a manifest the append lists beyond the old head's only adds data files of its own
// snapshot whose sequence numbers are left to be inherited.
Result<bool> OnlyAddsOwnFiles(FileIO& io, const TableMetadata& table, const ManifestFile& m, int64_t snapshot_id) {
  if (!InsideTable(table, m.manifest_path) || m.added_snapshot_id != snapshot_id || m.content != ManifestContent::kData || m.has_existing_files() ||
      m.has_deleted_files()) {
    return false;
  }
  FLOE_ASSIGN_OR_RETURN(std::string bytes, io.ReadAll(m.manifest_path));
  ManifestReadOptions options;
  options.table = &table;  // no list entry: null snapshot ids and sequence numbers stay null
  FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(bytes, m.manifest_path, options));
  ManifestEntry entry;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&entry));
    if (!more) return true;
    if (entry.status != EntryStatus::kAdded || entry.file.content != FileContent::kData) return false;
    if (entry.snapshot_id && *entry.snapshot_id != snapshot_id) return false;
    if (entry.sequence_number || entry.file_sequence_number) return false;
  }
}

// Whether a manifest lists no live file: every entry is DELETED (read from the manifest, not
// taken from the list's counts). Writers leave such manifests of their base out of their own
// list (Iceberg Java and PyIceberg do on every commit): the table's files are the same without.
Result<bool> ListsNoLiveFile(FileIO& io, const TableMetadata& table, const ManifestFile& m) {
  if (m.has_added_files() || m.has_existing_files() || !InsideTable(table, m.manifest_path)) return false;
  FLOE_ASSIGN_OR_RETURN(std::string bytes, io.ReadAll(m.manifest_path));
  ManifestReadOptions options;
  options.table = &table;
  FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(bytes, m.manifest_path, options));
  ManifestEntry entry;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&entry));
    if (!more) return true;
    if (entry.status != EntryStatus::kDeleted) return false;
  }
}

// A manifest the append wrote by merging (Iceberg Java's MergeAppend, once a table has
// commit.manifest.min-count-to-merge manifests): its own ADDED files beside EXISTING entries
// carried over from manifests of its base that it then left out of its list.
struct MergedManifest {
  std::vector<ManifestEntry> added;   // the append's own files, their sequence numbers inherited
  std::set<std::string> carried;      // paths of the EXISTING entries
};

// The manifest read as a merge of `snapshot_id`'s, or nullopt when it is anything else: it
// must be the append's own data manifest, inside the table, with no DELETED entry (an append
// removes nothing), every ADDED entry the append's own with its sequence numbers left to be
// inherited, every EXISTING entry an earlier snapshot's with its sequence numbers set.
Result<std::optional<MergedManifest>> ReadMerged(FileIO& io, const TableMetadata& table, const ManifestFile& m,
                                                 int64_t snapshot_id) {
  const std::optional<MergedManifest> no;
  if (!InsideTable(table, m.manifest_path) || m.added_snapshot_id != snapshot_id || m.content != ManifestContent::kData ||
      m.has_deleted_files()) {
    return no;
  }
  FLOE_ASSIGN_OR_RETURN(std::string bytes, io.ReadAll(m.manifest_path));
  ManifestReadOptions options;
  options.table = &table;  // no list entry: what the writer left null stays null
  FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(bytes, m.manifest_path, options));
  MergedManifest merged;
  ManifestEntry entry;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&entry));
    if (!more) return std::optional<MergedManifest>(std::move(merged));
    if (entry.file.content != FileContent::kData) return no;
    if (entry.status == EntryStatus::kAdded) {
      if (entry.snapshot_id && *entry.snapshot_id != snapshot_id) return no;
      if (entry.sequence_number || entry.file_sequence_number) return no;
      merged.added.push_back(entry);
    } else if (entry.status == EntryStatus::kExisting) {
      if (!entry.snapshot_id || *entry.snapshot_id == snapshot_id || !entry.sequence_number) return no;
      merged.carried.insert(entry.file.file_path);
    } else {
      return no;
    }
  }
}

// Whether every live file of `m` (a manifest of the append's base it left out) is among
// `carried`: the append merged it rather than dropping any of its files.
Result<bool> CarriedOver(FileIO& io, const TableMetadata& table, const ManifestFile& m,
                         const std::set<std::string>& carried) {
  if (carried.empty()) return false;
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestEntries(io, table, m));
  for (const auto& entry : entries) {
    if (entry.status != EntryStatus::kDeleted && !carried.count(entry.file.file_path)) return false;
  }
  return true;
}

bool FieldsReadable(const std::vector<NestedField>& current, const Type* written);

bool FieldReadable(const NestedField& field, const NestedField* written) {
  if (!written) return !field.required;  // a new column: files have none, so it must be optional
  if (field.type->is_primitive() || written->type->is_primitive()) return field.type->Equals(*written->type);
  if (field.type->id() != written->type->id()) return false;
  return FieldsReadable(field.type->fields(), written->type.get());
}

bool FieldsReadable(const std::vector<NestedField>& current, const Type* written) {
  for (const auto& field : current) {
    if (!FieldReadable(field, written->FieldById(field.id))) return false;
  }
  return true;
}

std::optional<int64_t> Number(const std::map<std::string, std::string>& summary, const std::string& key) {
  auto it = summary.find(key);
  if (it == summary.end()) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
  if (ec != std::errc() || end != it->second.data() + it->second.size()) return std::nullopt;
  return value;
}

// total-* keys: the new head's totals plus what the append added over the head it was built on.
// A total either head lacks is dropped (Iceberg leaves unknown totals out).
void RebaseTotals(std::map<std::string, std::string>& summary, const Snapshot* old_head, const Snapshot* new_head) {
  static const std::map<std::string, std::string> kNone;
  const auto& before = old_head ? old_head->summary : kNone;
  const auto& now = new_head ? new_head->summary : kNone;
  for (auto it = summary.begin(); it != summary.end();) {
    if (it->first.rfind("total-", 0) != 0) {
      ++it;
      continue;
    }
    auto mine = Number(summary, it->first);
    auto was = old_head ? Number(before, it->first) : std::optional<int64_t>(0);
    auto is = new_head ? Number(now, it->first) : std::optional<int64_t>(0);
    if (!mine || !was || !is) {
      it = summary.erase(it);
      continue;
    }
    it->second = std::to_string(*is + (*mine - *was));
    ++it;
  }
}

}  // namespace

bool SchemaReadsFilesOf(const Schema& current, const Schema& written) {
  return FieldsReadable(current.fields(), written.AsStruct().get());
}

Result<std::optional<RebasedAppend>> RebaseAppend(FileIO& io, const TableMetadata& current, const TableCommit& commit,
                                                  const ManifestListNamer& namer) {
  const std::optional<RebasedAppend> no;
  auto shape = ShapeOf(commit);
  if (!shape || current.format_version < 2) return no;
  const Snapshot& mine = *shape->snapshot;
  if (mine.operation() != "append" || current.SnapshotById(mine.snapshot_id) ||
      !InsideTable(current, mine.manifest_list)) {
    return no;
  }
  // Every requirement but the branch's still holds.
  for (const auto& r : commit.requirements) {
    if (std::get_if<AssertRefSnapshotId>(&r) == shape->asserted) continue;
    if (!CheckRequirement(r, &current)) return no;
  }
  const std::string& branch = shape->ref->ref_name;
  auto ref = current.refs.find(branch);
  if (ref != current.refs.end() && ref->second.type != RefType::kBranch) return no;
  const Snapshot* new_head = ref == current.refs.end() ? nullptr : current.SnapshotById(ref->second.snapshot_id);
  if (ref != current.refs.end() && !new_head) return no;
  const Snapshot* old_head = nullptr;
  if (shape->asserted->snapshot_id) {
    old_head = current.SnapshotById(*shape->asserted->snapshot_id);
    if (!old_head) return no;  // expired meanwhile: the append's base is unknown
    if (ref == current.refs.end()) return no;  // the branch was removed: not re-created here
  }
  if (auto key = mine.summary.find(IdempotencyKeyProperty(current));
      key != mine.summary.end() && FindIdempotentSnapshot(current, branch, key->second)) {
    return no;  // landed already (another attempt of the same write)
  }
  // The files' schema must still read under the current one.
  const int written_schema = mine.schema_id.value_or(current.current_schema_id);
  const Schema* written = current.SchemaById(written_schema);
  if (!written || !SchemaReadsFilesOf(current.CurrentSchema(), *written)) return no;

  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> old_manifests, ManifestsOf(io, old_head));
  auto my_list = ManifestsOf(io, &mine);
  if (!my_list) return std::unexpected(RequestFileError("manifest list", mine.manifest_list, my_list.error()));
  std::vector<ManifestFile> my_manifests = std::move(*my_list);
  std::set<std::string> in_old, in_mine;
  for (const auto& m : old_manifests) in_old.insert(m.manifest_path);
  for (const auto& m : my_manifests) in_mine.insert(m.manifest_path);
  std::vector<ManifestFile> added;
  // The append's own files found in manifests it merged, by partition spec: the EXISTING
  // entries beside them are left behind (the new head lists whichever of those files are still
  // live), so they are written again, alone, in a manifest of the rebase's.
  std::map<int, std::vector<ManifestEntry>> merged_added;
  std::set<std::string> carried;
  for (const auto& m : my_manifests) {
    if (in_old.count(m.manifest_path)) continue;
    auto only_adds = OnlyAddsOwnFiles(io, current, m, mine.snapshot_id);
    if (!only_adds) return std::unexpected(RequestFileError("manifest", m.manifest_path, only_adds.error()));
    if (!current.SpecById(m.partition_spec_id)) return no;
    if (*only_adds) {
      added.push_back(m);
      continue;
    }
    auto merged = ReadMerged(io, current, m, mine.snapshot_id);
    if (!merged) return std::unexpected(RequestFileError("manifest", m.manifest_path, merged.error()));
    if (!*merged) return no;
    auto& own = merged_added[m.partition_spec_id];
    own.insert(own.end(), (*merged)->added.begin(), (*merged)->added.end());
    carried.merge((*merged)->carried);
  }
  for (const auto& m : old_manifests) {
    if (in_mine.count(m.manifest_path)) continue;
    // A manifest of the old head left out: only one without live files may be, or one whose
    // live files the append carried into a merged manifest (else the append dropped or rewrote
    // files and must be validated by its writer).
    FLOE_ASSIGN_OR_RETURN(bool dead, ListsNoLiveFile(io, current, m));
    if (dead) continue;
    FLOE_ASSIGN_OR_RETURN(bool merged_in, CarriedOver(io, current, m, carried));
    if (!merged_in) return no;
  }

  RebasedAppend out;
  for (auto& [spec_id, entries] : merged_added) {
    if (entries.empty()) continue;
    std::string path;
    if (namer) {
      FLOE_ASSIGN_OR_RETURN(path, namer(current, mine.snapshot_id));
    } else {
      path = MetadataFolder(current) + "/" + RandomUuidString() + "-m-rebased.avro";
    }
    FLOE_ASSIGN_OR_RETURN(ManifestFile own, WriteManifestFile(io, current, spec_id, ManifestContent::kData, entries, path));
    out.written.push_back(path);
    own.manifest_path = path;
    own.partition_spec_id = spec_id;
    own.content = ManifestContent::kData;
    own.added_snapshot_id = mine.snapshot_id;
    added.push_back(std::move(own));
  }
  out.snapshot_id = mine.snapshot_id;
  out.sequence_number = current.last_sequence_number + 1;
  FLOE_ASSIGN_OR_RETURN(std::vector<ManifestFile> manifests, ManifestsOf(io, new_head));
  for (ManifestFile m : added) {
    m.sequence_number = out.sequence_number;
    m.min_sequence_number = out.sequence_number;
    // Its files only add rows (OnlyAddsOwnFiles), each with an inherited id: the range the
    // writer claimed on its base is claimed again on this one.
    m.first_row_id.reset();
    manifests.push_back(std::move(m));
  }
  std::optional<RowIdRange> row_ids;
  if (current.format_version >= 3) row_ids = AssignRowIds(current, manifests);
  std::optional<int64_t> parent;
  if (new_head) parent = new_head->snapshot_id;
  if (namer) {
    FLOE_ASSIGN_OR_RETURN(out.manifest_list, namer(current, mine.snapshot_id));
  } else {
    out.manifest_list = MetadataFolder(current) + "/snap-" + std::to_string(mine.snapshot_id) + "-rebased-" +
                        RandomUuidString() + ".avro";
  }
  FLOE_RETURN_IF_ERROR(
      WriteManifestListFile(io, current, manifests, mine.snapshot_id, parent, out.sequence_number, out.manifest_list,
                            row_ids ? std::optional<int64_t>(row_ids->first_row_id) : std::nullopt));
  out.written.push_back(out.manifest_list);

  Snapshot rebased = mine;
  rebased.parent_snapshot_id = parent;
  rebased.sequence_number = out.sequence_number;
  rebased.manifest_list = out.manifest_list;
  if (row_ids) {
    rebased.first_row_id = row_ids->first_row_id;
    rebased.added_rows = row_ids->added_rows;
  }
  rebased.schema_id = current.current_schema_id;
  if (new_head) rebased.timestamp_ms = std::max(rebased.timestamp_ms, new_head->timestamp_ms);
  RebaseTotals(rebased.summary, old_head, new_head);
  for (const auto& r : commit.requirements) {
    if (std::get_if<AssertRefSnapshotId>(&r) == shape->asserted) {
      out.requirements.push_back(AssertRefSnapshotId{branch, parent});
    } else {
      out.requirements.push_back(r);
    }
  }
  out.updates.push_back(AddSnapshot{std::move(rebased)});
  out.updates.push_back(*shape->ref);
  return std::optional<RebasedAppend>(std::move(out));
}

}  // namespace floe
