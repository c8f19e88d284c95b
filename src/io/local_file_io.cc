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

// A file being written, and how it will get its final name:
//   kUnnamed   an O_TMPFILE inode in the target's folder: it has no name until linkat gives
//              it the final one (one directory change; a crash leaves nothing behind);
//   kTempName  a ".floe-tmp-<uuid>" file hard-linked to the final name, then removed, where
//              the file system has no unnamed files (three directory changes);
//   kInPlace   the final name itself, created with O_EXCL, for unreferenced files.
struct PendingFile {
  enum class Kind { kUnnamed, kTempName, kInPlace };
  Kind kind;
  std::string temp;  // kTempName: the temporary name; kInPlace: the target
  Fd fd;
};

// Gives an unnamed file the name `target` unless it exists. linkat with AT_EMPTY_PATH needs
// CAP_DAC_READ_SEARCH; the /proc/self/fd form works for everyone where /proc is mounted.
Status LinkUnnamed(int fd, const std::string& target) {
  if (::linkat(fd, "", AT_FDCWD, target.c_str(), AT_EMPTY_PATH) == 0) return Ok();
  if (errno == EEXIST) return AlreadyExists(target + " already exists");
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) return Ok();
  if (errno == EEXIST) return AlreadyExists(target + " already exists");
  return std::unexpected(ErrnoError("link new file to", target, errno));
}

// Whether LinkUnnamed can work in this process: linkat(AT_EMPTY_PATH) needs
// CAP_DAC_READ_SEARCH (root usually has it; containers often drop it), the other form needs
// /proc. Checked once; without either, new files get a temporary name instead.
bool UnnamedFilesCanBeLinked() {
  static const bool can = ::geteuid() == 0 || ::access("/proc/self/fd", X_OK) == 0;
  return can;
}

// Makes the fully written and fsynced file visible as `target` (durably), or reports
// AlreadyExists. A temporary name is removed either way. An in-place file keeps its name in
// `file.temp` until it is durably published, so that Discard removes it after a failure.
Status Publish(PendingFile& file, const std::string& target, const std::string& folder) {
  Status published = Ok();
  switch (file.kind) {
    case PendingFile::Kind::kUnnamed:
      published = LinkUnnamed(file.fd.get(), target);
      break;
    case PendingFile::Kind::kTempName:
      published = posix::PublishNoReplace(file.temp, target);
      // After a hard link the temporary name still exists; after a rename or a failure it
      // may. Either way it must go.
      if (::unlink(file.temp.c_str()) != 0 && errno != ENOENT && published) {
        published = std::unexpected(ErrnoError("remove temporary file", file.temp, errno));
      }
      break;
    case PendingFile::Kind::kInPlace:
      break;  // already under its name
  }
  if (file.kind == PendingFile::Kind::kTempName) file.temp.clear();  // unlinked above
  if (published && ::close(file.fd.release()) != 0) published = std::unexpected(ErrnoError("close", target, errno));
  if (published) published = posix::SyncFolder(folder);
  if (published) file.temp.clear();  // published: nothing of it is left to remove
  return published;
}

// Removes what an unfinished file left: its temporary or in-place name (an unnamed file
// vanishes with its descriptor).
void Discard(PendingFile& file) {
  file.fd.reset();
  if (!file.temp.empty()) ::unlink(file.temp.c_str());
  file.temp.clear();
}

// A new file for `target`, in its folder (created when missing). In place for unreferenced
// files; otherwise unnamed where the file system allows, else under a temporary name.
Result<PendingFile> CreatePending(std::string_view path, const std::string& target, const std::string& folder,
                                  bool in_place, bool unnamed_allowed) {
  if (in_place) {
    for (int tries = 0;; ++tries) {
      Fd fd(::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
      if (fd.get() >= 0) return PendingFile{PendingFile::Kind::kInPlace, target, std::move(fd)};
      if (errno == EEXIST) return AlreadyExists(std::string(path) + " already exists");
      if (errno != ENOENT || tries > 0) return std::unexpected(ErrnoError("create", target, errno));
      FLOE_RETURN_IF_ERROR(posix::MakeFolders(folder));  // missing folders: only now
    }
  }
  FLOE_RETURN_IF_ERROR(posix::MakeFolders(folder));
  if (unnamed_allowed && UnnamedFilesCanBeLinked()) {
    Fd unnamed(::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644));
    if (unnamed.get() >= 0) return PendingFile{PendingFile::Kind::kUnnamed, "", std::move(unnamed)};
  }
  std::string temp = TempPathIn(folder);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) return std::unexpected(ErrnoError("create temporary file for", target, errno));
  return PendingFile{PendingFile::Kind::kTempName, std::move(temp), std::move(fd)};
}

