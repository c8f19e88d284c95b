// For scan tests only: a small table in memory that tests commit to directly, writing real
// Parquet data and delete files and real Avro manifests and manifest lists, with the sequence
// number and inheritance rules a commit follows (new entries leave snapshot id and sequence
// numbers null; the manifest list supplies them).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "avro/manifest_writer.h"
#include "io/memory_file_io.h"
#include "meta/table_metadata.h"
#include "parquet/parquet_writer.h"
#include "scan/delete_index.h"
#include "types/column_batch.h"

namespace floe::testing {

class TestTable {
 public:
  explicit TestTable(Schema schema, PartitionSpec spec = PartitionSpec::Unpartitioned(), int format_version = 2) {
    t_.format_version = format_version;
    t_.table_uuid = "00000000-0000-4000-8000-000000000001";
    t_.location = "/t";
    t_.last_column_id = schema.HighestFieldId();
    t_.current_schema_id = schema.schema_id();
    t_.schemas.push_back(std::move(schema));
    t_.default_spec_id = spec.spec_id();
    for (const auto& f : spec.fields()) t_.last_partition_id = std::max(t_.last_partition_id, f.field_id);
    t_.partition_specs.push_back(std::move(spec));
    t_.sort_orders.push_back(SortOrder::Unsorted());
  }

  MemoryFileIO& io() { return io_; }
  const TableMetadata& metadata() const { return t_; }
  TableMetadata& mutable_metadata() { return t_; }

  void EvolveSchema(Schema schema) {
    t_.last_column_id = std::max(t_.last_column_id, schema.HighestFieldId());
    t_.current_schema_id = schema.schema_id();
    t_.schemas.push_back(std::move(schema));
  }
  void EvolveSpec(PartitionSpec spec) {
    t_.default_spec_id = spec.spec_id();
    for (const auto& f : spec.fields()) t_.last_partition_id = std::max(t_.last_partition_id, f.field_id);
    t_.partition_specs.push_back(std::move(spec));
  }

  // Writes `rows` (columns matched by field id to the current schema) as one data file.
  Result<DataFile> WriteData(const ColumnBatch& rows, std::vector<Literal> partition = {}, std::optional<int> spec_id = {}) {
    return WriteFile(t_.CurrentSchema(), rows, FileContent::kData, std::move(partition), spec_id, {});
  }

  // A position delete file of (data file path, position) pairs.
  Result<DataFile> WritePositionDeletes(const std::vector<std::pair<std::string, int64_t>>& deletes,
                                        std::vector<Literal> partition = {}, std::optional<int> spec_id = {}) {
    Schema schema(0, {NestedField{kDeleteFilePathFieldId, "file_path", Type::String(), true, ""},
                      NestedField{kDeletePosFieldId, "pos", Type::Long(), true, ""}});
    ColumnBatch rows(schema);
    for (const auto& [path, pos] : deletes) {
      auto st = rows.AppendRow({Literal::String(path), Literal::Long(pos)});
      if (!st) return std::unexpected(st.error());
    }
    return WriteFile(schema, rows, FileContent::kPositionDeletes, std::move(partition), spec_id, {});
  }

  // An equality delete file; `rows` holds the columns of `equality_ids` (from the current schema).
  Result<DataFile> WriteEqualityDeletes(const ColumnBatch& rows, std::vector<int> equality_ids,
                                        std::vector<Literal> partition = {}, std::optional<int> spec_id = {}) {
    std::vector<NestedField> fields;
    for (int id : equality_ids) fields.push_back(*t_.CurrentSchema().FindField(id));
    return WriteFile(Schema(0, fields), rows, FileContent::kEqualityDeletes, std::move(partition), spec_id,
                     std::move(equality_ids));
  }

