// FileIO on the local file system (POSIX).
//
// CreateIfAbsent and OutputFile write a file that has no name yet (O_TMPFILE in
// the target folder), fsync it, then link it to the final name: linkat() fails
// when the name exists, which makes the create atomic between processes and
// means a reader never sees a partly written file; the folder is fsynced after.
// A crash before the link leaves nothing. Where the file system has no unnamed
// files, a temporary ".floe-tmp-<uuid>" file is hard-linked (or renamed without
// replace) instead and then removed; a crash can leave one behind, listings show
// it, so orphan removal can reclaim it, and callers looking for their own names
// ignore it.
//
// CreateUnreferenced and NewUnreferencedOutputFile skip the link: the file is
// opened with O_CREAT | O_EXCL under its final name, written, fsynced, and the
// folder fsynced. A failed or aborted write removes what it created.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/file_io.h"

namespace floe {

class LocalFileIO : public FileIO {
 public:
  struct Options {
    // Serve InputFile reads from a read-only mapping of the whole file (no
    // copy, no system call per read) instead of pread(). Safe because files
    // are never changed after creation.
    bool use_mmap = true;
    // Write new files unnamed until published (O_TMPFILE) where the file system
    // allows; false always uses a named temporary file (tests cover both).
    bool use_unnamed_files = true;
  };

  LocalFileIO() = default;
  explicit LocalFileIO(Options options) : options_(options) {}

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) override;
  Result<std::string> ReadAll(std::string_view path) override;
  Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length) override;
  Result<int64_t> Size(std::string_view path) override;
  Result<bool> Exists(std::string_view path) override;
  Status CreateIfAbsent(std::string_view path, std::string_view data) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override;
  Status CreateUnreferenced(std::string_view path, std::string_view data) override;
  Result<std::unique_ptr<OutputFile>> NewUnreferencedOutputFile(std::string_view path) override;
  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override;
  Status Delete(std::string_view path) override;

 private:
  Options options_;
};

// The prefix of the temporary files LocalFileIO writes before publishing.
inline constexpr std::string_view kLocalTempFilePrefix = ".floe-tmp-";

}  // namespace floe
