#include "catalog/rebased_file_io.h"

#include "io/local_path.h"
#include "util/strings.h"

namespace floe {

RebasedFileIO::RebasedFileIO(std::shared_ptr<FileIO> inner, std::string base_dir)
    : inner_(std::move(inner)), base_(std::move(base_dir)) {
  base_ = TrimTrailingSlashes(base_);
}

bool RebasedFileIO::IsRelative(std::string_view path) const {
  return !path.empty() && path[0] != '/' && !HasUriScheme(path);
}

std::string RebasedFileIO::Resolve(std::string_view path) const {
  if (!IsRelative(path)) return std::string(path);
  return base_ + "/" + std::string(path);
}

Result<std::unique_ptr<InputFile>> RebasedFileIO::NewInputFile(std::string_view path) {
  return inner_->NewInputFile(Resolve(path));
}
Result<std::string> RebasedFileIO::ReadAll(std::string_view path) { return inner_->ReadAll(Resolve(path)); }
Result<std::string> RebasedFileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  return inner_->ReadRange(Resolve(path), offset, length);
}
Result<int64_t> RebasedFileIO::Size(std::string_view path) { return inner_->Size(Resolve(path)); }
Result<bool> RebasedFileIO::Exists(std::string_view path) { return inner_->Exists(Resolve(path)); }
Status RebasedFileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  return inner_->CreateIfAbsent(Resolve(path), data);
}
Result<std::unique_ptr<OutputFile>> RebasedFileIO::NewOutputFile(std::string_view path) {
  return inner_->NewOutputFile(Resolve(path));
}
Status RebasedFileIO::CreateUnreferenced(std::string_view path, std::string_view data) {
  return inner_->CreateUnreferenced(Resolve(path), data);
}
Result<std::unique_ptr<OutputFile>> RebasedFileIO::NewUnreferencedOutputFile(std::string_view path) {
  return inner_->NewUnreferencedOutputFile(Resolve(path));
}
Status RebasedFileIO::Delete(std::string_view path) { return inner_->Delete(Resolve(path)); }

Result<std::vector<FileInfo>> RebasedFileIO::ListPrefix(std::string_view prefix) {
  FLOE_ASSIGN_OR_RETURN(auto files, inner_->ListPrefix(Resolve(prefix)));
  if (IsRelative(prefix)) {
    const std::string strip = base_ + "/";
    for (auto& f : files) {
      if (f.path.compare(0, strip.size(), strip) == 0) f.path.erase(0, strip.size());
    }
  }
  return files;
}

}  // namespace floe
