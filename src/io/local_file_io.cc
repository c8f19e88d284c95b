#include "io/local_file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "io/local_path.h"
#include "io/posix_util.h"
#include "util/uuid.h"

namespace floe {

namespace {

using posix::ErrnoError;

int64_t MtimeMillis(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1'000'000;
}

// An open file descriptor, closed on destruction.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

// Opens a regular file for reading; a folder is InvalidArgument.
Result<Fd> OpenForRead(const std::string& path, struct stat* st) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return std::unexpected(ErrnoError("open", path, errno));
  if (::fstat(fd.get(), st) != 0) return std::unexpected(ErrnoError("stat", path, errno));
  if (S_ISDIR(st->st_mode)) return InvalidArgument(path + " is a folder, not a file");
  return fd;
}

class LocalInputFile : public InputFile {
 public:
  LocalInputFile(std::string path, Fd fd, int64_t size, const char* mapping)
      : path_(std::move(path)), fd_(std::move(fd)), size_(size), mapping_(mapping) {}
  ~LocalInputFile() override {
    if (mapping_ != nullptr) ::munmap(const_cast<char*>(mapping_), static_cast<size_t>(size_));
  }

  const std::string& path() const override { return path_; }
  int64_t Size() const override { return size_; }

  Result<std::string_view> ReadAt(int64_t offset, int64_t length, char* scratch) const override {
    FLOE_RETURN_IF_ERROR(CheckReadRange(path_, size_, offset, length));
    if (mapping_ != nullptr) return std::string_view(mapping_ + offset, static_cast<size_t>(length));
    FLOE_RETURN_IF_ERROR(posix::ReadExactly(fd_.get(), offset, length, scratch, path_));
    return std::string_view(scratch, static_cast<size_t>(length));
  }

 private:
  std::string path_;
  Fd fd_;  // unused (closed) when the file is mapped
  int64_t size_;
  const char* mapping_;  // whole file, or nullptr when reading with pread
};

std::string TempPathIn(const std::string& folder) {
  std::string temp = folder == "/" ? "/" : folder + "/";
  temp += kLocalTempFilePrefix;
  temp += RandomUuidString();
  return temp;
}

// Makes the fully written and fsynced temporary file visible as `target`, or
// reports AlreadyExists. Removes the temporary name either way.
Status Publish(const std::string& temp, const std::string& target, const std::string& folder) {
  Status published = posix::PublishNoReplace(temp, target);
  // After a hard link the temporary name still exists; after a rename or a
  // failure it may. Either way it must go.
  if (::unlink(temp.c_str()) != 0 && errno != ENOENT && published) {
    return std::unexpected(ErrnoError("remove temporary file", temp, errno));
  }
  FLOE_RETURN_IF_ERROR(published);
  return posix::SyncFolder(folder);
}

// Writes into a temporary file; Close publishes it under the final name. Or, for an
// unreferenced file, writes under the final name itself (`temp` == `target`) and Close only
// makes it durable.
class LocalOutputFile : public OutputFile {
 public:
  LocalOutputFile(std::string path, std::string target, std::string folder, std::string temp, Fd fd)
      : path_(std::move(path)),
        target_(std::move(target)),
        folder_(std::move(folder)),
        temp_(std::move(temp)),
        fd_(std::move(fd)) {}
  ~LocalOutputFile() override { Abort(); }

  const std::string& path() const override { return path_; }
  int64_t Position() const override { return written_ + static_cast<int64_t>(buffer_.size()); }

  Status Write(std::string_view data) override {
    if (fd_.get() < 0) return InvalidArgument("write to " + path_ + " after Close or Abort");
    // Small writes are gathered so a writer emitting many little pieces
    // (page headers, footers) does not pay one system call each.
    if (buffer_.size() + data.size() < kBufferSize) {
      buffer_.append(data);
      return Ok();
    }
    FLOE_RETURN_IF_ERROR(Flush());
    if (data.size() >= kBufferSize) {
      FLOE_RETURN_IF_ERROR(posix::WriteAll(fd_.get(), data, temp_));
      written_ += static_cast<int64_t>(data.size());
    } else {
      buffer_.append(data);
    }
    return Ok();
  }

  Status Close() override {
    if (fd_.get() < 0) return InvalidArgument("close of " + path_ + " after Close or Abort");
    Status status = Flush();
    if (status && ::fsync(fd_.get()) != 0) status = std::unexpected(ErrnoError("fsync", temp_, errno));
    if (status && ::close(fd_.release()) != 0) {
      status = std::unexpected(ErrnoError("close", temp_, errno));
    }
    if (status && temp_ == target_) {
      status = posix::SyncFolder(folder_);
      if (status) temp_.clear();  // the file stays; Abort below removes it on failure
    } else if (status) {
      status = Publish(temp_, target_, folder_);
      temp_.clear();  // Publish removed it
    }
    if (!status) Abort();
    fd_.reset();
    return status;
  }

