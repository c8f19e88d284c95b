#include "avro/manifest_writer.h"

#include <algorithm>

#include "avro/avro_file.h"
#include "avro/iceberg_avro.h"
#include "avro/manifest_schema.h"
#include "avro/partition_summary.h"
#include "meta/metadata_json.h"

namespace floe {

using avro::Encoder;

struct ManifestWriter::State {
  ManifestWriterOptions options;
  TypePtr partition_type;
  std::unique_ptr<avro::FileWriter> file;
  PartitionSummaryBuilder summaries;
  ManifestFile manifest;
  std::optional<int64_t> min_sequence_number;
  std::vector<Literal> cast_partition;  // scratch: the entry's tuple cast to the partition types
  std::string scratch;                  // scratch: one encoded entry, so a refused entry leaves no trace

  State(ManifestWriterOptions o, TypePtr type)
      : options(std::move(o)), partition_type(type), summaries(std::move(type)) {}
};

ManifestWriter::ManifestWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
ManifestWriter::ManifestWriter(ManifestWriter&&) noexcept = default;
ManifestWriter& ManifestWriter::operator=(ManifestWriter&&) noexcept = default;
ManifestWriter::~ManifestWriter() = default;

Result<ManifestWriter> ManifestWriter::Make(ManifestWriterOptions options) {
  int v = options.format_version;
  if (v < 1 || v > 3) return InvalidArgument("manifest format version must be 1, 2 or 3, not " + std::to_string(v));
  if (v == 1 && options.content != ManifestContent::kData) {
    return InvalidArgument("format v1 has no delete manifests");
  }
  FLOE_ASSIGN_OR_RETURN(avro::Codec codec, avro::ParseCodec(options.codec));
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, options.spec.PartitionType(options.schema));
  FLOE_ASSIGN_OR_RETURN(nlohmann::ordered_json avro_schema, avro::ManifestEntrySchema(v, *partition_type));

  // The key-value metadata Iceberg's writers set, so other engines can read the manifest alone.
  std::vector<std::pair<std::string, std::string>> meta;
  meta.emplace_back("schema", SchemaToJson(options.schema).dump());
  meta.emplace_back("schema-id", std::to_string(options.schema.schema_id()));
  meta.emplace_back("partition-spec", PartitionFieldsToJson(options.spec).dump());
  meta.emplace_back("partition-spec-id", std::to_string(options.spec.spec_id()));
  meta.emplace_back("format-version", std::to_string(v));
  if (v >= 2) meta.emplace_back("content", options.content == ManifestContent::kData ? "data" : "deletes");

  auto state = std::make_unique<State>(std::move(options), partition_type);
  state->file = std::make_unique<avro::FileWriter>(avro_schema.dump(), std::move(meta), codec,
                                                   state->options.compression_level);
  ManifestFile& m = state->manifest;
  m.manifest_path = state->options.manifest_path;
  m.partition_spec_id = state->options.spec.spec_id();
  m.content = state->options.content;
  m.sequence_number = kUnassignedSequenceNumber;
  m.min_sequence_number = kUnassignedSequenceNumber;
  m.added_snapshot_id = state->options.snapshot_id.value_or(kUnassignedSnapshotId);
  return ManifestWriter(std::move(state));
}

namespace {

void WriteIntMap(Encoder& e, const FlatMap<int, int64_t>& m) {
  if (m.empty()) return e.WriteUnionIndex(0);
  e.WriteUnionIndex(1);
  e.WriteLong(static_cast<int64_t>(m.size()));
  for (const auto& [k, v] : m) {
    e.WriteInt(k);
    e.WriteLong(v);
  }
  e.WriteLong(0);
}

void WriteBytesMap(Encoder& e, const FlatMap<int, std::string>& m) {
  if (m.empty()) return e.WriteUnionIndex(0);
  e.WriteUnionIndex(1);
  e.WriteLong(static_cast<int64_t>(m.size()));
  for (const auto& [k, v] : m) {
    e.WriteInt(k);
    e.WriteBytes(v);
  }
  e.WriteLong(0);
}

template <typename List>  // std::vector or SmallList of an integer type
void WriteList(Encoder& e, const List& list) {
  if (list.empty()) return e.WriteUnionIndex(0);
  e.WriteUnionIndex(1);
  e.WriteLong(static_cast<int64_t>(list.size()));
  for (auto v : list) e.WriteLong(static_cast<int64_t>(v));
  e.WriteLong(0);
}

}  // namespace

