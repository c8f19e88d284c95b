// Reads Parquet data files into ColumnBatches: one batch per row group, projected by Iceberg
// field id, with row groups skipped by a caller's predicate over their statistics.
//
//   FLOE_ASSIGN_OR_RETURN(auto file, ParquetFile::Open(source));
//   ReadOptions opts;  opts.projection = table_schema;  opts.row_group_filter = ...;
//   FLOE_ASSIGN_OR_RETURN(auto reader, ParquetReader::Make(file, opts));
//   while (true) { FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next()); if (!batch) break; ... }
//
// A projected field the file lacks reads as all nulls. Fields are matched by field id; a
// file without any field ids (written outside Iceberg) is matched by column name instead.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parquet/column_reader.h"
#include "parquet/file_schema.h"
#include "parquet/output_sink.h"
#include "parquet/parquet_format.h"
#include "types/column_batch.h"
#include "types/literal.h"
#include "types/schema.h"

namespace floe::parquet {

// A column chunk's statistics, decoded to the projected Iceberg type.
struct ColumnStatistics {
  int64_t value_count = 0;               // values including nulls
  std::optional<int64_t> null_count;     // absent when the writer did not record it
  Literal min;                           // null Literal when unknown
  Literal max;
};

struct RowGroupStatistics {
  int index = 0;
  int64_t num_rows = 0;
  // By field id, for projected primitive fields present in the file. A projected field the
  // file lacks appears with value_count = num_rows, null_count = num_rows and no bounds.
  std::map<int, ColumnStatistics> columns;
};

// Returns false to skip the row group (it cannot hold a matching row).
using RowGroupFilter = std::function<bool(const RowGroupStatistics&)>;

class ParquetFile {
 public:
  // Reads and checks the footer. Errors name source->name().
  static Result<std::shared_ptr<ParquetFile>> Open(std::shared_ptr<const InputSource> source);
  // Convenience: a local file (memory-mapped).
  static Result<std::shared_ptr<ParquetFile>> OpenPath(const std::string& path);

  const std::string& name() const { return source_->name(); }
  const FileMetaData& metadata() const { return meta_; }
  const FileSchema& file_schema() const { return schema_; }
  int num_row_groups() const { return static_cast<int>(meta_.row_groups.size()); }
  int64_t num_rows() const { return meta_.num_rows; }
  uint64_t file_size() const { return source_->size(); }
  // The file's own schema in Iceberg terms (see InferIcebergSchema).
  const Schema& schema() const { return iceberg_schema_; }

  // Statistics of row group `index` for the projection's primitive fields.
  Result<RowGroupStatistics> Statistics(int index, const Schema& projection) const;
  // Reads one row group, projected. The batch's fields are the projection's top-level fields.
  // With threads > 1, top-level columns are decoded on that many threads.
  Result<ColumnBatch> ReadRowGroup(int index, const Schema& projection, int threads = 1) const;
  // Tells the source that the column chunks of `fields` in each of `row_groups` are read next,
  // before any of them is: on an object store the chunks of every row group lying together are
  // then fetched in one request, where announcing them one row group at a time costs a request
  // per row group. Only a hint; the reads give the same bytes without it.
  Status WillReadRowGroups(const std::vector<int>& row_groups, const std::vector<NestedField>& fields) const;
  // Tells the source that the column chunks of `fields` in `row_group` are not read again (its
  // rows are decoded into batches of their own): an object store's reader frees their bytes, a
  // mapped file gives their pages back. Views of those chunks must not be used after it.
  void DoneReadingRowGroup(int row_group, const std::vector<NestedField>& fields) const;

 private:
  ParquetFile() = default;
  std::shared_ptr<const InputSource> source_;
  FileMetaData meta_;
  FileSchema schema_;
  Schema iceberg_schema_;
  bool has_field_ids_ = false;

  const SchemaNode* Match(const SchemaNode& parent, const NestedField& field) const;
  Status ReadVariant(int rg_index, const NestedField& field, const SchemaNode& node, Column* out,
                     std::vector<uint8_t>* def_levels) const;
  Status ReadField(int rg, const NestedField& field, const SchemaNode* node, Column* out,
                   std::vector<uint8_t>* def_levels) const;
  // The bytes and description of one column chunk; errors name the file, column, row group.
  Result<ColumnChunkInput> ChunkInput(int rg, int leaf_index) const;
  // Tells the source which column chunks of row group `rg` reading `fields` takes, before they
  // are read one by one (on an object store: one request for chunks that lie together).
  Status WillReadFields(int rg, const std::vector<NestedField>& fields) const;
  // The column chunks of row group `rg` that reading `fields` takes.
  std::vector<std::pair<uint64_t, uint64_t>> FieldSpans(int rg, const std::vector<NestedField>& fields) const;
  void ChunkSpans(int rg, const SchemaNode& node, std::vector<std::pair<uint64_t, uint64_t>>* spans) const;
  friend class ParquetReader;
  friend class RowGroupStream;
};

struct ReadOptions {
  std::optional<Schema> projection;  // default: the file's own schema
  RowGroupFilter row_group_filter;   // default: read every row group
  int column_threads = 1;            // threads decoding the columns of one row group
};

class ParquetReader {
 public:
  static Result<std::unique_ptr<ParquetReader>> Make(std::shared_ptr<const ParquetFile> file, ReadOptions options = {});
  // The next row group that passes the filter; nullopt after the last.
  Result<std::optional<ColumnBatch>> Next();
  int row_groups_skipped() const { return skipped_; }
  const Schema& projection() const { return projection_; }

 private:
  std::shared_ptr<const ParquetFile> file_;
  Schema projection_;
  RowGroupFilter filter_;
  int column_threads_ = 1;
  int next_ = 0;
  int skipped_ = 0;
};

// Every row of a file (all row groups that pass the filter) as one batch.
Result<ColumnBatch> ReadParquetFile(std::shared_ptr<const ParquetFile> file, const ReadOptions& options = {});

}  // namespace floe::parquet
