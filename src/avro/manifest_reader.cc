#include "avro/manifest_reader.h"

#include <algorithm>
#include <charconv>
#include <mutex>

#include "avro/avro_file.h"
#include "avro/iceberg_avro.h"
#include "avro/manifest_schema.h"
#include "avro/partition_summary.h"
#include "avro/record_reading.h"
#include "meta/metadata_json.h"
#include "util/warning.h"

namespace floe {

using avro::Decoder;
using avro::FieldPlan;
using avro::KnownField;
using avro::Node;
using avro::NodeKind;
using avro::Shape;

namespace {

enum EntryAction { kStatus, kSnapshotId, kSequenceNumber, kFileSequenceNumber, kDataFile };

enum FileAction {
  kContent, kFilePath, kFileFormat, kPartition, kRecordCount, kFileSize, kColumnSizes, kValueCounts,
  kNullValueCounts, kNanValueCounts, kLowerBounds, kUpperBounds, kKeyMetadata, kSplitOffsets, kEqualityIds,
  kSortOrderId, kFirstRowId, kReferencedDataFile, kContentOffset, kContentSize,
};

const std::vector<KnownField>& EntryFields() {
  static const std::vector<KnownField> k = {
      {avro::ids::kStatus, "status", Shape::kInteger, kStatus},
      {avro::ids::kSnapshotId, "snapshot_id", Shape::kInteger, kSnapshotId},
      {avro::ids::kSequenceNumber, "sequence_number", Shape::kInteger, kSequenceNumber},
      {avro::ids::kFileSequenceNumber, "file_sequence_number", Shape::kInteger, kFileSequenceNumber},
      {avro::ids::kDataFile, "data_file", Shape::kRecord, kDataFile},
  };
  return k;
}

const std::vector<KnownField>& DataFileFields() {
  namespace ids = avro::ids;
  static const std::vector<KnownField> k = {
      {ids::kContent, "content", Shape::kInteger, kContent},
      {ids::kFilePath, "file_path", Shape::kString, kFilePath},
      {ids::kFileFormat, "file_format", Shape::kString, kFileFormat},
      {ids::kPartition, "partition", Shape::kRecord, kPartition},
      {ids::kRecordCount, "record_count", Shape::kInteger, kRecordCount},
      {ids::kFileSizeInBytes, "file_size_in_bytes", Shape::kInteger, kFileSize},
      {ids::kColumnSizes, "column_sizes", Shape::kIntLongMap, kColumnSizes},
      {ids::kValueCounts, "value_counts", Shape::kIntLongMap, kValueCounts},
      {ids::kNullValueCounts, "null_value_counts", Shape::kIntLongMap, kNullValueCounts},
      {ids::kNanValueCounts, "nan_value_counts", Shape::kIntLongMap, kNanValueCounts},
      {ids::kLowerBounds, "lower_bounds", Shape::kIntBytesMap, kLowerBounds},
      {ids::kUpperBounds, "upper_bounds", Shape::kIntBytesMap, kUpperBounds},
      {ids::kKeyMetadata, "key_metadata", Shape::kBytes, kKeyMetadata},
      {ids::kSplitOffsets, "split_offsets", Shape::kIntegerList, kSplitOffsets},
      {ids::kEqualityIds, "equality_ids", Shape::kIntegerList, kEqualityIds},
      {ids::kSortOrderId, "sort_order_id", Shape::kInteger, kSortOrderId},
      {ids::kFirstRowId, "first_row_id", Shape::kInteger, kFirstRowId},
      {ids::kReferencedDataFile, "referenced_data_file", Shape::kString, kReferencedDataFile},
      {ids::kContentOffset, "content_offset", Shape::kInteger, kContentOffset},
      {ids::kContentSizeInBytes, "content_size_in_bytes", Shape::kInteger, kContentSize},
  };
  return k;
}

std::optional<int64_t> ParseInt(const std::string* text) {
  if (!text) return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || p != text->data() + text->size()) return std::nullopt;
  return v;
}

bool HasFieldId(const Node& record, int id) {
  for (const auto& f : record.fields) {
    if (f.field_id && *f.field_id == id) return true;
  }
  return false;
}

// One field of the writer's partition record: where its value goes in the tuple.
struct PartitionSlot {
  int index = -1;  // -1: not in the reader's partition type; skipped
  const Node* node = nullptr;
};

}  // namespace

