// Rows from the files a user names on the command line: CSV, JSON lines or Parquet.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rows/row_writes.h"
#include "types/schema.h"
#include "write/text_rows.h"

namespace CLI {
class App;
}

namespace floe::cli {

// --null-string S on a command that reads CSV files.
void AddNullStringOption(CLI::App* command, TextReadOptions* options);

// How a command that appends files reads them: --format (empty: each file by its extension)
// and --null-string.
struct FileInput {
  std::string format;
  TextReadOptions text;
};
void AddFileInputOptions(CLI::App* command, FileInput* input);
// The usage message for a --format that is not csv, jsonl (json) or parquet; nullopt when it is.
std::optional<std::string> BadFileFormat(const std::string& format);

// Appends the rows of `paths` (read by `input`, converted to `schema`, the table's current
// schema) to table `id` as one commit: the files are read and converted on a thread of their
// own while the writer writes. With `show_progress`, a progress line on stderr (one thread's).
// Shared by `floe append` (all its files in one commit) and `floe ingest FILE...` (a commit
// per file, from several threads at once).
Result<RowWriteResult> AppendFiles(Catalog& catalog, const TableIdentifier& id, const Schema& schema,
                                   const std::vector<std::string>& paths, const FileInput& input,
                                   RowWriteOptions options, bool show_progress);

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

}  // namespace floe::cli