  // One snapshot adding `files` (one manifest per content kind and spec) on top of the current
  // one; `removed` data file paths are dropped from the carried-over manifests' live set by
  // rewriting those manifests with DELETED entries. Returns the new snapshot id.
  Result<int64_t> Commit(const std::vector<DataFile>& files, const std::vector<std::string>& removed = {},
                         std::string operation = "append") {
    int64_t seq = t_.last_sequence_number + 1;
    int64_t snapshot_id = 1000 + seq;
    std::vector<ManifestFile> manifests;
    // Carried-over manifests, rewritten when they hold a removed file.
    for (const ManifestFile& m : manifests_) {
      if (removed.empty()) {
        manifests.push_back(m);
        continue;
      }
      auto bytes = io_.ReadAll(m.manifest_path);
      if (!bytes) return std::unexpected(bytes.error());
      ManifestReadOptionsHolder holder{&m, &t_};
      auto contents = ReadManifestForTest(*bytes, m.manifest_path, holder);
      if (!contents) return std::unexpected(contents.error());
      bool touched = false;
      std::vector<ManifestEntry> kept;
      for (ManifestEntry e : contents->entries) {
        if (e.status == EntryStatus::kDeleted) continue;
        bool gone = std::find(removed.begin(), removed.end(), e.file.file_path) != removed.end();
        touched |= gone;
        e.status = gone ? EntryStatus::kDeleted : EntryStatus::kExisting;
        if (gone) e.snapshot_id = snapshot_id;
        kept.push_back(std::move(e));
      }
      if (!touched) {
        manifests.push_back(m);
        continue;
      }
      auto written = WriteManifestFile(kept, m.content, m.partition_spec_id, snapshot_id);
      if (!written) return std::unexpected(written.error());
      manifests.push_back(*written);
    }
    std::map<std::pair<int, int>, std::vector<ManifestEntry>> groups;  // (content, spec) -> entries
    for (const DataFile& f : files) {
      ManifestEntry e;
      e.status = EntryStatus::kAdded;
      e.file = f;
      groups[{f.content == FileContent::kData ? 0 : 1, f.spec_id}].push_back(std::move(e));
    }
    for (auto& [key, entries] : groups) {
      auto written = WriteManifestFile(entries, key.first == 0 ? ManifestContent::kData : ManifestContent::kDeletes,
                                       key.second, snapshot_id);
      if (!written) return std::unexpected(written.error());
      manifests.push_back(*written);
    }
    ManifestListWriterOptions list_options;
    list_options.format_version = t_.format_version;
    list_options.snapshot_id = snapshot_id;
    if (const Snapshot* parent = t_.CurrentSnapshot()) list_options.parent_snapshot_id = parent->snapshot_id;
    list_options.sequence_number = seq;
    auto list = WriteManifestList(list_options, manifests);
    if (!list) return std::unexpected(list.error());
    std::string list_path = "/t/metadata/snap-" + std::to_string(snapshot_id) + ".avro";
    if (auto st = io_.CreateIfAbsent(list_path, *list); !st) return std::unexpected(st.error());
    for (ManifestFile& m : manifests) {
      if (m.sequence_number == kUnassignedSequenceNumber) m.sequence_number = seq;
      if (m.min_sequence_number == kUnassignedSequenceNumber) m.min_sequence_number = seq;
      if (m.added_snapshot_id == kUnassignedSnapshotId) m.added_snapshot_id = snapshot_id;
    }
    manifests_ = manifests;

    Snapshot s;
    s.snapshot_id = snapshot_id;
    if (const Snapshot* parent = t_.CurrentSnapshot()) s.parent_snapshot_id = parent->snapshot_id;
    s.sequence_number = seq;
    s.timestamp_ms = 1'700'000'000'000 + seq * 1000;
    s.manifest_list = list_path;
    s.summary["operation"] = operation;
    s.schema_id = t_.current_schema_id;
    t_.snapshots.push_back(s);
    t_.snapshot_log.push_back({s.timestamp_ms, snapshot_id});
    t_.last_sequence_number = seq;
    t_.last_updated_ms = s.timestamp_ms;
    t_.current_snapshot_id = snapshot_id;
    t_.refs[kMainBranch] = SnapshotRef{snapshot_id, RefType::kBranch, {}, {}, {}};
    return snapshot_id;
  }

