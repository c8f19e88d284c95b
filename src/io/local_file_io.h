// FileIO on the local file system (POSIX).
//
// CreateIfAbsent and OutputFile write a temporary file in the target folder
// (named ".floe-tmp-<uuid>"), fsync it, then hard-link it to the final name:
// link() fails when the name exists, which makes the create atomic between
// processes and means a reader never sees a partly written file. Then the
// temporary name is removed and the folder fsynced. A crash can leave a
// ".floe-tmp-*" file behind; listings show it, so orphan removal can reclaim
// it, and callers looking for their own names ignore it.
//
// CreateUnreferenced and NewUnreferencedOutputFile skip the temporary name: the
// file is opened with O_CREAT | O_EXCL under its final name, written, fsynced,
// and the folder fsynced. A failed or aborted write removes what it created.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/file_io.h"

namespace floe {

class LocalFileIO : public FileIO {
 public:
  struct Options {
    // Serve InputFile reads from a read-only mapping of the whole file (no
    // copy, no system call per read) instead of pread(). Safe because files
    // are never changed after creation.
    bool use_mmap = true;
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
