#include "parquet/output_sink.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace floe::parquet {

namespace {
std::string ErrnoText() { return std::strerror(errno); }
constexpr size_t kFileBufferSize = 1 << 20;
}  // namespace

Status StringSink::Append(std::string_view data) {
  out_->append(data);
  return Ok();
}

Result<std::unique_ptr<FileSink>> FileSink::Create(const std::string& path, bool sync) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return AlreadyExists("parquet: file already exists: " + path);
    return IOError("parquet: cannot create " + path + ": " + ErrnoText());
  }
  return std::unique_ptr<FileSink>(new FileSink(path, fd, sync));
}

FileSink::~FileSink() {
  if (fd_ >= 0) ::close(fd_);
}

Status FileSink::FlushBuffer() {
  size_t done = 0;
  while (done < buffer_.size()) {
    ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return IOError("parquet: writing " + path_ + ": " + ErrnoText());
    }
    done += static_cast<size_t>(n);
  }
  buffer_.clear();
  return Ok();
}

Status FileSink::Append(std::string_view data) {
  if (fd_ < 0) return IOError("parquet: " + path_ + " is closed");
  buffer_.append(data);
  position_ += data.size();
  if (buffer_.size() >= kFileBufferSize) return FlushBuffer();
  return Ok();
}

Status FileSink::Close() {
  if (fd_ < 0) return Ok();
  FLOE_RETURN_IF_ERROR(FlushBuffer());
  if (sync_ && ::fsync(fd_) != 0) return IOError("parquet: fsync " + path_ + ": " + ErrnoText());
  int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) return IOError("parquet: closing " + path_ + ": " + ErrnoText());
  return Ok();
}

Result<std::string_view> BufferSource::Read(uint64_t offset, uint64_t length) const {
  if (offset > bytes_->size() || length > bytes_->size() - offset)
    return Corrupt(name_ + ": read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
                   " is outside the file (" + std::to_string(bytes_->size()) + " bytes)");
  return std::string_view(*bytes_).substr(offset, length);
}

Result<std::unique_ptr<MappedFileSource>> MappedFileSource::Open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound("parquet: no such file: " + path);
    return IOError("parquet: cannot open " + path + ": " + ErrnoText());
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return IOError("parquet: cannot stat " + path + ": " + ErrnoText());
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  const char* data = nullptr;
  if (size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      return IOError("parquet: cannot map " + path + ": " + ErrnoText());
    }
    data = static_cast<const char*>(p);
  }
  ::close(fd);
  return std::unique_ptr<MappedFileSource>(new MappedFileSource(path, data, size));
}

MappedFileSource::~MappedFileSource() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

Result<std::string_view> MappedFileSource::Read(uint64_t offset, uint64_t length) const {
  if (offset > size_ || length > size_ - offset)
    return Corrupt(path_ + ": read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
                   " is outside the file (" + std::to_string(size_) + " bytes)");
  return std::string_view(data_ + offset, length);
}

void MappedFileSource::DoneReading(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const {
  // Only whole pages inside a span: a page shared with a neighbouring span may still be read.
  // The mapping is read-only and private, so dropped pages were never changed and come back
  // from the file unchanged if read again.
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  for (const auto& [offset, length] : spans) {
    if (offset > size_ || length > size_ - offset) continue;
    const uint64_t begin = (offset + page - 1) / page * page;
    const uint64_t end = (offset + length) / page * page;
    if (end <= begin) continue;
    ::madvise(const_cast<char*>(data_) + begin, end - begin, MADV_DONTNEED);
  }
}

}  // namespace floe::parquet
