#include "io/posix_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/local_path.h"

namespace floe::posix {

Error ErrnoError(std::string_view operation, std::string_view path, int error_number) {
  std::string message = std::string(operation) + " " + std::string(path) + ": " +
                        std::strerror(error_number);
  switch (error_number) {
    case ENOENT:
    case ENOTDIR:
      return Error{ErrorKind::kNotFound, std::move(message)};
    case EEXIST:
      return Error{ErrorKind::kAlreadyExists, std::move(message)};
    case ENAMETOOLONG:
      // The path names more than this file system allows (a component over its NAME_MAX, or the
      // whole over PATH_MAX): a bad name or location, not a broken disk.
      return Error{ErrorKind::kInvalidArgument, std::move(message) + " (a name in the path, or the whole path, is longer than the file system allows)"};
    default:
      return Error{ErrorKind::kIOError, std::move(message)};
  }
}

Status SyncFolder(const std::string& folder) {
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return std::unexpected(ErrnoError("open folder", folder, errno));
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  // Some file systems cannot fsync a folder (EINVAL); their metadata is then
  // as durable as they make it, and there is nothing more to do.
  if (rc != 0 && saved != EINVAL) return std::unexpected(ErrnoError("fsync folder", folder, saved));
  return Ok();
}

Status MakeFolders(const std::string& folder) {
  struct stat st;
  if (::stat(folder.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Ok();
    return IOError("create folder " + folder + ": a file of that name exists");
  }
  if (errno != ENOENT) return std::unexpected(ErrnoError("stat", folder, errno));
  std::string parent = ParentPath(folder);
  if (parent != folder) FLOE_RETURN_IF_ERROR(MakeFolders(parent));
  if (::mkdir(folder.c_str(), 0755) != 0) {
    if (errno == EEXIST) return Ok();  // another creator raced us; same outcome
    return std::unexpected(ErrnoError("create folder", folder, errno));
  }
  return SyncFolder(parent);
}

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::unexpected(ErrnoError("write", path, errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Ok();
}

Status ReadExactly(int fd, int64_t offset, int64_t length, char* out, const std::string& path) {
  while (length > 0) {
    ssize_t n = ::pread(fd, out, static_cast<size_t>(length), offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::unexpected(ErrnoError("read", path, errno));
    }
    if (n == 0) return IOError("read " + path + ": file ended early (was it truncated?)");
    out += n;
    offset += n;
    length -= n;
  }
  return Ok();
}

Status PublishNoReplace(const std::string& temp, const std::string& target) {
  if (::link(temp.c_str(), target.c_str()) == 0) return Ok();
  int link_error = errno;
  if (link_error == EEXIST) return AlreadyExists(target + " already exists");
  if (link_error != EPERM && link_error != EOPNOTSUPP && link_error != ENOSYS) {
    return std::unexpected(ErrnoError("link " + temp + " to", target, link_error));
  }
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) {
    return Ok();
  }
  if (errno == EEXIST) return AlreadyExists(target + " already exists");
  return std::unexpected(ErrnoError(
      "create-if-absent (this file system has neither hard links nor RENAME_NOREPLACE)", target,
      errno));
}

}  // namespace floe::posix