struct ManifestLayout {
  std::shared_ptr<const avro::Schema> schema;  // the plans' nodes live here
  ManifestInfo info;
  std::vector<FieldPlan> entry_plan, file_plan;
  std::vector<PartitionSlot> partition_plan;
  // The writer's partition fields are the reader's, in the reader's order (what every writer
  // of the table's own spec writes): values are appended as decoded, no placeholders first.
  bool partition_in_order = false;
};

struct ManifestHeaderCache::Impl {
  avro::SchemaCache schemas;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const ManifestLayout>, std::less<>> layouts;
};

ManifestHeaderCache::ManifestHeaderCache() : impl_(std::make_unique<Impl>()) {}
ManifestHeaderCache::~ManifestHeaderCache() = default;

struct ManifestReader::State {
  avro::FileReader file;
  std::shared_ptr<const ManifestLayout> layout;
  std::optional<ManifestFile> manifest;  // for inheritance
  Decoder block;
  int64_t left_in_block = 0;
  int64_t entry_index = 0;
  int64_t next_row_offset = 0;  // v3 first_row_id inheritance
  std::optional<std::vector<int>> metric_ids;  // sorted; absent = all
  Decoder last_entry;  // where the entry Next returned last starts

  std::unexpected<Error> Fail(std::string_view what) const {
    return file.CorruptError("entry " + std::to_string(entry_index) + ": " + std::string(what));
  }
};

ManifestReader::ManifestReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
ManifestReader::ManifestReader(ManifestReader&&) noexcept = default;
ManifestReader& ManifestReader::operator=(ManifestReader&&) noexcept = default;
ManifestReader::~ManifestReader() = default;
const ManifestInfo& ManifestReader::info() const { return state_->layout->info; }

namespace {

// Works out version, content, spec, schema and partition type from the header, the caller's
// manifest list entry and table, in that order of preference.
Status ResolveInfo(const avro::FileReader& file, const Node& data_file, const Node* partition_node,
                   const ManifestReadOptions& options, bool entry_has_sequence_numbers, ManifestInfo* info) {
  auto where = [&](std::string_view what) { return Corrupt(file.path() + ": " + std::string(what)); };
  for (const auto& [k, v] : file.metadata()) {
    if (k.rfind("avro.", 0) != 0) info->metadata[k] = v;
  }
  if (auto v = ParseInt(file.Meta("format-version"))) {
    info->format_version = static_cast<int>(*v);
  } else {
    info->format_version = entry_has_sequence_numbers || HasFieldId(data_file, avro::ids::kContent) ? 2 : 1;
  }
  if (const std::string* c = file.Meta("content")) {
    info->content = *c == "deletes" ? ManifestContent::kDeletes : ManifestContent::kData;
  } else if (options.manifest) {
    info->content = options.manifest->content;
  }
  const TableMetadata* table = options.table;
  if (auto v = ParseInt(file.Meta("partition-spec-id"))) {
    info->spec_id = static_cast<int>(*v);
  } else if (options.manifest) {
    info->spec_id = options.manifest->partition_spec_id;
  } else if (table) {
    info->spec_id = table->default_spec_id;
  }

  const bool have_table_schema = table && !table->schemas.empty();
  bool have_schema = false;
  if (const std::string* s = file.Meta("schema")) {
    nlohmann::json j = nlohmann::json::parse(*s, nullptr, false);
    auto schema = j.is_discarded() ? Result<Schema>(InvalidArgument("not JSON")) : SchemaFromJson(j);
    if (schema) {
      info->schema = std::move(*schema);
      have_schema = true;
    } else if (!have_table_schema) {
      return where("bad 'schema' metadata: " + schema.error().message);
    } else {
      // DuckDB 1.4 writes the manifest entry's own Avro-like schema under this key. The table's
      // schema is what Java reads a manifest with whenever it knows the table: so does floe.
      Warn("manifests whose 'schema' metadata is not an Iceberg table schema are read with the table's schema");
    }
  }
  if (!have_schema && have_table_schema) {
    const Schema* schema = nullptr;
    if (auto id = ParseInt(file.Meta("schema-id"))) schema = table->SchemaById(static_cast<int>(*id));
    info->schema = schema ? *schema : table->CurrentSchema();
  }
  bool have_spec = false;
  if (const std::string* s = file.Meta("partition-spec")) {
    nlohmann::json j = nlohmann::json::parse(*s, nullptr, false);
    if (j.is_discarded()) return where("the 'partition-spec' metadata is not JSON");
    auto spec = PartitionSpecFromJson(j, info->spec_id);
    if (!spec) return where("bad 'partition-spec' metadata: " + spec.error().message);
    info->spec = PartitionSpec(info->spec_id, spec->fields());
    have_spec = true;
  } else if (table) {
    if (const PartitionSpec* spec = table->SpecById(info->spec_id)) {
      info->spec = *spec;
      have_spec = true;
    }
  }
  if (have_spec && info->schema) {
    auto type = info->spec.PartitionType(*info->schema);
    if (type) info->partition_type = *type;
  }
  if (!info->partition_type) {
    // Type the tuple from the Avro schema: what the writer wrote is all there is to go on.
    std::vector<NestedField> fields;
    if (partition_node) {
      int next_id = PartitionSpec::kFirstFieldId;
      for (const auto& f : partition_node->fields) {
        const Node* value = avro::ValueNode(f.node);
        auto type = avro::IcebergTypeOf(*value);
        if (!type) return where("partition field '" + f.name + "': " + type.error().message);
        fields.push_back(NestedField{f.field_id.value_or(next_id), f.name, *type, false, ""});
        next_id = fields.back().id + 1;
      }
    }
    info->partition_type = Type::Struct(std::move(fields));
  }
  return Ok();
}

}  // namespace

