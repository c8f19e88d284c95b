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

#include "table_files/path_mapping_file_io.h"

namespace floe {

class RebasedFileIO : public PathMappingFileIO {
 public:
  RebasedFileIO(std::shared_ptr<FileIO> inner, std::string base_dir);

  // The path `inner` sees.
  std::string Resolve(std::string_view path) const;
  std::string Map(std::string_view path) const override { return Resolve(path); }

  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override;

 private:
  bool IsRelative(std::string_view path) const;
  std::string base_;  // without a trailing '/'
};

}  // namespace floe
