// Writes an Iceberg data file in Parquet: ColumnBatches in, a file and its manifest metrics
// out.
//
//   FLOE_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(&sink, schema, table_properties));
//   FLOE_RETURN_IF_ERROR(writer->Write(batch));          // any number of times
//   FLOE_ASSIGN_OR_RETURN(DataFileMetrics m, writer->Close());
//
// Table properties used: write.parquet.row-group-size-bytes (128 MiB),
// write.parquet.page-size-bytes (1 MiB), write.parquet.dict-size-bytes (2 MiB),
// write.parquet.compression-codec (zstd), write.parquet.compression-level (3),
// write.metadata.metrics.default and write.metadata.metrics.column.* (truncate(16)).
//
// Large writes encode their columns on two threads (the caller's and one helper the writer
// starts when first needed); the file's bytes do not depend on it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parquet/column_writer.h"
#include "parquet/file_schema.h"
#include "parquet/helper_thread.h"
#include "parquet/metrics.h"
#include "parquet/output_sink.h"
#include "types/column_batch.h"
#include "types/schema.h"

namespace floe::parquet {

class ParquetWriter {
 public:
  // The sink must outlive the writer.
  static Result<std::unique_ptr<ParquetWriter>> Open(OutputSink* sink, const Schema& schema,
                                                     const std::map<std::string, std::string>& properties = {});
  ~ParquetWriter();

  // Appends the batch's rows. Its columns are matched to the schema by field id; a required
  // field holding a null is InvalidArgument naming the column.
  Status Write(const ColumnBatch& batch) { return Write(batch, 0, batch.num_rows); }
  // Appends rows [begin, end) of the batch (end <= its rows), the same way.
  Status Write(const ColumnBatch& batch, size_t begin, size_t end);

  // Adds a key-value pair to the file's footer (Iceberg's writers store the table schema's JSON
  // under "iceberg.schema"); a key set again keeps its last value. Only before Close.
  void SetKeyValueMetadata(const std::string& key, std::string value);

  // Bytes the file would have if closed now, roughly (for rolling to a new file).
  uint64_t EstimatedFileSize() const;
  int64_t rows_written() const { return total_rows_; }

  // Flushes the last row group, writes the footer, closes the sink.
  Result<DataFileMetrics> Close();

 private:
  struct Leaf;
  ParquetWriter() = default;
  Status FlushRowGroup();
  // Rows to append before the next row-group size check.
  size_t RoundRows() const;
  Status AppendRows(const std::vector<std::vector<const Column*>>& chains, size_t begin, size_t end);
  Status AppendLeaf(Leaf& leaf, const std::vector<const Column*>& chain, size_t begin, size_t end,
                    std::vector<uint8_t>* levels);

  OutputSink* sink_ = nullptr;
  Schema schema_;
  std::vector<SchemaElement> elements_;
  std::vector<Leaf> leaves_;
  std::map<int, MetricsMode> metrics_modes_;
  size_t row_group_size_ = 128u << 20;
  int32_t codec_ = codec::kZstd;
  FileMetaData footer_;
  int64_t total_rows_ = 0;
  int64_t row_group_rows_ = 0;
  bool closed_ = false;
  size_t buffered_ = 0;  // the row group's estimated bytes at the last size check
  std::vector<uint8_t> levels_[2];  // scratch, one per encoding thread
  std::unique_ptr<HelperThread> helper_;
};

}  // namespace floe::parquet