Result<ManifestReader> ManifestReader::Open(std::string_view bytes, std::string_view path,
                                            const ManifestReadOptions& options) {
  try {
    return OpenImpl(bytes, path, options);
  } catch (const std::exception& e) {  // e.g. bad_alloc: no exception leaves the library
    return Corrupt(std::string(path) + ": " + e.what());
  }
}

namespace {

// Matches the writer's schema to the spec's fields and resolves the header: everything about a
// manifest that its header alone decides.
Result<std::shared_ptr<const ManifestLayout>> ResolveLayout(const avro::FileReader& file, std::string_view path,
                                                            const ManifestReadOptions& options) {
  auto where = [&](std::string_view what) { return Corrupt(std::string(path) + ": " + std::string(what)); };
  const Node& root = file.schema().root();
  if (root.kind != NodeKind::kRecord) return where("not a manifest: the Avro schema is not a record");
  std::vector<int> present;
  auto entry_plan = avro::PlanRecord(root, EntryFields(), &present);
  if (!entry_plan) return where("not a manifest: " + entry_plan.error().message);
  const avro::Field* data_file = nullptr;
  for (const auto& f : root.fields) {
    if (f.field_id ? *f.field_id == avro::ids::kDataFile : f.name == "data_file") data_file = &f;
  }
  if (!data_file) return where("not a manifest: no data_file field");
  bool has_status = std::find(present.begin(), present.end(), kStatus) != present.end();
  if (!has_status) return where("not a manifest: no status field");
  bool has_seq = std::find(present.begin(), present.end(), kSequenceNumber) != present.end();

  const Node& df_node = *avro::ValueNode(data_file->node);
  std::vector<int> file_present;
  auto file_plan = avro::PlanRecord(df_node, DataFileFields(), &file_present);
  if (!file_plan) return where(file_plan.error().message);
  for (int required : {kFilePath, kFileFormat, kRecordCount, kFileSize}) {
    if (std::find(file_present.begin(), file_present.end(), required) == file_present.end()) {
      return where("data_file lacks required field " + std::string(DataFileFields()[required].name));
    }
  }
  const Node* partition_node = nullptr;
  for (const auto& p : *file_plan) {
    if (p.action == kPartition) partition_node = avro::ValueNode(p.node);
  }

  auto layout = std::make_shared<ManifestLayout>();
  layout->schema = file.shared_schema();
  layout->entry_plan = std::move(*entry_plan);
  layout->file_plan = std::move(*file_plan);
  FLOE_RETURN_IF_ERROR(ResolveInfo(file, df_node, partition_node, options, has_seq, &layout->info));
  if (partition_node) {
    const auto& pfields = layout->info.partition_type->fields();
    for (const auto& f : partition_node->fields) {
      PartitionSlot slot;
      slot.node = f.node;
      for (size_t i = 0; i < pfields.size(); ++i) {
        bool same = f.field_id ? *f.field_id == pfields[i].id : (f.name == pfields[i].name || f.name == avro::AvroName(pfields[i].name));
        if (same) slot.index = static_cast<int>(i);
      }
      if (slot.index >= 0) {
        const Node* value = avro::ValueNode(f.node);
        if (value->kind == NodeKind::kUnion) return where("partition field '" + f.name + "' is a union of several types");
      }
      layout->partition_plan.push_back(slot);
    }
    const auto& plan = layout->partition_plan;
    layout->partition_in_order = plan.size() == pfields.size();
    for (size_t i = 0; i < plan.size(); ++i) layout->partition_in_order &= plan[i].index == static_cast<int>(i);
  }
  return std::shared_ptr<const ManifestLayout>(std::move(layout));
}

}  // namespace

