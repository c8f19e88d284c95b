// A column batch's rows as CSV, JSON-lines or JSON-array text, written value by value straight
// from the typed column vectors into one buffer (no JSON value per cell, no stream call per row).
//
// The text is what the floe command's row listing prints (cli/output.h): CSV nulls are empty fields and
// empty strings "", JSON keys come in the batch's column order, values as Literal::ToJson gives
// them. Nested columns print as null. The JSON array is laid out as nlohmann's dump(2) lays out
// an array of objects, so a streamed array is byte for byte the listing's.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "floe/scan_export.h"
#include "types/column_batch.h"

namespace floe {

class BatchText {
 public:
  using Format = ScanTextFormat;
  // Rows formatted into one piece of text at a time: bounds the text buffer whatever the batch.
  static constexpr size_t kRowsPerSlice = 16384;
  BatchText(const std::vector<std::string>& columns, Format format);

  Format format() const { return format_; }
  // Rows [begin, end) of `batch` (its columns parallel to `columns`) onto *out: CSV and JSON
  // lines one line each; JSON-array elements each led by ",\n" (BatchTextWriter turns the first
  // one's ',' into the '[').
  void Append(const ColumnBatch& batch, size_t begin, size_t end, std::string* out) const;

 private:
  void AppendValue(const Column& column, size_t row, std::string* out) const;

  Format format_;
  std::string row_open_;               // jsonl "{", json ",\n  {", csv ""
  std::vector<std::string> prefixes_;  // before each value: jsonl "\"a\":", ",\"b\":"; csv "", ","
  std::string row_close_;              // jsonl "}\n", json "\n  }" (or "}" with no column), csv "\n"
  std::vector<std::string> columns_;   // for the CSV header
  friend class BatchTextWriter;
};

// Writes BatchText's pieces to a stream in order, with what goes around them: the CSV header
// first; for a JSON array the opening '[' and, at Finish, the closing "]" ("[]" when no row came).
class BatchTextWriter {
 public:
  BatchTextWriter(const BatchText& text, std::ostream& out);  // writes the CSV header
  // A piece BatchText::Append made, written as is (the first JSON element's ',' made the '[').
  void Write(std::string_view piece);
  // Rows [0, rows) of `batch`, formatted and written kRowsPerSlice rows at a time.
  void WriteRows(const ColumnBatch& batch, size_t rows);
  void Finish();

 private:
  const BatchText& text_;
  std::ostream& out_;
  bool wrote_element_ = false;  // json: the '[' is out
  std::string scratch_;
};

}  // namespace floe
