#include "scan/file_source.h"

#include "io/read_ahead.h"

namespace floe {

Result<std::shared_ptr<FileIOSource>> FileIOSource::Open(FileIO& io, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, io.NewInputFile(path));
  return std::shared_ptr<FileIOSource>(new FileIOSource(std::move(file)));
}

Result<std::string_view> FileIOSource::Read(uint64_t offset, uint64_t length) const {
  // Not zeroed: a mapped file answers with a view of its mapping and leaves the buffer
  // untouched, and zeroing a column chunk's worth of fresh pages per read cost as much as
  // decoding a slice of it (task_slices.h opens a file once per slice).
  auto buffer = std::make_unique_for_overwrite<char[]>(length == 0 ? 1 : length);
  FLOE_ASSIGN_OR_RETURN(std::string_view view,
                        file_->ReadAt(static_cast<int64_t>(offset), static_cast<int64_t>(length), buffer.get()));
  if (view.data() == buffer.get()) {
    std::lock_guard<std::mutex> lock(mutex_);
    buffers_.push_back(Buffer{offset, length, std::move(buffer)});
  }
  return view;
}

Status FileIOSource::WillRead(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const {
  std::vector<ByteRange> ranges;
  ranges.reserve(spans.size());
  for (const auto& [offset, length] : spans)
    ranges.push_back(ByteRange{static_cast<int64_t>(offset), static_cast<int64_t>(length)});
  return floe::WillRead(*file_, ranges);
}

void FileIOSource::DoneReading(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const {
  std::vector<ByteRange> ranges;
  ranges.reserve(spans.size());
  for (const auto& [offset, length] : spans)
    ranges.push_back(ByteRange{static_cast<int64_t>(offset), static_cast<int64_t>(length)});
  floe::DoneReading(*file_, ranges);
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(buffers_, [&](const Buffer& b) {
    for (const auto& [offset, length] : spans)
      if (b.offset >= offset && b.offset + b.length <= offset + length) return true;
    return false;
  });
}

Result<std::shared_ptr<const parquet::ParquetFile>> OpenParquetFile(FileIO& io, const std::string& path) {
  auto source = FileIOSource::Open(io, path);
  if (!source) return std::unexpected(source.error().WithContext("opening data file " + path));
  auto file = parquet::ParquetFile::Open(*source);
  if (!file) return std::unexpected(file.error().WithContext("reading the Parquet footer of " + path));
  return std::shared_ptr<const parquet::ParquetFile>(*file);
}

}  // namespace floe
