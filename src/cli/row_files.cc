#include "cli/row_files.h"

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "cli/progress.h"
#include "cli/read_ahead.h"
#include "parquet/parquet_reader.h"
#include "write/text_rows.h"

namespace floe::cli {

struct FileRows::Current {
  std::string path;
  int64_t size = 0;
  std::ifstream stream;
  std::unique_ptr<TextRowReader> text;
  std::unique_ptr<parquet::ParquetReader> parquet;
};

namespace {
constexpr size_t kBatchRows = 65536;

bool IsParquet(const std::string& path, const std::string& format) {
  if (format == "parquet") return true;
  return format.empty() && path.size() >= 8 && path.ends_with(".parquet");
}
}  // namespace

void AddNullStringOption(CLI::App* command, TextReadOptions* options) {
  command->add_option("--null-string", options->null_string,
                      "CSV: the unquoted text that means null (default: an empty field; \"\" is always the empty string)");
}

void AddFileInputOptions(CLI::App* command, FileInput* input) {
  AddNullStringOption(command, &input->text);
  command->add_option("--format", input->format, "csv, jsonl or parquet (default: from each file's extension)");
}

std::optional<std::string> BadFileFormat(const std::string& format) {
  if (format.empty() || format == "csv" || format == "jsonl" || format == "json" || format == "parquet")
    return std::nullopt;
  return "--format must be csv, jsonl or parquet, not '" + format + "'";
}

Result<RowWriteResult> AppendFiles(Catalog& catalog, const TableIdentifier& id, const Schema& schema,
                                   const std::vector<std::string>& paths, const FileInput& input,
                                   RowWriteOptions options, bool show_progress) {
  FileRows rows(paths, input.format, schema, input.text);
  Progress progress(show_progress, "append", rows.total_bytes());
  options.progress = [&](int64_t r, int64_t b) { progress.Update(r, b, 0, rows.bytes_done()); };
  ReadAhead ahead(rows.AsSource());  // read and convert input while the writer writes
  auto result = AppendRows(catalog, id, ahead.AsSource(), options);
  progress.Finish();
  return result;
}

FileRows::FileRows(std::vector<std::string> paths, std::string format, Schema schema, TextReadOptions text_options)
    : paths_(std::move(paths)), format_(std::move(format)), schema_(std::move(schema)),
      text_options_(std::move(text_options)) {
  for (const auto& p : paths_) {
    std::error_code ec;
    auto size = std::filesystem::file_size(p, ec);
    if (!ec) total_bytes_ += static_cast<int64_t>(size);
  }
}

FileRows::~FileRows() = default;

int64_t FileRows::bytes_done() const { return done_bytes_; }

Status FileRows::OpenNext() {
  const std::string& path = paths_[next_++];
  auto current = std::make_unique<Current>();
  current->path = path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return NotFound("input file '" + path + "' does not exist");
  current->size = static_cast<int64_t>(std::filesystem::file_size(path, ec));
  if (IsParquet(path, format_)) {
    FLOE_ASSIGN_OR_RETURN(auto file, parquet::ParquetFile::OpenPath(path));
    parquet::ReadOptions options;
    options.projection = schema_;
    FLOE_ASSIGN_OR_RETURN(current->parquet, parquet::ParquetReader::Make(file, options));
  } else {
    FLOE_ASSIGN_OR_RETURN(TextFormat format, TextFormatFor(path, format_));
    current->stream.open(path, std::ios::binary);
    if (!current->stream) return IOError("cannot open input file '" + path + "'");
    FLOE_ASSIGN_OR_RETURN(current->text, TextRowReader::Open(current->stream, format, schema_, path, text_options_));
  }
  current_ = std::move(current);
  return Ok();
}

Result<bool> FileRows::Next(ColumnBatch* batch) {
  while (true) {
    if (!current_) {
      if (next_ >= paths_.size()) return false;
      FLOE_RETURN_IF_ERROR(OpenNext());
    }
    if (current_->parquet) {
      auto next = current_->parquet->Next();
      if (!next) return std::unexpected(next.error().WithContext(current_->path));
      if (next->has_value()) {
        *batch = std::move(**next);
        return true;
      }
    } else {
      FLOE_ASSIGN_OR_RETURN(bool more, current_->text->Next(kBatchRows, batch));
      if (more) return true;
    }
    done_bytes_ += current_->size;
    current_.reset();
  }
}

}  // namespace floe::cli
