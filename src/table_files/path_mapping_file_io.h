// A FileIO that hands every call to another FileIO after mapping the path it names: the common
// part of the wrappers that read a table somewhere other than where its paths say
// (table_files/rebased_file_io.h: relative paths; table_files/moved_paths_file_io.h: a moved table).
#pragma once

#include <memory>
#include <string>

#include "floe/file_io.h"

namespace floe {

class PathMappingFileIO : public FileIO {
 public:
  explicit PathMappingFileIO(std::shared_ptr<FileIO> inner) : inner_(std::move(inner)) {}

  // The path `inner` sees for `path`.
  virtual std::string Map(std::string_view path) const = 0;
  std::string ResolvedPath(std::string_view path) const override { return inner_->ResolvedPath(Map(path)); }

  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) override;
  Result<std::string> ReadAll(std::string_view path) override;
  Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length) override;
  Result<int64_t> Size(std::string_view path) override;
  Result<bool> Exists(std::string_view path) override;
  Status CreateIfAbsent(std::string_view path, std::string_view data) override;
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override;
  Status CreateUnreferenced(std::string_view path, std::string_view data) override;
  Result<std::unique_ptr<OutputFile>> NewUnreferencedOutputFile(std::string_view path) override;
  // Listed paths come back as `inner` names them.
  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override;
  Status Delete(std::string_view path) override;

 protected:
  FileIO& inner() const { return *inner_; }

 private:
  std::shared_ptr<FileIO> inner_;
};

}  // namespace floe