  void Abort() override {
    fd_.reset();
    buffer_.clear();
    if (!temp_.empty()) {
      ::unlink(temp_.c_str());
      temp_.clear();
    }
  }

 private:
  static constexpr size_t kBufferSize = 1 << 20;

  Status Flush() {
    if (buffer_.empty()) return Ok();
    FLOE_RETURN_IF_ERROR(posix::WriteAll(fd_.get(), buffer_, temp_));
    written_ += static_cast<int64_t>(buffer_.size());
    buffer_.clear();
    return Ok();
  }

  std::string path_;    // as the caller named it
  std::string target_;  // the file-system path it will get
  std::string folder_;
  std::string temp_;  // empty once published or aborted
  Fd fd_;
  std::string buffer_;
  int64_t written_ = 0;
};

// A new temporary file in the folder of `target`, creating missing folders.
Result<std::pair<std::string, Fd>> CreateTempFor(const std::string& target, const std::string& folder) {
  FLOE_RETURN_IF_ERROR(posix::MakeFolders(folder));
  std::string temp = TempPathIn(folder);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) return std::unexpected(ErrnoError("create temporary file for", target, errno));
  return std::pair{std::move(temp), std::move(fd)};
}

// Creates `target` itself, exclusively, for an unreferenced file; AlreadyExists when the name
// is taken. Missing folders are created only when the first attempt says they are missing.
Result<Fd> CreateInPlace(std::string_view path, const std::string& target, const std::string& folder) {
  for (int tries = 0;; ++tries) {
    Fd fd(::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (fd.get() >= 0) return fd;
    if (errno == EEXIST) return AlreadyExists(std::string(path) + " already exists");
    if (errno != ENOENT || tries > 0) return std::unexpected(ErrnoError("create", target, errno));
    FLOE_RETURN_IF_ERROR(posix::MakeFolders(folder));
  }
}

bool NameExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace

Result<std::unique_ptr<InputFile>> LocalFileIO::NewInputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(path));
  struct stat st;
  FLOE_ASSIGN_OR_RETURN(Fd fd, OpenForRead(local, &st));
  const int64_t size = st.st_size;
  const char* mapping = nullptr;
  if (options_.use_mmap && size > 0) {
    void* addr = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd.get(), 0);
    if (addr == MAP_FAILED) return std::unexpected(ErrnoError("map", local, errno));
    mapping = static_cast<const char*>(addr);
    fd.reset();  // the mapping keeps the file open
  }
  return std::make_unique<LocalInputFile>(std::string(path), std::move(fd), size, mapping);
}

Result<std::string> LocalFileIO::ReadAll(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(path));
  struct stat st;
  FLOE_ASSIGN_OR_RETURN(Fd fd, OpenForRead(local, &st));
  std::string data(static_cast<size_t>(st.st_size), '\0');
  FLOE_RETURN_IF_ERROR(posix::ReadExactly(fd.get(), 0, st.st_size, data.data(), local));
  return data;
}

Result<std::string> LocalFileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(path));
  struct stat st;
  FLOE_ASSIGN_OR_RETURN(Fd fd, OpenForRead(local, &st));
  FLOE_RETURN_IF_ERROR(CheckReadRange(std::string(path), st.st_size, offset, length));
  std::string data(static_cast<size_t>(length), '\0');
  FLOE_RETURN_IF_ERROR(posix::ReadExactly(fd.get(), offset, length, data.data(), local));
  return data;
}

Result<int64_t> LocalFileIO::Size(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(path));
  struct stat st;
  if (::stat(local.c_str(), &st) != 0) return std::unexpected(ErrnoError("stat", local, errno));
  if (S_ISDIR(st.st_mode)) return InvalidArgument(local + " is a folder, not a file");
  return static_cast<int64_t>(st.st_size);
}

Result<bool> LocalFileIO::Exists(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(path));
  struct stat st;
  if (::stat(local.c_str(), &st) == 0) return !S_ISDIR(st.st_mode);
  if (errno == ENOENT || errno == ENOTDIR) return false;
  return std::unexpected(ErrnoError("stat", local, errno));
}

Status LocalFileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  // Cheap early answer; the link in Publish is what decides a race.
  if (NameExists(target)) return AlreadyExists(std::string(path) + " already exists");
  const std::string folder = ParentPath(target);
  FLOE_ASSIGN_OR_RETURN(auto temp_and_fd, CreateTempFor(target, folder));
  auto& [temp, fd] = temp_and_fd;
  Status status = posix::WriteAll(fd.get(), data, temp);
  if (status && ::fsync(fd.get()) != 0) status = std::unexpected(ErrnoError("fsync", temp, errno));
  if (status && ::close(fd.release()) != 0) status = std::unexpected(ErrnoError("close", temp, errno));
  if (!status) {
    ::unlink(temp.c_str());
    return status;
  }
  return Publish(temp, target, folder);
}