Result<std::shared_ptr<const ManifestLayout>> ManifestHeaderCache::Find(const avro::FileReader& file,
                                                                        std::string_view path,
                                                                        const ManifestReadOptions& options) {
  // What ResolveInfo reads besides the header: the list entry's content and spec id, the table.
  std::string key(file.metadata_bytes());
  if (const ManifestFile* m = options.manifest) {
    key += "|m" + std::to_string(static_cast<int>(m->content)) + "," + std::to_string(m->partition_spec_id);
  }
  key += options.table ? "|t" : "|-";
  {
    std::lock_guard lock(impl_->mu);
    auto it = impl_->layouts.find(key);
    // The same header text yields the same cached schema, so the plans' nodes are the reader's.
    if (it != impl_->layouts.end() && it->second->schema == file.shared_schema()) return it->second;
  }
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const ManifestLayout> layout, ResolveLayout(file, path, options));
  std::lock_guard lock(impl_->mu);
  if (impl_->layouts.size() < kMaxHeaders) impl_->layouts.emplace(std::move(key), layout);
  return layout;
}

Result<ManifestReader> ManifestReader::OpenImpl(std::string_view bytes, std::string_view path,
                                                const ManifestReadOptions& options) {
  ManifestHeaderCache* cache = options.header_cache;
  FLOE_ASSIGN_OR_RETURN(avro::FileReader file,
                        avro::FileReader::Open(bytes, path, cache ? &cache->impl_->schemas : nullptr, options.block_buffer));
  std::shared_ptr<const ManifestLayout> layout;
  if (cache) {
    FLOE_ASSIGN_OR_RETURN(layout, cache->Find(file, path, options));
  } else {
    FLOE_ASSIGN_OR_RETURN(layout, ResolveLayout(file, path, options));
  }
  auto state = std::make_unique<State>();
  state->file = std::move(file);
  state->layout = std::move(layout);
  if (options.manifest) state->manifest = *options.manifest;
  if (options.metric_field_ids) {
    state->metric_ids = *options.metric_field_ids;
    std::sort(state->metric_ids->begin(), state->metric_ids->end());
  }
  return ManifestReader(std::move(state));
}

