// Rows from files: CSV, JSON lines or Parquet, converted to a table's schema (src/api only).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "rows/row_write_options.h"
#include "types/schema.h"
#include "write/text_rows.h"

namespace floe {

// A RowSource over several files, each read as `format` (or by its extension when empty),
// converted to `schema` (columns matched by name). Errors name the file and line.
class FileRows {
 public:
  FileRows(std::vector<std::string> paths, std::string format, Schema schema, TextReadOptions text_options = {});
  ~FileRows();

  Result<bool> Next(ColumnBatch* batch);
  RowSource AsSource() {
    return [this](ColumnBatch* b) { return Next(b); };
  }
  int64_t total_bytes() const { return total_bytes_; }
  int64_t bytes_done() const;  // input consumed so far (whole files)

 private:
  struct Current;
  Status OpenNext();

  std::vector<std::string> paths_;
  std::string format_;
  Schema schema_;
  TextReadOptions text_options_;
  size_t next_ = 0;
  int64_t total_bytes_ = 0;
  std::atomic<int64_t> done_bytes_ = 0;  // read by a progress display on another thread
  std::unique_ptr<Current> current_;
};

}  // namespace floe
