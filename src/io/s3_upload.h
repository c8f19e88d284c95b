// Creating S3 objects once: a conditional PUT, a streamed multipart upload, and the check that
// tells a lost answer from a lost race (see s3_file_io.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "floe/file_io.h"
#include "io/s3_client.h"

namespace floe {

// PUT If-None-Match: *. AlreadyExists when another object holds the name (after checking that
// it is not our own, landed under a lost answer).
Status PutIfAbsent(S3Client& client, const S3Location& location, std::string_view data);

// An OutputFile that uploads parts as they fill and completes with If-None-Match: *.
class S3OutputFile : public OutputFile {
 public:
  S3OutputFile(std::shared_ptr<S3Client> client, S3Location location, std::string path);
  ~S3OutputFile() override;

  const std::string& path() const override { return path_; }
  Status Write(std::string_view data) override;
  int64_t Position() const override { return position_; }
  Status Close() override;
  void Abort() override;

 private:
  struct Part {
    std::string etag;
    std::string md5;  // raw
  };
  Status UploadPart(std::string_view bytes);
  Status Complete();
  std::string ExpectedEtag() const;  // what S3 names the completed upload

  std::shared_ptr<S3Client> client_;
  S3Location location_;
  std::string path_;
  std::string buffer_;  // at most one part
  std::string upload_id_;
  std::vector<Part> parts_;
  int64_t position_ = 0;
  bool finished_ = false;  // closed or aborted: no more writes
};

}  // namespace floe
