// Lets the Parquet codec write through FileIO: a parquet::OutputSink over an io OutputFile.
#pragma once

#include <memory>

#include "floe/file_io.h"
#include "parquet/output_sink.h"

namespace floe {

class FileIOSink : public parquet::OutputSink {
 public:
  explicit FileIOSink(std::unique_ptr<OutputFile> file) : file_(std::move(file)) {}
  Status Append(std::string_view data) override { return file_->Write(data); }
  uint64_t position() const override { return static_cast<uint64_t>(file_->Position()); }
  // Publishes the file under its name, durably (create-if-absent).
  Status Close() override { return file_->Close(); }
  void Abort() { file_->Abort(); }
  const std::string& path() const { return file_->path(); }

 private:
  std::unique_ptr<OutputFile> file_;
};

}  // namespace floe