Result<std::unique_ptr<OutputFile>> LocalFileIO::NewOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  if (NameExists(target)) return AlreadyExists(std::string(path) + " already exists");
  std::string folder = ParentPath(target);
  FLOE_ASSIGN_OR_RETURN(auto temp_and_fd, CreateTempFor(target, folder));
  return std::make_unique<LocalOutputFile>(std::string(path), std::move(target), std::move(folder),
                                           std::move(temp_and_fd.first),
                                           std::move(temp_and_fd.second));
}

Status LocalFileIO::CreateUnreferenced(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  const std::string folder = ParentPath(target);
  FLOE_ASSIGN_OR_RETURN(Fd fd, CreateInPlace(path, target, folder));
  Status status = posix::WriteAll(fd.get(), data, target);
  if (status && ::fsync(fd.get()) != 0) status = std::unexpected(ErrnoError("fsync", target, errno));
  if (status && ::close(fd.release()) != 0) status = std::unexpected(ErrnoError("close", target, errno));
  if (status) status = posix::SyncFolder(folder);
  if (!status) ::unlink(target.c_str());  // ours: O_EXCL created it
  return status;
}

Result<std::unique_ptr<OutputFile>> LocalFileIO::NewUnreferencedOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  std::string folder = ParentPath(target);
  FLOE_ASSIGN_OR_RETURN(Fd fd, CreateInPlace(path, target, folder));
  std::string in_place = target;
  return std::make_unique<LocalOutputFile>(std::string(path), std::move(target), std::move(folder),
                                           std::move(in_place), std::move(fd));
}

namespace {

// Walks `folder` (whose entries print as `shown` + name) for files whose
// printed path starts with `want`, descending only into folders that can hold
// such files. Symbolic links to folders are not followed (no cycles).
Status Walk(const std::string& folder, const std::string& shown, const std::string& want,
            const std::string& prefix, std::vector<FileInfo>& out) {
  DIR* dir = ::opendir(folder.c_str());
  if (dir == nullptr) {
    // Gone, or not a folder: nothing under it.
    if (errno == ENOENT || errno == ENOTDIR) return Ok();
    return std::unexpected(ErrnoError("list", folder, errno));
  }
  Status status = Ok();
  while (true) {
    errno = 0;
    struct dirent* entry = ::readdir(dir);
    if (entry == nullptr) {
      if (errno != 0) status = std::unexpected(ErrnoError("list", folder, errno));
      break;
    }
    std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    std::string fs_path = folder == "/" ? "/" + std::string(name) : folder + "/" + std::string(name);
    std::string printed = shown + std::string(name);
    struct stat st;
    if (::lstat(fs_path.c_str(), &st) != 0) continue;  // removed while we listed
    if (S_ISDIR(st.st_mode)) {
      std::string as_folder = printed + "/";
      if (as_folder.starts_with(want) || want.starts_with(as_folder)) {
        status = Walk(fs_path, as_folder, want, prefix, out);
        if (!status) break;
      }
      continue;
    }
    if (!printed.starts_with(want)) continue;
    if (S_ISLNK(st.st_mode) && (::stat(fs_path.c_str(), &st) != 0 || S_ISDIR(st.st_mode))) continue;
    if (!S_ISREG(st.st_mode)) continue;
    out.push_back(FileInfo{prefix + printed.substr(want.size()), static_cast<int64_t>(st.st_size),
                           MtimeMillis(st)});
  }
  ::closedir(dir);
  return status;
}

}  // namespace

Result<std::vector<FileInfo>> LocalFileIO::ListPrefix(std::string_view prefix) {
  FLOE_ASSIGN_OR_RETURN(std::string want, LocalPath(prefix));
  // Start from the folder that holds everything the prefix can match.
  std::string root, shown;
  size_t slash = want.rfind('/');
  if (slash == std::string::npos) {
    root = ".";  // a relative prefix without a folder: printed paths have no "./"
  } else {
    shown = want.substr(0, slash + 1);
    root = slash == 0 ? "/" : want.substr(0, slash);
  }
  std::vector<FileInfo> files;
  FLOE_RETURN_IF_ERROR(Walk(root, shown, want, std::string(prefix), files));
  return files;
}

Status LocalFileIO::Delete(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string local, LocalPath(path));
  if (::unlink(local.c_str()) == 0 || errno == ENOENT) return Ok();
  if (errno == EISDIR) return InvalidArgument(local + " is a folder, not a file");
  return std::unexpected(ErrnoError("delete", local, errno));
}

}  // namespace floe
