#include "api/file_rows.h"

#include <filesystem>
#include <fstream>

#include "parquet/parquet_reader.h"
#include "write/text_rows.h"

namespace floe {

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

}  // namespace floe
