#include "avro/manifest_list.h"

#include <algorithm>
#include <charconv>

#include "avro/avro_file.h"
#include "avro/manifest_schema.h"
#include "avro/manifest_writer.h"
#include "avro/record_reading.h"

namespace floe {

using avro::Decoder;
using avro::Encoder;
using avro::FieldPlan;
using avro::KnownField;
using avro::Node;
using avro::Shape;

namespace {

void WriteSummaries(Encoder& e, const std::vector<PartitionFieldSummary>& partitions) {
  e.WriteUnionIndex(1);  // an empty list for unpartitioned manifests, as Iceberg's writers do
  if (!partitions.empty()) {
    e.WriteLong(static_cast<int64_t>(partitions.size()));
    for (const auto& p : partitions) {
      e.WriteBool(p.contains_null);
      WriteOptional(e, p.contains_nan, [&](bool b) { e.WriteBool(b); });
      WriteOptional(e, p.lower_bound, [&](const std::string& b) { e.WriteBytes(b); });
      WriteOptional(e, p.upper_bound, [&](const std::string& b) { e.WriteBytes(b); });
    }
  }
  e.WriteLong(0);
}

}  // namespace

Result<std::string> WriteManifestList(const ManifestListWriterOptions& options,
                                      const std::vector<ManifestFile>& manifests) {
  const int v = options.format_version;
  if (v < 1 || v > 3) return InvalidArgument("manifest list format version must be 1, 2 or 3, not " + std::to_string(v));
  FLOE_ASSIGN_OR_RETURN(avro::Codec codec, avro::ParseCodec(options.codec));
  std::vector<std::pair<std::string, std::string>> meta;
  meta.emplace_back("snapshot-id", std::to_string(options.snapshot_id));
  meta.emplace_back("parent-snapshot-id",
                    options.parent_snapshot_id ? std::to_string(*options.parent_snapshot_id) : "null");
  if (v >= 2) meta.emplace_back("sequence-number", std::to_string(options.sequence_number));
  meta.emplace_back("format-version", std::to_string(v));
  if (v >= 3 && options.first_row_id) meta.emplace_back("first-row-id", std::to_string(*options.first_row_id));
  avro::FileWriter file(avro::ManifestFileSchema(v).dump(), std::move(meta), codec, options.compression_level);

  for (const ManifestFile& m : manifests) {
    if (v == 1 && m.content != ManifestContent::kData) {
      return InvalidArgument("format v1 manifest lists cannot hold delete manifest " + m.manifest_path);
    }
    int64_t seq = m.sequence_number == kUnassignedSequenceNumber ? options.sequence_number : m.sequence_number;
    int64_t min_seq = m.min_sequence_number == kUnassignedSequenceNumber ? seq : m.min_sequence_number;
    int64_t snapshot = m.added_snapshot_id == kUnassignedSnapshotId ? options.snapshot_id : m.added_snapshot_id;
    Encoder& e = file.encoder();
    e.WriteString(m.manifest_path);
    e.WriteLong(m.manifest_length);
    e.WriteInt(m.partition_spec_id);
    if (v == 1) {
      e.WriteLong(snapshot);
      for (int32_t n : {m.added_files_count, m.existing_files_count, m.deleted_files_count}) {
        e.WriteUnionIndex(1);
        e.WriteInt(n);
      }
      WriteSummaries(e, m.partitions);
      for (int64_t n : {m.added_rows_count, m.existing_rows_count, m.deleted_rows_count}) {
        e.WriteUnionIndex(1);
        e.WriteLong(n);
      }
    } else {
      e.WriteInt(static_cast<int32_t>(m.content));
      e.WriteLong(seq);
      e.WriteLong(min_seq);
      e.WriteLong(snapshot);
      e.WriteInt(m.added_files_count);
      e.WriteInt(m.existing_files_count);
      e.WriteInt(m.deleted_files_count);
      e.WriteLong(m.added_rows_count);
      e.WriteLong(m.existing_rows_count);
      e.WriteLong(m.deleted_rows_count);
      WriteSummaries(e, m.partitions);
    }
    WriteOptional(e, m.key_metadata, [&](const std::string& b) { e.WriteBytes(b); });
    if (v >= 3) WriteOptional(e, m.first_row_id, [&](int64_t x) { e.WriteLong(x); });
    FLOE_RETURN_IF_ERROR(file.EndRecord());
  }
  return file.Finish();
}

namespace {

enum ListAction {
  kPath, kLength, kSpecId, kListContent, kSeq, kMinSeq, kSnapshot, kAddedFiles, kExistingFiles, kDeletedFiles,
  kAddedRows, kExistingRows, kDeletedRows, kPartitions, kListKeyMetadata, kListFirstRowId,
};

const std::vector<KnownField>& ListFields() {
  namespace ids = avro::ids;
  static const std::vector<KnownField> k = {
      {ids::kManifestPath, "manifest_path", Shape::kString, kPath},
      {ids::kManifestLength, "manifest_length", Shape::kInteger, kLength},
      {ids::kPartitionSpecId, "partition_spec_id", Shape::kInteger, kSpecId},
      {ids::kManifestContent, "content", Shape::kInteger, kListContent},
      {ids::kManifestSequenceNumber, "sequence_number", Shape::kInteger, kSeq},
      {ids::kMinSequenceNumber, "min_sequence_number", Shape::kInteger, kMinSeq},
      {ids::kAddedSnapshotId, "added_snapshot_id", Shape::kInteger, kSnapshot},
      {ids::kAddedFilesCount, "added_files_count", Shape::kInteger, kAddedFiles},
      {ids::kExistingFilesCount, "existing_files_count", Shape::kInteger, kExistingFiles},
      {ids::kDeletedFilesCount, "deleted_files_count", Shape::kInteger, kDeletedFiles},
      {ids::kAddedRowsCount, "added_rows_count", Shape::kInteger, kAddedRows},
      {ids::kExistingRowsCount, "existing_rows_count", Shape::kInteger, kExistingRows},
      {ids::kDeletedRowsCount, "deleted_rows_count", Shape::kInteger, kDeletedRows},
      {ids::kPartitions, "partitions", Shape::kRecordList, kPartitions},
      {ids::kManifestKeyMetadata, "key_metadata", Shape::kBytes, kListKeyMetadata},
      {ids::kManifestFirstRowId, "first_row_id", Shape::kInteger, kListFirstRowId},
  };
  return k;
}

enum SummaryAction { kContainsNull, kContainsNan, kLower, kUpper };

const std::vector<KnownField>& SummaryFields() {
  namespace ids = avro::ids;
  static const std::vector<KnownField> k = {
      {ids::kContainsNull, "contains_null", Shape::kBoolean, kContainsNull},
      {ids::kContainsNan, "contains_nan", Shape::kBoolean, kContainsNan},
      {ids::kLowerBound, "lower_bound", Shape::kBytes, kLower},
      {ids::kUpperBound, "upper_bound", Shape::kBytes, kUpper},
  };
  return k;
}

std::optional<int64_t> MetaInt(const avro::FileReader& file, const std::string& key) {
  const std::string* text = file.Meta(key);
  if (!text) return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || p != text->data() + text->size()) return std::nullopt;
  return v;
}

}  // namespace