 private:
  struct ManifestReadOptionsHolder {
    const ManifestFile* manifest;
    const TableMetadata* table;
  };
  static Result<ManifestContents> ReadManifestForTest(const std::string& bytes, const std::string& path,
                                                      const ManifestReadOptionsHolder& h) {
    ManifestReadOptions options;
    options.manifest = h.manifest;
    options.table = h.table;
    return ReadManifest(bytes, path, options);
  }

  Result<ManifestFile> WriteManifestFile(const std::vector<ManifestEntry>& entries, ManifestContent content, int spec_id,
                                         int64_t snapshot_id) {
    ManifestWriterOptions options;
    options.format_version = t_.format_version;
    options.content = content;
    options.schema = t_.CurrentSchema();
    options.spec = *t_.SpecById(spec_id);
    options.manifest_path = "/t/metadata/m" + std::to_string(++counter_) + ".avro";
    options.snapshot_id = snapshot_id;
    auto written = WriteManifest(options, entries);
    if (!written) return std::unexpected(written.error());
    if (auto st = io_.CreateIfAbsent(options.manifest_path, written->bytes); !st) return std::unexpected(st.error());
    return written->manifest;
  }

  Result<DataFile> WriteFile(const Schema& schema, const ColumnBatch& rows, FileContent content,
                             std::vector<Literal> partition, std::optional<int> spec_id, std::vector<int> equality_ids) {
    std::string bytes;
    parquet::StringSink sink(&bytes);
    std::map<std::string, std::string> props = writer_properties;
    props.emplace("write.metadata.metrics.default", "full");
    auto writer = parquet::ParquetWriter::Open(&sink, schema, props);
    if (!writer) return std::unexpected(writer.error());
    if (auto st = (*writer)->Write(rows); !st) return std::unexpected(st.error());
    auto metrics = (*writer)->Close();
    if (!metrics) return std::unexpected(metrics.error());
    DataFile f;
    f.content = content;
    f.file_path = "/t/data/f" + std::to_string(++counter_) + ".parquet";
    f.file_format = FileFormat::kParquet;
    f.spec_id = spec_id.value_or(t_.default_spec_id);
    f.partition = std::move(partition);
    f.record_count = metrics->record_count;
    f.file_size_in_bytes = static_cast<int64_t>(bytes.size());
    f.column_sizes = metrics->column_sizes;
    f.value_counts = metrics->value_counts;
    f.null_value_counts = metrics->null_value_counts;
    f.nan_value_counts = metrics->nan_value_counts;
    for (const auto& [id, v] : metrics->lower_bounds)
      if (auto b = v.ToBinary()) f.lower_bounds[id] = *b;
    for (const auto& [id, v] : metrics->upper_bounds)
      if (auto b = v.ToBinary()) f.upper_bounds[id] = *b;
    f.split_offsets = metrics->split_offsets;
    f.equality_ids = std::move(equality_ids);
    if (auto st = io_.CreateIfAbsent(f.file_path, bytes); !st) return std::unexpected(st.error());
    return f;
  }

  MemoryFileIO io_;
  TableMetadata t_;

 public:
  // Table properties the Parquet writer gets for the files written from now on (row group and
  // page sizes).
  std::map<std::string, std::string> writer_properties;

 private:
  std::vector<ManifestFile> manifests_;
  int counter_ = 0;
};

// Rows of a batch as text ("1|a|NULL"), sorted: order-free comparison of scan results.
inline std::vector<std::string> RowStrings(const ColumnBatch& batch) {
  std::vector<std::string> out;
  for (size_t r = 0; r < batch.num_rows; ++r) {
    std::string line;
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      if (c) line += "|";
      Literal v = batch.columns[c].Get(r);
      line += v.is_null() ? "NULL" : v.ToString();
    }
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace floe::testing
