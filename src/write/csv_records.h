// CSV records (RFC 4180) read from a stream in large chunks, one record at a time.
//
// Fields are views into the reader's buffer, valid until the next call to Next. A field knows
// whether it was quoted: an unquoted empty field and a quoted "" are different values (NULL and
// the empty string, as DuckDB, Spark and PostgreSQL read them). Quoted fields may span lines;
// CRLF line ends are accepted; blank lines are skipped.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

struct CsvField {
  std::string_view text;  // without the quotes, "" unescaped to "
  bool quoted = false;
};

class CsvRecordReader {
 public:
  // `source_name` names the input in errors. The stream must outlive the reader.
  CsvRecordReader(std::istream& in, std::string source_name);

  // The next record's fields into `fields` (cleared first); false at the end of the input.
  Result<bool> Next(std::vector<CsvField>* fields);

  // The line the last record returned by Next started on (1-based).
  int64_t record_line() const { return record_line_; }
  const std::string& source() const { return source_; }

 private:
  enum class Parse { kRecord, kBlank, kNeedMore, kUnterminated, kStrayQuote };
  Parse ParseRecord(std::vector<CsvField>* fields, size_t* end);
  Status Refill();

  std::istream& in_;
  std::string source_;
  std::string buffer_;   // bytes [pos_, buffer_.size()) are not consumed yet
  size_t pos_ = 0;
  bool eof_ = false;
  std::string unescaped_;  // quoted fields holding "" escapes, resolved per record
  int64_t line_ = 1;       // the line at pos_
  int64_t record_line_ = 0;
  int64_t newlines_ = 0;  // in the record ParseRecord last parsed
};

}  // namespace floe
