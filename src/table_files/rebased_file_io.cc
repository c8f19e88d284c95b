#include "table_files/rebased_file_io.h"

#include "io/local_path.h"
#include "util/strings.h"

namespace floe {

RebasedFileIO::RebasedFileIO(std::shared_ptr<FileIO> inner, std::string base_dir)
    : PathMappingFileIO(std::move(inner)), base_(TrimTrailingSlashes(base_dir)) {
}

bool RebasedFileIO::IsRelative(std::string_view path) const {
  return !path.empty() && path[0] != '/' && !HasUriScheme(path);
}

std::string RebasedFileIO::Resolve(std::string_view path) const {
  if (!IsRelative(path)) return std::string(path);
  return base_ + "/" + std::string(path);
}

Result<std::vector<FileInfo>> RebasedFileIO::ListPrefix(std::string_view prefix) {
  FLOE_ASSIGN_OR_RETURN(auto files, inner().ListPrefix(Resolve(prefix)));
  if (IsRelative(prefix)) {
    const std::string strip = base_ + "/";
    for (auto& f : files) {
      if (f.path.compare(0, strip.size(), strip) == 0) f.path.erase(0, strip.size());
    }
  }
  return files;
}

}  // namespace floe
