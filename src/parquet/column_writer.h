// Writes one leaf column of one row group: buffers values into pages (dictionary-encoded
// while the dictionary stays small, PLAIN after), compresses them, and keeps the chunk's
// statistics. One writer per leaf, reused across row groups via Finish().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parquet/file_schema.h"
#include "parquet/parquet_format.h"
#include "types/column_batch.h"
#include "types/literal.h"

namespace floe::parquet {

struct ColumnWriterOptions {
  int32_t codec = codec::kZstd;
  int compression_level = 3;
  size_t page_size = 1 << 20;         // write.parquet.page-size-bytes
  size_t dict_size_limit = 2 << 20;   // write.parquet.dict-size-bytes
  bool dictionary_enabled = true;
};

// What a finished column chunk reports back.
struct ChunkResult {
  std::string dictionary_page;     // header + body; empty when the chunk has no dictionary
  std::vector<std::string> data_pages;  // each page's header, then its body, in order
  int64_t data_pages_size = 0;          // their bytes
  int64_t num_values = 0;          // values including nulls
  int64_t null_count = 0;
  int64_t nan_count = 0;
  int64_t total_uncompressed_size = 0;  // headers included, as the footer wants
  std::vector<int32_t> encodings;
  // Bounds over non-null, non-NaN values; null when there are none.
  Literal min;
  Literal max;
  Statistics footer_stats;         // plain-encoded min_value/max_value and null_count
};

class ColumnChunkWriter {
 public:
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const LeafDescriptor& leaf, TypePtr type,
                                                         const ColumnWriterOptions& options);
  virtual ~ColumnChunkWriter() = default;

  // Appends rows [begin, end) of the leaf column. def_levels holds one level per row of the
  // column (indexed like it) or is null when the leaf and its ancestors are all required.
  // A value is present at a row whose level is the leaf's max definition level.
  virtual Status Append(const Column& column, const uint8_t* def_levels, size_t begin, size_t end) = 0;
  // Appends `count` level entries of a leaf under a list or map (max_rep_level > 0), starting
  // a record. entries holds one row per entry (indexed like the levels); the value of entry i
  // is read only where def_levels[i] is the leaf's max definition level. Pages end only
  // where a record does (repetition level 0), and a call ends a record.
  virtual Status AppendRepeated(const Column& entries, const uint8_t* def_levels, const uint8_t* rep_levels,
                                size_t count) = 0;
  // Bytes this chunk will take, roughly (finished pages + the open page + the dictionary).
  virtual size_t EstimatedSize() const = 0;
  // Closes the chunk and resets the writer for the next row group. Deferral must be off.
  virtual Result<ChunkResult> Finish() = 0;

  // Deferred compression, so that one caller can compress the pages of several columns on
  // several threads: while on, a finished data page keeps its body uncompressed as pending
  // page; CompressPendingPage(i) compresses one (distinct i may run on different threads at
  // once), and CommitPendingPages appends them all, in order, to the chunk (compressing any
  // still raw). The chunk's bytes are the same as with compression done page by page.
  virtual void SetDeferCompression(bool on) = 0;
  virtual size_t PendingPageCount() const = 0;
  virtual Status CompressPendingPage(size_t i) = 0;
  virtual Status CommitPendingPages() = 0;
};

}  // namespace floe::parquet
