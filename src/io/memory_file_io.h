// FileIO held in memory: for tests and for tables that need no disk.
//
// Local paths go through LocalPath, so "file:///a" and "/a" name the same file; a location
// with any other scheme ("memory://w/t", "s3://b/k") is its own name, as written, so a program
// can give tables URIs of its own and keep every file here.
// There are no folders: a file's name is its whole path, and a listing is
// by string prefix. Thread-safe. A file's bytes are shared, never copied, by
// the InputFiles reading it, and stay readable after the file is deleted.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "floe/file_io.h"
#include "util/clock.h"

namespace floe {

class MemoryFileIO : public FileIO {
 public:
  // Modification times come from `clock`, which must outlive this FileIO
  // (a ManualClock lets a test age files).
  explicit MemoryFileIO(const Clock& clock = Clock::System()) : clock_(clock) {}

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) override;
  Result<std::string> ReadAll(std::string_view path) override;
  Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length) override;
  Result<int64_t> Size(std::string_view path) override;
  Result<bool> Exists(std::string_view path) override;
  Status CreateIfAbsent(std::string_view path, std::string_view data) override;
  // The OutputFile must not outlive this FileIO.
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override;
  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override;
  Status Delete(std::string_view path) override;

  size_t FileCount() const;

 private:
  struct Entry {
    std::shared_ptr<const std::string> data;
    int64_t mtime_ms = 0;
  };

  static Result<std::string> Key(std::string_view path);
  Result<Entry> Find(std::string_view path) const;

  const Clock& clock_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> files_;  // by Key
};

}  // namespace floe