// Streams into a pending file; Close makes it durable and publishes it under the final name.
class LocalOutputFile : public OutputFile {
 public:
  LocalOutputFile(std::string path, std::string target, std::string folder, PendingFile file)
      : path_(std::move(path)), target_(std::move(target)), folder_(std::move(folder)), file_(std::move(file)) {}
  ~LocalOutputFile() override { Abort(); }

  const std::string& path() const override { return path_; }
  int64_t Position() const override { return written_ + static_cast<int64_t>(buffer_.size()); }

  Status Write(std::string_view data) override {
    if (done_) return InvalidArgument("write to " + path_ + " after Close or Abort");
    // Small writes are gathered so a writer emitting many little pieces
    // (page headers, footers) does not pay one system call each.
    if (buffer_.size() + data.size() < kBufferSize) {
      buffer_.append(data);
      return Ok();
    }
    FLOE_RETURN_IF_ERROR(Flush());
    if (data.size() >= kBufferSize) {
      FLOE_RETURN_IF_ERROR(posix::WriteAll(file_.fd.get(), data, target_));
      written_ += static_cast<int64_t>(data.size());
    } else {
      buffer_.append(data);
    }
    return Ok();
  }

  Status Close() override {
    if (done_) return InvalidArgument("close of " + path_ + " after Close or Abort");
    Status status = Flush();
    if (status && ::fsync(file_.fd.get()) != 0) status = std::unexpected(ErrnoError("fsync", target_, errno));
    if (status) status = Publish(file_, target_, folder_);
    Abort();  // removes what a failure left; after a publish there is nothing
    return status;
  }

  void Abort() override {
    done_ = true;
    buffer_.clear();
    Discard(file_);
  }

 private:
  static constexpr size_t kBufferSize = 1 << 20;

  Status Flush() {
    if (buffer_.empty()) return Ok();
    FLOE_RETURN_IF_ERROR(posix::WriteAll(file_.fd.get(), buffer_, target_));
    written_ += static_cast<int64_t>(buffer_.size());
    buffer_.clear();
    return Ok();
  }

  std::string path_;    // as the caller named it
  std::string target_;  // the file-system path it will get
  std::string folder_;
  PendingFile file_;
  bool done_ = false;
  std::string buffer_;
  int64_t written_ = 0;
};

// The whole of `data` as a new file `target`: written, fsynced, published, folder fsynced.
Status CreateWhole(std::string_view path, std::string_view data, bool in_place, bool unnamed_allowed) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  const std::string folder = ParentPath(target);
  FLOE_ASSIGN_OR_RETURN(PendingFile file, CreatePending(path, target, folder, in_place, unnamed_allowed));
  Status status = posix::WriteAll(file.fd.get(), data, target);
  if (status && ::fsync(file.fd.get()) != 0) status = std::unexpected(ErrnoError("fsync", target, errno));
  if (status) status = Publish(file, target, folder);
  Discard(file);  // removes what a failure left; after a publish there is nothing
  return status;
}

Result<std::unique_ptr<OutputFile>> OpenOutput(std::string_view path, bool in_place, bool unnamed_allowed) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  std::string folder = ParentPath(target);
  FLOE_ASSIGN_OR_RETURN(PendingFile file, CreatePending(path, target, folder, in_place, unnamed_allowed));
  return std::make_unique<LocalOutputFile>(std::string(path), std::move(target), std::move(folder), std::move(file));
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
  return CreateWhole(path, data, false, options_.use_unnamed_files);
}

Result<std::unique_ptr<OutputFile>> LocalFileIO::NewOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(std::string target, LocalPath(path));
  if (NameExists(target)) return AlreadyExists(std::string(path) + " already exists");
  return OpenOutput(path, false, options_.use_unnamed_files);
}

Status LocalFileIO::CreateUnreferenced(std::string_view path, std::string_view data) {
  return CreateWhole(path, data, true, options_.use_unnamed_files);
}

Result<std::unique_ptr<OutputFile>> LocalFileIO::NewUnreferencedOutputFile(std::string_view path) {
  return OpenOutput(path, true, options_.use_unnamed_files);
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
