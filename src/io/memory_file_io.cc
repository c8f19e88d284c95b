#include "io/memory_file_io.h"

#include "io/local_path.h"

namespace floe {

namespace {

class MemoryInputFile : public InputFile {
 public:
  MemoryInputFile(std::string path, std::shared_ptr<const std::string> data)
      : path_(std::move(path)), data_(std::move(data)) {}

  const std::string& path() const override { return path_; }
  int64_t Size() const override { return static_cast<int64_t>(data_->size()); }

  Result<std::string_view> ReadAt(int64_t offset, int64_t length, char*) const override {
    FLOE_RETURN_IF_ERROR(CheckReadRange(path_, Size(), offset, length));
    return std::string_view(*data_).substr(static_cast<size_t>(offset), static_cast<size_t>(length));
  }

 private:
  std::string path_;
  std::shared_ptr<const std::string> data_;
};

// Gathers the bytes; Close hands them to CreateIfAbsent in one step, so the
// file appears whole or not at all.
class MemoryOutputFile : public OutputFile {
 public:
  MemoryOutputFile(MemoryFileIO& io, std::string path) : io_(io), path_(std::move(path)) {}

  const std::string& path() const override { return path_; }
  int64_t Position() const override { return static_cast<int64_t>(buffer_.size()); }

  Status Write(std::string_view data) override {
    if (done_) return InvalidArgument("write to " + path_ + " after Close or Abort");
    buffer_.append(data);
    return Ok();
  }

  Status Close() override {
    if (done_) return InvalidArgument("close of " + path_ + " after Close or Abort");
    done_ = true;
    Status status = io_.CreateIfAbsent(path_, buffer_);
    buffer_ = std::string();
    return status;
  }

  void Abort() override {
    done_ = true;
    buffer_ = std::string();
  }

 private:
  MemoryFileIO& io_;
  std::string path_;
  std::string buffer_;
  bool done_ = false;
};

}  // namespace

Result<std::string> MemoryFileIO::Key(std::string_view path) {
  Result<std::string> local = LocalPath(path);
  // NotSupported means a scheme other than file:, which names itself.
  if (!local && local.error().kind == ErrorKind::kNotSupported) return std::string(path);
  return local;
}

Result<MemoryFileIO::Entry> MemoryFileIO::Find(std::string_view path) const {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(path));
  std::lock_guard lock(mutex_);
  auto it = files_.find(key);
  if (it == files_.end()) return NotFound(std::string(path) + ": no such file");
  return it->second;
}

Result<std::unique_ptr<InputFile>> MemoryFileIO::NewInputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(Entry entry, Find(path));
  return std::make_unique<MemoryInputFile>(std::string(path), std::move(entry.data));
}

Result<std::string> MemoryFileIO::ReadAll(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(Entry entry, Find(path));
  return *entry.data;
}

Result<std::string> MemoryFileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  FLOE_ASSIGN_OR_RETURN(Entry entry, Find(path));
  FLOE_RETURN_IF_ERROR(
      CheckReadRange(std::string(path), static_cast<int64_t>(entry.data->size()), offset, length));
  return entry.data->substr(static_cast<size_t>(offset), static_cast<size_t>(length));
}

Result<int64_t> MemoryFileIO::Size(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(Entry entry, Find(path));
  return static_cast<int64_t>(entry.data->size());
}

Result<bool> MemoryFileIO::Exists(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(path));
  std::lock_guard lock(mutex_);
  return files_.contains(key);
}

Status MemoryFileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(path));
  // Copy outside the lock; big files should not stall other callers.
  auto bytes = std::make_shared<const std::string>(data);
  std::lock_guard lock(mutex_);
  auto [it, inserted] = files_.try_emplace(std::move(key), Entry{std::move(bytes), clock_.NowMillis()});
  if (!inserted) return AlreadyExists(std::string(path) + " already exists");
  return Ok();
}

Result<std::unique_ptr<OutputFile>> MemoryFileIO::NewOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(bool exists, Exists(path));
  if (exists) return AlreadyExists(std::string(path) + " already exists");
  return std::make_unique<MemoryOutputFile>(*this, std::string(path));
}

Result<std::vector<FileInfo>> MemoryFileIO::ListPrefix(std::string_view prefix) {
  FLOE_ASSIGN_OR_RETURN(std::string want, Key(prefix));
  std::vector<FileInfo> files;
  std::lock_guard lock(mutex_);
  for (auto it = files_.lower_bound(want); it != files_.end() && it->first.starts_with(want); ++it) {
    files.push_back(FileInfo{std::string(prefix) + it->first.substr(want.size()),
                             static_cast<int64_t>(it->second.data->size()), it->second.mtime_ms});
  }
  return files;
}

Status MemoryFileIO::Delete(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(path));
  std::lock_guard lock(mutex_);
  files_.erase(key);
  return Ok();
}

size_t MemoryFileIO::FileCount() const {
  std::lock_guard lock(mutex_);
  return files_.size();
}

}  // namespace floe
