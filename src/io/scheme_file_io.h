// One FileIO for every location a table may name: s3://, s3a:// and s3n:// paths go to an S3
// FileIO, everything else (plain paths, file: URIs) to the local one.
//
// A SQL catalog's tables may sit in an S3 warehouse while a registered one sits on disk, and a
// `floe scan s3://...` names its FileIO only by the path; routing by scheme serves both. The S3
// FileIO is made on first use from the given s3.* properties and the AWS environment
// (s3_config.h), so a catalog that never touches S3 never needs its settings, and a bad setting
// is reported by the first S3 access, naming it.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "floe/file_io.h"

namespace floe {

class SchemeFileIO : public FileIO {
 public:
  SchemeFileIO(std::shared_ptr<FileIO> local, std::map<std::string, std::string> s3_properties);
  // With an S3 FileIO already made (tests, or one shared by several catalogs).
  SchemeFileIO(std::shared_ptr<FileIO> local, std::shared_ptr<FileIO> s3);

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
  Status DeleteFiles(const std::vector<std::string>& paths) override;

  // The S3 FileIO (made now if it was not yet), or the error its settings give.
  Result<std::shared_ptr<FileIO>> S3();

 private:
  Result<FileIO*> For(std::string_view path);

  std::shared_ptr<FileIO> local_;
  std::map<std::string, std::string> s3_properties_;
  std::mutex mutex_;
  std::shared_ptr<FileIO> s3_;
};

}  // namespace floe
