// A FileIO that resolves relative paths against a base folder instead of the working directory.
//
// PyIceberg with a relative warehouse writes relative locations into its catalog and metadata
// ("data/persistent/t/metadata/00001-....metadata.json"); they mean "relative to where the
// writer ran". Wrapping the catalog's FileIO in this lets a reader anywhere open them.
// Absolute paths and URIs pass through unchanged; listings of a relative prefix come back
// relative, as they were asked.
#pragma once

#include <memory>
#include <string>

#include "io/file_io.h"

namespace floe {

class RebasedFileIO : public FileIO {
 public:
  RebasedFileIO(std::shared_ptr<FileIO> inner, std::string base_dir);

  // The path `inner` sees.
  std::string Resolve(std::string_view path) const;

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
  bool IsRelative(std::string_view path) const;
  std::shared_ptr<FileIO> inner_;
  std::string base_;  // without a trailing '/'
};

}  // namespace floe
