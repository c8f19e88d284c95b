// Rows from text files people have at hand: CSV with a header line, and JSON lines.
//
// Columns are matched to the schema by name (case-insensitive); a header name the schema lacks
// is an error naming every such name; a column the file lacks is null (an error if the field
// is required); a value that does not convert is an error naming the file, the line and the
// column. In CSV an unquoted empty field is null and a quoted "" the empty string (as DuckDB,
// Spark and PostgreSQL read CSV); `null_string` chooses another null marker (unquoted only).
// For a column that is not a string, an empty field is null either way. JSON nulls are nulls.
// A struct, list or map column takes its value's human JSON form (types/nested_json.h): in JSON
// lines the value itself, in CSV that JSON's text; an error names the place inside the value.
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "types/column_batch.h"
#include "types/literal.h"
#include "write/csv_records.h"
#include "types/schema.h"

namespace floe {

enum class TextFormat { kCsv, kJsonLines };

struct TextReadOptions {
  std::string null_string;  // CSV: this unquoted text is null (default: the empty field)
};

// From an explicit --format ("csv", "jsonl", "json") or, when empty, the file's extension.
Result<TextFormat> TextFormatFor(const std::string& path, const std::string& explicit_format);

class TextRowReader {
 public:
  // `source_name` names the input in errors. The stream must outlive the reader.
  static Result<std::unique_ptr<TextRowReader>> Open(std::istream& in, TextFormat format, const Schema& schema,
                                                     std::string source_name, TextReadOptions options = {});

  // Reads up to `max_rows` rows into a fresh batch; false once the input is exhausted.
  Result<bool> Next(size_t max_rows, ColumnBatch* out);
  int64_t line() const { return format_ == TextFormat::kCsv ? csv_.record_line() : line_; }

 private:
  TextRowReader(std::istream& in, TextFormat format, const Schema& schema, std::string source_name,
                TextReadOptions options)
      : in_(in), format_(format), schema_(schema), source_(std::move(source_name)), options_(std::move(options)),
        csv_(in, source_) {}
  Status ReadHeader();
  Status AppendCsvRecord(ColumnBatch* out);
  Status AppendJsonLine(const std::string& line, ColumnBatch* out);
  std::string Where(const std::string& column) const;

  std::istream& in_;
  TextFormat format_;
  Schema schema_;
  std::string source_;
  TextReadOptions options_;
  int64_t line_ = 0;
  CsvRecordReader csv_;
  std::vector<CsvField> fields_;           // the current CSV record
  std::vector<int> csv_column_of_field_;  // for each schema field, its CSV column or -1
  size_t csv_header_size_ = 0;
  // For each schema field, what a row that leaves it out holds: its write-default (format 3).
  std::vector<std::optional<Literal>> write_defaults_;
};

// Infers a schema from a CSV or JSON-lines sample: long, double, boolean, date, timestamp or
// string per column, every field optional (for `floe create --like`); in JSON lines an object
// is a struct and an array a list (write/json_type_guess.h).
Result<Schema> InferSchema(std::istream& in, TextFormat format, const std::string& source_name, size_t sample_rows = 1000);

}  // namespace floe
