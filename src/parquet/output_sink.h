// Where a Parquet writer puts its bytes, and where a reader gets them.
//
// parquet/ does not depend on io/: these two small interfaces are all the codec needs, and
// io/ (or anyone) adapts to them. The file-backed sink creates its file exclusively: floe
// never overwrites a file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/result.h"

namespace floe::parquet {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual Status Append(std::string_view data) = 0;
  // Bytes appended so far.
  virtual uint64_t position() const = 0;
  // Makes the bytes durable where that means something (fsync); called once by the writer.
  virtual Status Close() { return Ok(); }
};

// Appends to a caller-owned string.
class StringSink : public OutputSink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  Status Append(std::string_view data) override;
  uint64_t position() const override { return out_->size(); }

 private:
  std::string* out_;
};

// Writes a new local file (O_CREAT | O_EXCL); Close fsyncs it when sync is true.
class FileSink : public OutputSink {
 public:
  static Result<std::unique_ptr<FileSink>> Create(const std::string& path, bool sync = false);
  ~FileSink() override;
  Status Append(std::string_view data) override;
  uint64_t position() const override { return position_; }
  Status Close() override;

 private:
  FileSink(std::string path, int fd, bool sync) : path_(std::move(path)), fd_(fd), sync_(sync) {}
  Status FlushBuffer();
  std::string path_;
  int fd_;
  bool sync_;
  uint64_t position_ = 0;
  std::string buffer_;  // coalesces small appends (page headers) into large writes
};

// Random access to a whole Parquet file. Views returned by Read stay valid as long as the
// source lives.
class InputSource {
 public:
  virtual ~InputSource() = default;
  virtual uint64_t size() const = 0;
  // Bytes [offset, offset + length); IOError (or Corrupt) when outside the file.
  virtual Result<std::string_view> Read(uint64_t offset, uint64_t length) const = 0;
  // Names the file in error messages.
  virtual const std::string& name() const = 0;
  // A hint that these [offset, offset + length) spans are read next, so that a source whose
  // every read is a request (an object store) fetches them together. Default: nothing.
  virtual Status WillRead(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const {
    (void)spans;
    return Ok();
  }
  // A hint that these spans are not read again soon. A mapped file gives their pages back to
  // the kernel, so that reading a file from start to end keeps only what is being decoded
  // resident; views read earlier stay valid (their pages are mapped again if touched).
  // Default: nothing.
  virtual void DoneReading(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const { (void)spans; }
};

// A file held in memory; the bytes are shared, not copied.
class BufferSource : public InputSource {
 public:
  BufferSource(std::shared_ptr<const std::string> bytes, std::string name)
      : bytes_(std::move(bytes)), name_(std::move(name)) {}
  // Copies the bytes.
  BufferSource(std::string_view bytes, std::string name)
      : bytes_(std::make_shared<const std::string>(bytes)), name_(std::move(name)) {}
  uint64_t size() const override { return bytes_->size(); }
  Result<std::string_view> Read(uint64_t offset, uint64_t length) const override;
  const std::string& name() const override { return name_; }

 private:
  std::shared_ptr<const std::string> bytes_;
  std::string name_;
};

// A local file, memory-mapped read-only.
class MappedFileSource : public InputSource {
 public:
  static Result<std::unique_ptr<MappedFileSource>> Open(const std::string& path);
  ~MappedFileSource() override;
  uint64_t size() const override { return size_; }
  Result<std::string_view> Read(uint64_t offset, uint64_t length) const override;
  const std::string& name() const override { return path_; }
  void DoneReading(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const override;

 private:
  MappedFileSource(std::string path, const char* data, uint64_t size) : path_(std::move(path)), data_(data), size_(size) {}
  std::string path_;
  const char* data_;
  uint64_t size_;
};

}  // namespace floe::parquet
