// Small POSIX helpers for LocalFileIO: errors from errno, durable folder
// creation, whole writes and reads, and the no-replace publish of a file.
#pragma once

#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe::posix {

// An Error for a failed system call: ENOENT/ENOTDIR -> NotFound, EEXIST ->
// AlreadyExists, anything else -> IOError. The message names the operation,
// the path and the system's reason.
Error ErrnoError(std::string_view operation, std::string_view path, int error_number);

// fsync of a folder, so that the names created or removed in it survive a
// crash.
Status SyncFolder(const std::string& folder);

// Creates `folder` and its missing parents (mode 0755), each durably: the
// parent of every folder created is fsynced. Existing folders are fine.
Status MakeFolders(const std::string& folder);

// Writes all of `data` to `fd` (retrying short writes and EINTR).
Status WriteAll(int fd, std::string_view data, const std::string& path);

// Reads exactly `length` bytes at `offset` into `out` with pread.
// A file shorter than that is IOError (files are not supposed to shrink).
Status ReadExactly(int fd, int64_t offset, int64_t length, char* out, const std::string& path);

// Gives the file at `temp` the name `target` unless `target` exists, in
// which case AlreadyExists and nothing changes (the caller still owns and
// removes `temp`). Atomic between processes: hard link, or
// renameat2(RENAME_NOREPLACE) where the file system has no hard links. On
// success by hard link `temp` still exists and the caller removes it.
Status PublishNoReplace(const std::string& temp, const std::string& target);

}  // namespace floe::posix
