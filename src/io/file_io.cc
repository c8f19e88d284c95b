#include "floe/file_io.h"

namespace floe {

Status CheckReadRange(std::string_view path, int64_t size, int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    return InvalidArgument("read of " + std::to_string(length) + " bytes at offset " +
                           std::to_string(offset) + " is outside " + std::string(path) +
                           " (size " + std::to_string(size) + ")");
  }
  return Ok();
}

Result<std::string> InputFile::Read(int64_t offset, int64_t length) const {
  if (length < 0) return InvalidArgument("negative read length for " + path());
  std::string buffer(static_cast<size_t>(length), '\0');
  FLOE_ASSIGN_OR_RETURN(std::string_view bytes, ReadAt(offset, length, buffer.data()));
  if (bytes.data() != buffer.data()) return std::string(bytes);
  return buffer;
}

Result<std::string> FileIO::ReadAll(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(auto file, NewInputFile(path));
  return file->Read(0, file->Size());
}

Result<std::string> FileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  FLOE_ASSIGN_OR_RETURN(auto file, NewInputFile(path));
  return file->Read(offset, length);
}

Status FileIO::DeleteFiles(const std::vector<std::string>& paths) {
  Status first = Ok();
  for (const std::string& path : paths) {
    Status deleted = Delete(path);
    if (!deleted && first) first = deleted;
  }
  return first;
}

}  // namespace floe
