// Decodes one column chunk (one leaf of one row group) into a floe Column.
//
// Handles dictionary pages, data pages v1 and v2, PLAIN / PLAIN_DICTIONARY / RLE_DICTIONARY
// values, RLE booleans, RLE and BIT_PACKED definition levels, and all four codecs. Values
// are converted to the target Iceberg type (int -> long and float -> double promotion,
// millisecond and INT96 timestamps to microseconds, decimals from any physical form).
// Nothing in the chunk is trusted: sizes, counts and indices are checked, and a violation
// is a Corrupt error that names the file and column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/file_schema.h"
#include "parquet/parquet_format.h"
#include "types/column_batch.h"

namespace floe::parquet {

struct ColumnChunkInput {
  std::string_view bytes;          // the chunk's pages, from its first page to its end
  const ColumnMetaData* meta = nullptr;
  const LeafDescriptor* leaf = nullptr;
  int64_t num_rows = 0;            // rows of the row group
  std::string context;             // "file.parquet, column a.b" for error messages
};

// Reads the chunk into *out (a fresh Column of the target type). When def_levels is not
// null it receives one definition level per row (for rebuilding struct nulls). A repeated
// column (max_rep_level > 0) yields one entry per level entry instead of per row: *out holds
// a slot per entry (null where the definition level is below the leaf's maximum), and
// rep_levels, required then, receives each entry's repetition level (nested_assembly.h).
Status ReadColumnChunk(const ColumnChunkInput& input, const TypePtr& target, Column* out,
                       std::vector<uint8_t>* def_levels, std::vector<uint8_t>* rep_levels = nullptr);

// Decodes a column chunk one data page at a time, for readers that stream (column_cursor.h).
// Usage: PeekPage(); then exactly one of SkipPage, ReadPage, ReadPageOrIds or MatchPage for
// that page.
class ColumnChunkDecoder {
 public:
  static Result<std::unique_ptr<ColumnChunkDecoder>> Make(ColumnChunkInput input, const TypePtr& target);
  ~ColumnChunkDecoder();

  // Reads headers up to the next data page (decoding a dictionary page on the way); false
  // once every row of the chunk has been read or skipped.
  Result<bool> PeekPage();
  // Rows of the page PeekPage found.
  size_t page_rows() const;
  // True when no row of that page can match the predicate: it holds dictionary ids and no
  // dictionary entry is a predicate value. Such a page can be skipped undecoded.
  bool PageCannotMatch() const;
  // Moves past the page without decompressing it.
  Status SkipPage();
  // Appends the page's rows to *out (a Column of the target type); their definition levels
  // to *def_levels when it is not null.
  // A repeated column's pages give level entries, not rows: their repetition levels go to
  // *rep_levels. (ReadPageOrIds and MatchPage are NotSupported for repeated columns.)
  Status ReadPage(Column* out, std::vector<uint8_t>* def_levels = nullptr, std::vector<uint8_t>* rep_levels = nullptr);

  // Dictionary ids instead of values, so that a filtered scan looks up only the rows it
  // keeps. A dictionary-encoded page yields one id per row in *ids (kNullId for a null;
  // every other id is checked against the dictionary) and *as_ids = true; any other page
  // is read as by ReadPage and *as_ids = false.
  static constexpr uint32_t kNullId = UINT32_MAX;
  Status ReadPageOrIds(Column* out, std::vector<uint32_t>* ids, bool* as_ids);
  // Appends to *out the values of ids[i], i < k, with sel[i] != 0 (all when sel is null).
  // The ids must come from this decoder's ReadPageOrIds (a chunk has one dictionary).
  void AppendDictionaryValues(const uint32_t* ids, size_t k, const uint8_t* sel, Column* out);

  // An IN-list predicate for MatchPage: `values` is a Column of the target type without
  // nulls. Set before the first PeekPage. Floating-point columns are NotSupported (their
  // equality is not bitwise: -0.0 = 0.0).
  Status SetPredicate(const Column& values);
  // (*match)[i] = 1 when row i of the page is not null and equals a predicate value, else 0;
  // resized to page_rows(). Dictionary pages are matched on their ids: strings are never
  // built. A dictionary id beyond the dictionary is Corrupt, as in ReadPage.
  Status MatchPage(std::vector<uint8_t>* match);

 private:
  struct Impl;
  explicit ColumnChunkDecoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Whether a leaf of this file can be read as the target Iceberg type.
Status CheckReadable(const LeafDescriptor& leaf, const TypePtr& target);

}  // namespace floe::parquet
