#include "table_files/path_mapping_file_io.h"

namespace floe {

Result<std::unique_ptr<InputFile>> PathMappingFileIO::NewInputFile(std::string_view path) {
  return inner_->NewInputFile(Map(path));
}
Result<std::string> PathMappingFileIO::ReadAll(std::string_view path) { return inner_->ReadAll(Map(path)); }
Result<std::string> PathMappingFileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  return inner_->ReadRange(Map(path), offset, length);
}
Result<int64_t> PathMappingFileIO::Size(std::string_view path) { return inner_->Size(Map(path)); }
Result<bool> PathMappingFileIO::Exists(std::string_view path) { return inner_->Exists(Map(path)); }
Status PathMappingFileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  return inner_->CreateIfAbsent(Map(path), data);
}
Result<std::unique_ptr<OutputFile>> PathMappingFileIO::NewOutputFile(std::string_view path) {
  return inner_->NewOutputFile(Map(path));
}
Status PathMappingFileIO::CreateUnreferenced(std::string_view path, std::string_view data) {
  return inner_->CreateUnreferenced(Map(path), data);
}
Result<std::unique_ptr<OutputFile>> PathMappingFileIO::NewUnreferencedOutputFile(std::string_view path) {
  return inner_->NewUnreferencedOutputFile(Map(path));
}
Result<std::vector<FileInfo>> PathMappingFileIO::ListPrefix(std::string_view prefix) {
  return inner_->ListPrefix(Map(prefix));
}
Status PathMappingFileIO::Delete(std::string_view path) { return inner_->Delete(Map(path)); }

}  // namespace floe
