// Rows from text files people have at hand: CSV with a header line, and JSON lines.
//
// Columns are matched to the schema by name (case-insensitive); a column the file lacks is
// null (an error if the field is required); a value that does not convert is an error naming
// the file, the line and the column. Empty CSV fields and JSON nulls are nulls.
#pragma once

#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "types/column_batch.h"
#include "types/schema.h"

namespace floe {

enum class TextFormat { kCsv, kJsonLines };

// From an explicit --format ("csv", "jsonl", "json") or, when empty, the file's extension.
Result<TextFormat> TextFormatFor(const std::string& path, const std::string& explicit_format);

class TextRowReader {
 public:
  // `source_name` names the input in errors. The stream must outlive the reader.
  static Result<std::unique_ptr<TextRowReader>> Open(std::istream& in, TextFormat format, const Schema& schema,
                                                     std::string source_name);

  // Reads up to `max_rows` rows into a fresh batch; false once the input is exhausted.
  Result<bool> Next(size_t max_rows, ColumnBatch* out);
  int64_t line() const { return line_; }

 private:
  TextRowReader(std::istream& in, TextFormat format, const Schema& schema, std::string source_name)
      : in_(in), format_(format), schema_(schema), source_(std::move(source_name)) {}
  Status ReadHeader();
  Status AppendCsvLine(const std::string& line, ColumnBatch* out);
  Status AppendJsonLine(const std::string& line, ColumnBatch* out);
  std::string Where(const std::string& column) const;

  std::istream& in_;
  TextFormat format_;
  Schema schema_;
  std::string source_;
  int64_t line_ = 0;
  std::vector<int> csv_field_of_column_;  // for each CSV column, the schema field index or -1
};

// Splits one CSV record (RFC 4180 quoting). Multi-line quoted fields are not supported.
Result<std::vector<std::string>> SplitCsvLine(const std::string& line);

// Infers a schema from a CSV or JSON-lines sample: long, double, boolean, date, timestamp or
// string per column, every field optional (for `floe create --like`).
Result<Schema> InferSchema(std::istream& in, TextFormat format, const std::string& source_name, size_t sample_rows = 1000);

}  // namespace floe
