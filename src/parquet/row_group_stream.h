// Streams one row group of a Parquet file in batches of a few thousand rows, keeping only
// the rows that pass a value predicate (value_predicate.h).
//
//   ParquetFile file ...;  ColumnBatch batch(projection);
//   FLOE_ASSIGN_OR_RETURN(auto stream, RowGroupStream::Open(file, rg, projection, {.predicate = p}));
//   while (true) { FLOE_ASSIGN_OR_RETURN(bool more, stream->Next(&batch)); if (!more) break; ... }
//
// Unlike ParquetFile::ReadRowGroup, memory stays bounded by a page per column: the
// predicate column is matched page by page (on dictionary ids where it can be), the other
// columns are decoded a page at a time (a dictionary page only to its ids, so that values
// are looked up for the selected rows alone), and a page none of whose rows are selected
// is not even decompressed. The predicate's column need
// not be projected. A row range [row_begin, row_end) lets several threads share a row group.
// The projection holds top-level primitive fields only (CanStream); a projected field the
// file lacks reads as nulls, and a predicate on a field the file lacks matches nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "parquet/column_cursor.h"
#include "parquet/parquet_reader.h"
#include "parquet/value_predicate.h"

namespace floe::parquet {

struct StreamOptions {
  std::optional<ValuePredicate> predicate;  // none: every row
  int64_t row_begin = 0;                    // rows of the row group to read: [row_begin, row_end)
  int64_t row_end = -1;                     // -1: to the row group's end
  size_t batch_rows = 1 << 16;              // rows examined per batch (before filtering)
};

class RowGroupStream {
 public:
  // Whether a projection can be streamed (its fields are all primitive).
  static bool CanStream(const Schema& projection);

  static Result<std::unique_ptr<RowGroupStream>> Open(std::shared_ptr<const ParquetFile> file, int row_group,
                                                      const Schema& projection, StreamOptions options = {});

  // Replaces *batch's rows with the next rows that pass the predicate (at least one; at most
  // batch_rows); false once the range is exhausted. The batch's buffers are reused. When
  // row_numbers is not null it receives each returned row's index in the row group.
  Result<bool> Next(ColumnBatch* batch, std::vector<int64_t>* row_numbers = nullptr);

 private:
  RowGroupStream() = default;

  std::shared_ptr<const ParquetFile> file_;
  Schema projection_;
  std::vector<std::unique_ptr<ColumnCursor>> columns_;  // parallel to the projection; null = absent
  std::unique_ptr<ColumnCursor> matcher_;               // the predicate's column
  bool has_predicate_ = false;
  bool nothing_matches_ = false;  // the predicate's column is absent, or it has no values
  size_t batch_rows_ = 0;
  size_t pos_ = 0;  // next row of the row group
  size_t end_ = 0;
  std::vector<uint8_t> match_;
};

// Every row of row group `rg` that passes `predicate`, as one batch (streamed: the
// predicate's column is never materialized). The projection must satisfy CanStream.
Result<ColumnBatch> ReadRowGroupWhere(std::shared_ptr<const ParquetFile> file, int rg, const Schema& projection,
                                      const ValuePredicate& predicate);

}  // namespace floe::parquet
