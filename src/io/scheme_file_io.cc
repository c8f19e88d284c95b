#include "io/scheme_file_io.h"

#include "io/s3_client.h"
#include "io/s3_file_io.h"

namespace floe {

SchemeFileIO::SchemeFileIO(std::shared_ptr<FileIO> local, std::map<std::string, std::string> s3_properties)
    : local_(std::move(local)), s3_properties_(std::move(s3_properties)) {}

SchemeFileIO::SchemeFileIO(std::shared_ptr<FileIO> local, std::shared_ptr<FileIO> s3)
    : local_(std::move(local)), s3_(std::move(s3)) {}

Result<std::shared_ptr<FileIO>> SchemeFileIO::S3() {
  std::lock_guard lock(mutex_);
  if (!s3_) {
    FLOE_ASSIGN_OR_RETURN(auto made, S3FileIO::Make(s3_properties_));
    s3_ = std::move(made);
  }
  return s3_;
}

Result<FileIO*> SchemeFileIO::For(std::string_view path) {
  if (!IsS3Uri(path)) return local_.get();
  FLOE_ASSIGN_OR_RETURN(auto s3, S3());
  return s3.get();
}

Result<std::unique_ptr<InputFile>> SchemeFileIO::NewInputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->NewInputFile(path);
}
Result<std::string> SchemeFileIO::ReadAll(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->ReadAll(path);
}
Result<std::string> SchemeFileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->ReadRange(path, offset, length);
}
Result<int64_t> SchemeFileIO::Size(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->Size(path);
}
Result<bool> SchemeFileIO::Exists(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->Exists(path);
}
Status SchemeFileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->CreateIfAbsent(path, data);
}
Result<std::unique_ptr<OutputFile>> SchemeFileIO::NewOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->NewOutputFile(path);
}
Status SchemeFileIO::CreateUnreferenced(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->CreateUnreferenced(path, data);
}
Result<std::unique_ptr<OutputFile>> SchemeFileIO::NewUnreferencedOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->NewUnreferencedOutputFile(path);
}
Result<std::vector<FileInfo>> SchemeFileIO::ListPrefix(std::string_view prefix) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(prefix));
  return io->ListPrefix(prefix);
}
Status SchemeFileIO::Delete(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(FileIO * io, For(path));
  return io->Delete(path);
}

Status SchemeFileIO::DeleteFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> s3_paths, local_paths;
  for (const std::string& path : paths) (IsS3Uri(path) ? s3_paths : local_paths).push_back(path);
  Status first = local_paths.empty() ? Ok() : local_->DeleteFiles(local_paths);
  if (!s3_paths.empty()) {
    auto s3 = S3();
    Status deleted = s3 ? (*s3)->DeleteFiles(s3_paths) : Status(std::unexpected(s3.error()));
    if (!deleted && first) first = deleted;
  }
  return first;
}

}  // namespace floe
