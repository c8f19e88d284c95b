// Lets the Parquet reader read through FileIO: a parquet::InputSource over an io InputFile.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/file_io.h"
#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"

namespace floe {

class FileIOSource : public parquet::InputSource {
 public:
  static Result<std::shared_ptr<FileIOSource>> Open(FileIO& io, const std::string& path);

  uint64_t size() const override { return static_cast<uint64_t>(file_->Size()); }
  // Views point into the file's mapping when the FileIO maps files, else into buffers this
  // source keeps until it is destroyed (the reader needs views that outlive the call).
  Result<std::string_view> Read(uint64_t offset, uint64_t length) const override;
  const std::string& name() const override { return file_->path(); }
  // Passed to the InputFile (on S3 a merged ranged GET; elsewhere nothing).
  Status WillRead(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const override;
  // Passed to the InputFile (on S3 the announced ranges' memory is freed), and the buffers of
  // reads lying inside the spans are freed: reading a file row group by row group holds one
  // row group's bytes, not the file's.
  void DoneReading(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const override;

 private:
  explicit FileIOSource(std::unique_ptr<InputFile> file) : file_(std::move(file)) {}
  struct Buffer {
    uint64_t offset = 0;
    uint64_t length = 0;
    std::unique_ptr<char[]> bytes;
  };
  std::unique_ptr<InputFile> file_;
  mutable std::mutex mutex_;
  mutable std::vector<Buffer> buffers_;
};

// Opens a Parquet file through FileIO and reads its footer. Errors name the path.
Result<std::shared_ptr<const parquet::ParquetFile>> OpenParquetFile(FileIO& io, const std::string& path);

}  // namespace floe