namespace {
Result<ManifestListContents> ReadManifestListImpl(std::string_view bytes, std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(avro::FileReader file, avro::FileReader::Open(bytes, path));
  auto where = [&](std::string_view what) { return Corrupt(std::string(path) + ": " + std::string(what)); };
  const Node& root = file.schema().root();
  if (root.kind != avro::NodeKind::kRecord) return where("not a manifest list: the Avro schema is not a record");
  std::vector<int> present;
  auto plan = avro::PlanRecord(root, ListFields(), &present);
  if (!plan) return where("not a manifest list: " + plan.error().message);
  for (int required : {kPath, kLength, kSpecId, kSnapshot}) {
    if (std::find(present.begin(), present.end(), required) == present.end()) {
      return where("not a manifest list: no " + std::string(ListFields()[required].name) + " field");
    }
  }
  std::vector<FieldPlan> summary_plan;
  const Node* summary_node = nullptr;  // the array's items: a record, or [null, record] (DuckDB)
  for (const auto& p : *plan) {
    if (p.action != kPartitions) continue;
    summary_node = avro::ValueNode(p.node)->items;
    auto sp = avro::PlanRecord(*avro::ValueNode(summary_node), SummaryFields());
    if (!sp) return where("partitions: " + sp.error().message);
    summary_plan = std::move(*sp);
  }

  ManifestListContents out;
  for (const auto& [k, val] : file.metadata()) {
    if (k.rfind("avro.", 0) != 0) out.metadata[k] = val;
  }
  bool has_seq = std::find(present.begin(), present.end(), kSeq) != present.end();
  out.format_version = static_cast<int>(MetaInt(file, "format-version").value_or(has_seq ? 2 : 1));

  int64_t count = 0;
  Decoder d;
  int64_t index = 0;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, file.NextBlock(&count, &d));
    if (!more) break;
    for (int64_t r = 0; r < count; ++r, ++index) {
      ManifestFile m;
      for (const FieldPlan& p : *plan) {
        if (p.action < 0) {
          avro::SkipValue(d, *p.node);
          continue;
        }
        const Node* b = avro::ReadBranch(d, p.node);
        if (!b) {
          if (d.failed()) break;
          if (p.action == kPath || p.action == kLength || p.action == kSpecId || p.action == kSnapshot) {
            return file.CorruptError("manifest " + std::to_string(index) + ": required field " + p.name + " is null");
          }
          continue;
        }
        switch (p.action) {
          case kPath: m.manifest_path = std::string(d.ReadBytesView()); break;
          case kLength: m.manifest_length = d.ReadLong(); break;
          case kSpecId: m.partition_spec_id = d.ReadInt(); break;
          case kListContent: {
            int64_t c = d.ReadLong();
            if (c != 0 && c != 1 && !d.failed()) {
              return file.CorruptError("manifest " + std::to_string(index) + ": content " + std::to_string(c) + " is not 0 or 1");
            }
            m.content = static_cast<ManifestContent>(c);
            break;
          }
          case kSeq: m.sequence_number = d.ReadLong(); break;
          case kMinSeq: m.min_sequence_number = d.ReadLong(); break;
          case kSnapshot: m.added_snapshot_id = d.ReadLong(); break;
          case kAddedFiles: m.added_files_count = d.ReadInt(); break;
          case kExistingFiles: m.existing_files_count = d.ReadInt(); break;
          case kDeletedFiles: m.deleted_files_count = d.ReadInt(); break;
          case kAddedRows: m.added_rows_count = d.ReadLong(); break;
          case kExistingRows: m.existing_rows_count = d.ReadLong(); break;
          case kDeletedRows: m.deleted_rows_count = d.ReadLong(); break;
          case kListKeyMetadata: m.key_metadata = avro::ReadByteString(d, *b); break;
          case kListFirstRowId: m.first_row_id = d.ReadLong(); break;
          case kPartitions:
            while (int64_t n = d.ReadBlockCount()) {
              for (int64_t i = 0; i < n && !d.failed(); ++i) {
                PartitionFieldSummary s;
                if (!avro::ReadBranch(d, summary_node)) {
                  // A null summary says nothing: the field may hold nulls, and no bounds prune it.
                  s.contains_null = true;
                  m.partitions.push_back(std::move(s));
                  continue;
                }
                for (const FieldPlan& q : summary_plan) {
                  if (q.action < 0) {
                    avro::SkipValue(d, *q.node);
                    continue;
                  }
                  const Node* qb = avro::ReadBranch(d, q.node);
                  if (!qb) continue;
                  switch (q.action) {
                    case kContainsNull: s.contains_null = d.ReadBool(); break;
                    case kContainsNan: s.contains_nan = d.ReadBool(); break;
                    case kLower: s.lower_bound = avro::ReadByteString(d, *qb); break;
                    case kUpper: s.upper_bound = avro::ReadByteString(d, *qb); break;
                  }
                }
                m.partitions.push_back(std::move(s));
              }
              if (d.failed()) break;
            }
            break;
        }
        if (d.failed()) break;
      }
      if (d.failed()) return file.CorruptError("manifest " + std::to_string(index) + ": truncated or corrupt record");
      out.manifests.push_back(std::move(m));
    }
    if (!d.AtEnd()) return file.CorruptError("block holds more bytes than its records");
  }
  return out;
}

}  // namespace

Result<ManifestListContents> ReadManifestList(std::string_view bytes, std::string_view path) {
  try {
    return ReadManifestListImpl(bytes, path);
  } catch (const std::exception& e) {  // e.g. bad_alloc: no exception leaves the library
    return Corrupt(std::string(path) + ": " + e.what());
  }
}

}  // namespace floe
