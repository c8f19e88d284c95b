// A forward-only position in one column chunk, for scans that stream a row group in small
// batches instead of decoding it whole.
//
// A caller asks for the next n rows: Read appends the selected ones to a Column, Match
// evaluates the chunk's predicate on them, Skip passes over them. Only one decoded page is
// held at a time. Skips are lazy: a page that lies wholly inside skipped rows is never
// decompressed, nor is a dictionary-encoded page whose dictionary holds no predicate value.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "parquet/column_reader.h"

namespace floe::parquet {

class ColumnCursor {
 public:
  // With `predicate` (a Column of the target type, no nulls), the cursor answers Match;
  // otherwise Read. Errors name the chunk (input.context).
  static Result<std::unique_ptr<ColumnCursor>> Open(ColumnChunkInput input, const TypePtr& target,
                                                    const Column* predicate = nullptr);

  // Appends to *out the values of the next n rows with sel[i] != 0 (all when sel is null).
  Status Read(size_t n, const uint8_t* sel, Column* out);
  // match[i] = 1 when row i of the next n is not null and equals a predicate value, else 0.
  Status Match(size_t n, uint8_t* match);
  // Passes over the next n rows.
  void Skip(size_t n) { skip_ += n; }

 private:
  explicit ColumnCursor(std::unique_ptr<ColumnChunkDecoder> decoder, bool matching, const TypePtr& target)
      : decoder_(std::move(decoder)), matching_(matching), page_(target) {}

  // Applies pending skips, then makes sure a page with unread rows is decoded.
  Status Settle();
  Status NextPage();

  std::unique_ptr<ColumnChunkDecoder> decoder_;
  bool matching_;
  size_t skip_ = 0;                 // rows to pass over before the next Read or Match
  Column page_;                     // the decoded page (Read) ...
  std::vector<uint32_t> page_ids_;  // ... or its dictionary ids, when page_as_ids_
  bool page_as_ids_ = false;
  std::vector<uint8_t> page_match_; // the page's match flags (Match)
  size_t page_rows_ = 0;
  size_t page_pos_ = 0;             // rows of the page already consumed
};

}  // namespace floe::parquet
