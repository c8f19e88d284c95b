// A column batch's rows as CSV or JSON-lines text, written value by value straight from the
// typed column vectors into one buffer (no JSON value per cell, no stream call per row).
//
// The text is what the row-at-a-time listing printed (output.h): CSV nulls are empty fields and
// empty strings "", JSON keys come in the batch's column order, values as Literal::ToJson gives
// them. Nested columns print as null.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "types/column_batch.h"

namespace floe::cli {

// `s` as one CSV field: quoted when it holds , " CR or LF, and when empty (an unquoted empty
// field is null).
void AppendCsvField(std::string_view s, std::string* out);

class BatchText {
 public:
  enum class Format { kCsv, kJsonl };
  // Rows formatted into one piece of text at a time: bounds the text buffer whatever the batch.
  static constexpr size_t kRowsPerSlice = 16384;
  BatchText(const std::vector<std::string>& columns, Format format);

  // Rows [begin, end) of `batch` (its columns parallel to `columns`), one line each, onto *out.
  void Append(const ColumnBatch& batch, size_t begin, size_t end, std::string* out) const;
  // Rows [0, rows) of `batch` onto `out`, through `scratch` kRowsPerSlice rows at a time.
  void Write(const ColumnBatch& batch, size_t rows, std::ostream& out, std::string* scratch) const;

 private:
  void AppendValue(const Column& column, size_t row, std::string* out) const;

  Format format_;
  std::vector<std::string> prefixes_;  // jsonl: "{\"a\":", ",\"b\":", ...; csv: "", ",", ...
};

}  // namespace floe::cli