namespace {

// Puts every field of `f` back to its default, as `f = DataFile()` would, without building and
// moving a temporary: entries are decoded into places that are mostly fresh already.
void ResetDataFile(DataFile& f) {
#if defined(__x86_64__) && defined(__GLIBCXX__)  // the size where it was counted; elsewhere no guard
  static_assert(sizeof(DataFile) == 216, "a field added to DataFile must be reset here too");
#endif
  f.content = FileContent::kData;
  f.file_path.clear();
  f.file_format = FileFormat::kParquet;
  f.spec_id = 0;
  f.partition.clear();
  f.record_count = 0;
  f.file_size_in_bytes = 0;
  f.column_sizes.clear();
  f.value_counts.clear();
  f.null_value_counts.clear();
  f.nan_value_counts.clear();
  f.lower_bounds.clear();
  f.upper_bounds.clear();
  f.key_metadata.reset();
  f.split_offsets.clear();
  f.equality_ids.clear();
  f.sort_order_id.reset();
  f.first_row_id.reset();
  f.referenced_data_file.reset();
  f.content_offset.reset();
  f.content_size_in_bytes.reset();
}

}  // namespace

// A long for an OptionalLong field (row id, blob offset or size), which cannot hold INT64_MIN:
// refused by name rather than read back as absent.
Status ManifestReader::ReadOptionalLong(State& s, Decoder& d, std::string_view field, OptionalLong* out) {
  int64_t v = d.ReadLong();
  if (d.failed()) return Ok();  // reported as a truncated entry by the caller
  if (v == OptionalLong::kAbsent) return s.Fail(std::string(field) + " " + std::to_string(v) + " is out of range");
  *out = v;
  return Ok();
}

namespace {

std::optional<int64_t> ReadOptionalInteger(Decoder& d, const Node* node) {
  const Node* b = avro::ReadBranch(d, node);
  if (!b) return std::nullopt;
  return d.ReadLong();
}

}  // namespace

Result<bool> ManifestReader::Next(ManifestEntry* out) { return Next(out, &out->file); }

Result<bool> ManifestReader::Next(ManifestEntry* out, DataFile* file) {
  try {
    return NextImpl(out, file);
  } catch (const std::exception& e) {
    return state_->Fail(e.what());
  }
}

Result<bool> ManifestReader::NextImpl(ManifestEntry* out, DataFile* file) {
  State& s = *state_;
  while (s.left_in_block == 0) {
    if (!s.block.AtEnd()) return s.Fail("block holds more bytes than its records");
    FLOE_ASSIGN_OR_RETURN(bool more, s.file.NextBlock(&s.left_in_block, &s.block));
    if (!more) return false;
  }
  Decoder& d = s.block;
  s.last_entry = d;
  FLOE_RETURN_IF_ERROR(DecodeEntry(s, d, out, file, s.metric_ids ? &*s.metric_ids : nullptr));
  ManifestEntry& e = *out;
  DataFile& f = *file;
  --s.left_in_block;
  ++s.entry_index;

  // Inheritance from the manifest list entry (spec: "Sequence Number Inheritance").
  if (s.manifest) {
    const ManifestFile& m = *s.manifest;
    if (!e.snapshot_id) e.snapshot_id = m.added_snapshot_id;
    bool inherit = m.sequence_number == 0 || e.status == EntryStatus::kAdded;
    if (!e.sequence_number && inherit) e.sequence_number = m.sequence_number;
    if (!e.file_sequence_number && inherit) e.file_sequence_number = m.sequence_number;
    if (m.first_row_id && f.content == FileContent::kData && !f.first_row_id) {
      f.first_row_id = *m.first_row_id + s.next_row_offset;
      s.next_row_offset += f.record_count;
    }
  } else if (s.layout->info.format_version == 1) {
    if (!e.sequence_number) e.sequence_number = 0;
    if (!e.file_sequence_number) e.file_sequence_number = 0;
  }
  return true;
}