Status ManifestWriter::Add(const ManifestEntry& entry) {
  if (!state_ || !state_->file) return InvalidArgument("ManifestWriter used after Finish");
  State& s = *state_;
  const DataFile& f = entry.file;
  const int v = s.options.format_version;
  bool is_delete = f.content != FileContent::kData;
  if (is_delete != (s.options.content == ManifestContent::kDeletes)) {
    return InvalidArgument(std::string("cannot add a ") + std::string(FileContentName(f.content)) + " file to a " +
                           (is_delete ? "data" : "delete") + " manifest: " + f.file_path);
  }
  const auto& pfields = s.partition_type->fields();
  if (f.partition.size() != pfields.size()) {
    return InvalidArgument("partition tuple of " + f.file_path + " has " + std::to_string(f.partition.size()) +
                           " values, spec " + std::to_string(s.options.spec.spec_id()) + " has " +
                           std::to_string(pfields.size()) + " fields");
  }
  std::optional<int64_t> snapshot_id = entry.snapshot_id;
  if (v == 1 && !snapshot_id) snapshot_id = s.options.snapshot_id;
  if (v == 1 && !snapshot_id) {
    return InvalidArgument("format v1 manifest entries need a snapshot id: " + f.file_path);
  }

  s.scratch.clear();
  Encoder e(&s.scratch);
  e.WriteInt(static_cast<int32_t>(entry.status));
  if (v == 1) {
    e.WriteLong(*snapshot_id);
  } else {
    WriteOptional(e, snapshot_id, [&](int64_t x) { e.WriteLong(x); });
    WriteOptional(e, entry.sequence_number, [&](int64_t x) { e.WriteLong(x); });
    WriteOptional(e, entry.file_sequence_number, [&](int64_t x) { e.WriteLong(x); });
  }
  // data_file
  if (v >= 2) e.WriteInt(static_cast<int32_t>(f.content));
  e.WriteString(f.file_path);
  e.WriteString(FileFormatName(f.file_format));
  s.cast_partition.resize(pfields.size());
  for (size_t i = 0; i < pfields.size(); ++i) {
    const Literal& value = f.partition[i];
    const TypePtr& type = pfields[i].type;
    if (value.is_null()) {
      e.WriteUnionIndex(0);
      s.cast_partition[i] = Literal::Null(type);
      continue;
    }
    if (value.type() && value.type()->Equals(*type)) {
      s.cast_partition[i] = value;
    } else {
      auto cast = value.CastTo(type);
      if (!cast) {
        return InvalidArgument("partition value " + value.ToString() + " of " + f.file_path + " does not fit field '" +
                               pfields[i].name + "' of type " + type->ToString());
      }
      s.cast_partition[i] = std::move(*cast);
    }
    e.WriteUnionIndex(1);
    FLOE_RETURN_IF_ERROR(avro::EncodeValue(e, s.cast_partition[i], *type));
  }
  e.WriteLong(f.record_count);
  e.WriteLong(f.file_size_in_bytes);
  if (v == 1) e.WriteLong(avro::kV1BlockSizeInBytes);
  WriteIntMap(e, f.column_sizes);
  WriteIntMap(e, f.value_counts);
  WriteIntMap(e, f.null_value_counts);
  WriteIntMap(e, f.nan_value_counts);
  WriteBytesMap(e, f.lower_bounds);
  WriteBytesMap(e, f.upper_bounds);
  WriteOptional(e, f.key_metadata, [&](const std::string& x) { e.WriteBytes(x); });
  WriteList(e, f.split_offsets);
  if (v >= 2) WriteList(e, f.equality_ids);
  WriteOptional(e, f.sort_order_id, [&](int x) { e.WriteInt(x); });
  if (v >= 3) WriteOptional(e, f.first_row_id, [&](int64_t x) { e.WriteLong(x); });
  if (v >= 2) WriteOptional(e, f.referenced_data_file, [&](const std::string& x) { e.WriteString(x); });
  if (v >= 3) {
    WriteOptional(e, f.content_offset, [&](int64_t x) { e.WriteLong(x); });
    WriteOptional(e, f.content_size_in_bytes, [&](int64_t x) { e.WriteLong(x); });
  }

  s.file->encoder().out()->append(s.scratch);
  FLOE_RETURN_IF_ERROR(s.file->EndRecord());

  s.summaries.Add(s.cast_partition);
  ManifestFile& m = s.manifest;
  switch (entry.status) {
    case EntryStatus::kAdded:
      ++m.added_files_count;
      m.added_rows_count += f.record_count;
      break;
    case EntryStatus::kExisting:
      ++m.existing_files_count;
      m.existing_rows_count += f.record_count;
      break;
    case EntryStatus::kDeleted:
      ++m.deleted_files_count;
      m.deleted_rows_count += f.record_count;
      break;
  }
  // Live entries with an explicit data sequence number bound the minimum; entries that inherit
  // get the commit's number, which is above every number already in the table.
  if (entry.status != EntryStatus::kDeleted && entry.sequence_number && v >= 2) {
    s.min_sequence_number = std::min(s.min_sequence_number.value_or(*entry.sequence_number), *entry.sequence_number);
  }
  return Ok();
}

Result<WrittenManifest> ManifestWriter::Finish() {
  if (!state_ || !state_->file) return InvalidArgument("ManifestWriter::Finish called twice");
  State& s = *state_;
  WrittenManifest out;
  FLOE_ASSIGN_OR_RETURN(out.bytes, s.file->Finish());
  s.file.reset();
  out.manifest = std::move(s.manifest);
  out.manifest.manifest_length = static_cast<int64_t>(out.bytes.size());
  if (s.min_sequence_number) out.manifest.min_sequence_number = *s.min_sequence_number;
  if (s.options.format_version == 1) {
    out.manifest.sequence_number = 0;
    out.manifest.min_sequence_number = 0;
  }
  FLOE_ASSIGN_OR_RETURN(out.manifest.partitions, s.summaries.Build());
  return out;
}

Result<WrittenManifest> WriteManifest(ManifestWriterOptions options, const std::vector<ManifestEntry>& entries) {
  FLOE_ASSIGN_OR_RETURN(ManifestWriter writer, ManifestWriter::Make(std::move(options)));
  for (const auto& e : entries) FLOE_RETURN_IF_ERROR(writer.Add(e));
  return writer.Finish();
}

}  // namespace floe