Status ManifestReader::DecodeEntry(State& s, Decoder& d, ManifestEntry* out, DataFile* file,
                                   const std::vector<int>* keep) {
  ManifestEntry& e = *out;
  DataFile& f = *file;
  e.snapshot_id.reset();
  e.sequence_number.reset();
  e.file_sequence_number.reset();
  ResetDataFile(f);
  const ManifestLayout& layout = *s.layout;
  f.spec_id = layout.info.spec_id;
  const auto& ptype = layout.info.partition_type->fields();

  for (const FieldPlan& p : layout.entry_plan) {
    switch (p.action) {
      case kStatus: {
        const Node* b = avro::ReadBranch(d, p.node);
        int64_t v = b ? d.ReadLong() : -1;
        if (v < 0 || v > 2) {
          if (!d.failed()) return s.Fail("status " + std::to_string(v) + " is not 0, 1 or 2");
        }
        e.status = static_cast<EntryStatus>(v);
        break;
      }
      case kSnapshotId: e.snapshot_id = ReadOptionalInteger(d, p.node); break;
      case kSequenceNumber: e.sequence_number = ReadOptionalInteger(d, p.node); break;
      case kFileSequenceNumber: e.file_sequence_number = ReadOptionalInteger(d, p.node); break;
      case kDataFile: {
        if (!avro::ReadBranch(d, p.node)) return s.Fail("data_file is null");
        for (const FieldPlan& q : layout.file_plan) {
          if (q.action < 0) {
            avro::SkipValue(d, *q.node);
            continue;
          }
          const Node* b = avro::ReadBranch(d, q.node);
          if (!b) {
            if (q.action == kFilePath || q.action == kFileFormat || q.action == kPartition || q.action == kRecordCount ||
                q.action == kFileSize) {
              if (d.failed()) break;
              return s.Fail("required field " + q.name + " is null");
            }
            continue;
          }
          switch (q.action) {
            case kContent: {
              int64_t c = d.ReadLong();
              if (c < 0 || c > 2) {
                if (d.failed()) break;
                return s.Fail("content " + std::to_string(c) + " is not 0, 1 or 2");
              }
              f.content = static_cast<FileContent>(c);
              break;
            }
            case kFilePath: f.file_path.assign(d.ReadBytesView()); break;  // a place decoded into before keeps its buffer
            case kFileFormat: {
              std::string_view text = d.ReadBytesView();
              if (d.failed()) break;
              auto format = ParseFileFormat(text);
              if (!format) return s.Fail("unknown file_format '" + std::string(text) + "'");
              f.file_format = *format;
              break;
            }
            case kPartition: {
              if (layout.partition_in_order) {
                f.partition.clear();  // a place decoded into before keeps its capacity
                f.partition.reserve(ptype.size());
                const auto& fields = b->fields;
                for (size_t i = 0; i < fields.size() && !d.failed(); ++i) {
                  const Node* vb = avro::ReadBranch(d, layout.partition_plan[i].node);
                  if (!vb) {
                    f.partition.push_back(Literal::Null(ptype[i].type));
                    continue;
                  }
                  auto value = avro::DecodeValue(d, *vb, ptype[i].type);
                  if (!value) {
                    if (d.failed()) break;
                    return s.Fail("partition field '" + fields[i].name + "': " + value.error().message);
                  }
                  f.partition.push_back(std::move(*value));
                }
                break;
              }
              f.partition.assign(ptype.size(), Literal());
              for (size_t i = 0; i < ptype.size(); ++i) f.partition[i] = Literal::Null(ptype[i].type);
              const auto& fields = b->fields;
              for (size_t i = 0; i < fields.size() && !d.failed(); ++i) {
                const PartitionSlot& slot = layout.partition_plan[i];
                if (slot.index < 0) {
                  avro::SkipValue(d, *fields[i].node);
                  continue;
                }
                const Node* vb = avro::ReadBranch(d, slot.node);
                if (!vb) continue;
                auto value = avro::DecodeValue(d, *vb, ptype[slot.index].type);
                if (!value) {
                  if (d.failed()) break;
                  return s.Fail("partition field '" + fields[i].name + "': " + value.error().message);
                }
                f.partition[slot.index] = std::move(*value);
              }
              break;
            }
            case kRecordCount: f.record_count = d.ReadLong(); break;
            case kFileSize: f.file_size_in_bytes = d.ReadLong(); break;
            case kColumnSizes: avro::ReadIntLongMap(d, &f.column_sizes, keep); break;
            case kValueCounts: avro::ReadIntLongMap(d, &f.value_counts, keep); break;
            case kNullValueCounts: avro::ReadIntLongMap(d, &f.null_value_counts, keep); break;
            case kNanValueCounts: avro::ReadIntLongMap(d, &f.nan_value_counts, keep); break;
            case kLowerBounds: avro::ReadIntBytesMap(d, &f.lower_bounds, keep); break;
            case kUpperBounds: avro::ReadIntBytesMap(d, &f.upper_bounds, keep); break;
            case kKeyMetadata: f.key_metadata = avro::ReadByteString(d, *b); break;
            case kSplitOffsets: avro::ReadIntegerList(d, &f.split_offsets); break;
            case kEqualityIds: avro::ReadIntegerList(d, &f.equality_ids); break;
            case kSortOrderId: f.sort_order_id = static_cast<int>(d.ReadInt()); break;
            case kFirstRowId: FLOE_RETURN_IF_ERROR(ReadOptionalLong(s, d, q.name, &f.first_row_id)); break;
            case kReferencedDataFile: f.referenced_data_file = d.ReadBytesView(); break;
            case kContentOffset: FLOE_RETURN_IF_ERROR(ReadOptionalLong(s, d, q.name, &f.content_offset)); break;
            case kContentSize: FLOE_RETURN_IF_ERROR(ReadOptionalLong(s, d, q.name, &f.content_size_in_bytes)); break;
          }
          if (d.failed()) break;
        }
        break;
      }
      default: avro::SkipValue(d, *p.node); break;
    }
    if (d.failed()) break;
  }
  if (d.failed()) return s.Fail("truncated or corrupt entry");
  return Ok();
}

Status ManifestReader::ReadAllMetrics(DataFile* file) {
  State& s = *state_;
  Decoder d = s.last_entry;
  ManifestEntry full;
  try {
    FLOE_RETURN_IF_ERROR(DecodeEntry(s, d, &full, &full.file, nullptr));
  } catch (const std::exception& e) {
    return s.Fail(e.what());
  }
  file->column_sizes = std::move(full.file.column_sizes);
  file->value_counts = std::move(full.file.value_counts);
  file->null_value_counts = std::move(full.file.null_value_counts);
  file->nan_value_counts = std::move(full.file.nan_value_counts);
  file->lower_bounds = std::move(full.file.lower_bounds);
  file->upper_bounds = std::move(full.file.upper_bounds);
  return Ok();
}

Result<ManifestContents> ReadManifest(std::string_view bytes, std::string_view path,
                                      const ManifestReadOptions& options) {
  FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(bytes, path, options));
  ManifestContents out;
  ManifestEntry entry;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&entry));
    if (!more) break;
    out.entries.push_back(std::move(entry));
  }
  out.info = reader.info();
  return out;
}

Result<ManifestFile> SummarizeManifest(std::string_view bytes, std::string_view path, int64_t snapshot_id,
                                       const TableMetadata* table) {
  ManifestReadOptions options;
  options.table = table;
  FLOE_ASSIGN_OR_RETURN(ManifestReader reader, ManifestReader::Open(bytes, path, options));
  const ManifestInfo& info = reader.info();
  ManifestFile m;
  m.manifest_path = std::string(path);
  m.manifest_length = static_cast<int64_t>(bytes.size());
  m.partition_spec_id = info.spec_id;
  m.content = info.content;
  m.added_snapshot_id = snapshot_id;
  PartitionSummaryBuilder summaries(info.partition_type);
  std::optional<int64_t> min_seq;
  ManifestEntry e;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader.Next(&e));
    if (!more) break;
    summaries.Add(e.file.partition);
    int64_t rows = e.file.record_count;
    switch (e.status) {
      case EntryStatus::kAdded: ++m.added_files_count, m.added_rows_count += rows; break;
      case EntryStatus::kExisting: ++m.existing_files_count, m.existing_rows_count += rows; break;
      case EntryStatus::kDeleted: ++m.deleted_files_count, m.deleted_rows_count += rows; break;
    }
    if (e.status != EntryStatus::kDeleted && e.sequence_number) {
      min_seq = std::min(min_seq.value_or(*e.sequence_number), *e.sequence_number);
    }
  }
  m.sequence_number = 0;
  m.min_sequence_number = min_seq.value_or(0);
  FLOE_ASSIGN_OR_RETURN(m.partitions, summaries.Build());
  return m;
}

}  // namespace floe
