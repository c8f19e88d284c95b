#include "io/s3_file_io.h"

#include <cstdlib>
#include <cstring>
#include <optional>

#include "io/s3_input_file.h"
#include "io/s3_signer.h"
#include "io/s3_upload.h"
#include "io/s3_xml.h"
#include "util/strings.h"

namespace floe {
namespace {

// A HEAD of the object; NotFound when there is none, or nullopt with `quiet_missing` (Exists:
// a missing object is an answer, and asking whether the bucket exists would cost a second round
// trip on every miss).
Result<std::optional<S3Response>> Head(S3Client& client, const S3Location& location, bool quiet_missing) {
  const std::string uri = location.Uri();
  FLOE_ASSIGN_OR_RETURN(S3Response head, client.Send({"HEAD", location.bucket, location.key}, "HEAD " + uri));
  if (head.status == 404 && quiet_missing) return std::nullopt;
  if (head.status == 404) {
    // A HEAD has no body to say whether the bucket or the key is missing: ask the bucket.
    auto bucket = client.Send({"HEAD", location.bucket, ""}, "HEAD bucket " + location.bucket);
    if (bucket && bucket->status == 404) {
      return NotFound("bucket '" + location.bucket + "' does not exist at " + client.config().endpoint +
                      " (reading " + uri + ")");
    }
    return NotFound("no such file: " + uri);
  }
  if (head.status != 200) return std::unexpected(S3Error(head, "HEAD " + uri, client.config()));
  return std::optional<S3Response>(std::move(head));
}

// The object's size from a HEAD (NotFound or nullopt as Head).
Result<std::optional<int64_t>> HeadSize(S3Client& client, const S3Location& location, bool quiet_missing = false) {
  FLOE_ASSIGN_OR_RETURN(auto head, Head(client, location, quiet_missing));
  if (!head) return std::nullopt;
  const std::string* length = head->Header("content-length");
  if (length == nullptr) return IOError("HEAD " + location.Uri() + ": no Content-Length in the answer");
  return std::optional<int64_t>(std::strtoll(length->c_str(), nullptr, 10));
}

// The answer's ETag without its quotes ("" when there is none).
std::string UnquotedETag(const S3Response& response) {
  const std::string* etag = response.Header("etag");
  std::string value = etag ? *etag : "";
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  return value;
}

}  // namespace

S3FileIO::S3FileIO(S3Config config) : client_(std::make_shared<S3Client>(std::move(config))) {}

Result<std::shared_ptr<S3FileIO>> S3FileIO::Make(const std::map<std::string, std::string>& properties) {
  FLOE_ASSIGN_OR_RETURN(S3Config config, ResolveS3Config(properties));
  return std::make_shared<S3FileIO>(std::move(config));
}

Result<std::unique_ptr<InputFile>> S3FileIO::NewInputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  FLOE_ASSIGN_OR_RETURN(auto file, S3InputFile::Open(client_, std::move(location), std::string(path), read_rules_));
  return std::unique_ptr<InputFile>(std::move(file));
}

Result<std::string> S3FileIO::ReadAll(std::string_view path) {
  if (auto bytes = recent_.Find(path)) return std::move(*bytes);
  FLOE_ASSIGN_OR_RETURN(S3Object object, Get(path));
  return std::move(object.bytes);
}

Result<S3Object> S3FileIO::Get(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  const std::string uri = location.Uri();
  FLOE_ASSIGN_OR_RETURN(S3Response response, client_->Send({"GET", location.bucket, location.key}, "GET " + uri));
  if (response.status == 404) return std::unexpected(S3ObjectNotFound(response, uri, client_->config()));
  if (response.status != 200) return std::unexpected(S3Error(response, "GET " + uri, client_->config()));
  return S3Object{std::move(response.body), UnquotedETag(response)};
}

Result<std::string> S3FileIO::ReadRange(std::string_view path, int64_t offset, int64_t length) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  if (offset < 0 || length < 0 || offset > INT64_MAX - length) {
    return InvalidArgument("read of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                           " is outside " + std::string(path));
  }
  if (auto bytes = recent_.Find(path)) {
    FLOE_RETURN_IF_ERROR(CheckReadRange(path, static_cast<int64_t>(bytes->size()), offset, length));
    return bytes->substr(static_cast<size_t>(offset), static_cast<size_t>(length));
  }
  if (length == 0) {  // no byte range to ask for: check the bounds by size
    FLOE_ASSIGN_OR_RETURN(auto size, HeadSize(*client_, location));
    FLOE_RETURN_IF_ERROR(CheckReadRange(path, *size, offset, length));
    return std::string();
  }
  return S3GetRange(*client_, location, offset, length);
}

Result<int64_t> S3FileIO::Size(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  FLOE_ASSIGN_OR_RETURN(auto size, HeadSize(*client_, location));
  return *size;
}

Result<bool> S3FileIO::Exists(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  FLOE_ASSIGN_OR_RETURN(auto size, HeadSize(*client_, location, /*quiet_missing=*/true));
  return size.has_value();
}

Result<std::optional<std::string>> S3FileIO::ETag(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  FLOE_ASSIGN_OR_RETURN(auto head, Head(*client_, location, /*quiet_missing=*/true));
  if (!head) return std::nullopt;
  return std::optional<std::string>(UnquotedETag(*head));
}

std::string S3FileIO::ContentETag(std::string_view data) const {
  if (static_cast<int64_t>(data.size()) > client_->config().part_size) return "";
  return Hex(Md5Raw(data));
}

Status S3FileIO::Overwrite(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  const std::string what = "PUT " + location.Uri();
  S3Request put{"PUT", location.bucket, location.key};
  put.headers = {{"Content-Type", "application/octet-stream"}};
  put.body = data;
  put.body_md5 = Md5Raw(data);
  FLOE_ASSIGN_OR_RETURN(S3Response response, client_->Send(put, what));
  if (response.status == 200) return Ok();
  return std::unexpected(S3Error(response, what, client_->config()));
}

Status S3FileIO::CreateIfAbsent(std::string_view path, std::string_view data) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  if (static_cast<int64_t>(data.size()) <= client_->config().part_size) return PutIfAbsent(*client_, location, data);
  S3OutputFile out(client_, std::move(location), std::string(path));
  FLOE_RETURN_IF_ERROR(out.Write(data));
  return out.Close();
}

Status S3FileIO::CreateUnreferenced(std::string_view path, std::string_view data) {
  FLOE_RETURN_IF_ERROR(CreateIfAbsent(path, data));
  recent_.Remember(path, data);
  return Ok();
}

Result<std::unique_ptr<OutputFile>> S3FileIO::NewOutputFile(std::string_view path) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  FLOE_ASSIGN_OR_RETURN(bool exists, Exists(path));
  if (exists) return AlreadyExists("cannot create " + location.Uri() + ": an object of that name exists");
  return std::unique_ptr<OutputFile>(std::make_unique<S3OutputFile>(client_, std::move(location), std::string(path)));
}

Result<std::vector<FileInfo>> S3FileIO::ListPrefix(std::string_view prefix) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(prefix));
  const std::string base = location.scheme + "://" + location.bucket + "/";
  std::vector<FileInfo> out;
  std::string token;
  for (int page = 0;; ++page) {
    S3Request list{"GET", location.bucket, "", {{"list-type", "2"}, {"prefix", location.key}}};
    if (!token.empty()) list.query.emplace_back("continuation-token", token);
    const std::string what = "ListObjectsV2 " + location.Uri() + " (page " + std::to_string(page + 1) + ")";
    FLOE_ASSIGN_OR_RETURN(S3Response response, client_->Send(list, what));
    if (response.status != 200) return std::unexpected(S3Error(response, what, client_->config()));
    for (std::string_view entry : XmlElements(response.body, "Contents")) {
      FileInfo file;
      file.path = base + XmlText(entry, "Key").value_or("");
      file.size = std::strtoll(XmlText(entry, "Size").value_or("0").c_str(), nullptr, 10);
      file.mtime_ms = ParseIsoTimeMs(XmlText(entry, "LastModified").value_or(""));
      out.push_back(std::move(file));
    }
    if (XmlText(response.body, "IsTruncated") != "true") break;
    std::string next = XmlText(response.body, "NextContinuationToken").value_or("");
    if (next.empty() || next == token) return IOError(what + ": truncated listing without a new continuation token");
    token = std::move(next);
  }
  return out;
}

Status S3FileIO::Delete(std::string_view path) {
  recent_.Forget(path);
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location(path));
  const std::string what = "DELETE " + location.Uri();
  FLOE_ASSIGN_OR_RETURN(S3Response response, client_->Send({"DELETE", location.bucket, location.key}, what));
  // 404: already gone, also when an earlier attempt deleted it and its answer was lost.
  if (response.status == 204 || response.status == 200 ||
      (response.status == 404 && XmlText(response.body, "Code") != "NoSuchBucket")) {
    return Ok();
  }
  return std::unexpected(S3Error(response, what, client_->config()));
}

Status S3FileIO::DeleteFiles(const std::vector<std::string>& paths) {
  constexpr size_t kBatch = 1000;  // DeleteObjects' limit
  std::map<std::string, std::vector<std::string>> keys_by_bucket;
  Status first = Ok();
  for (const std::string& path : paths) {
    recent_.Forget(path);
    auto location = ParseS3Location(path);
    if (!location) {
      if (first) first = std::unexpected(location.error());
      continue;
    }
    keys_by_bucket[location->bucket].push_back(location->key);
  }
  for (const auto& [bucket, keys] : keys_by_bucket) {
    for (size_t start = 0; start < keys.size(); start += kBatch) {
      std::string xml = "<Delete><Quiet>true</Quiet>";
      for (size_t i = start; i < std::min(keys.size(), start + kBatch); ++i) {
        xml += "<Object><Key>" + XmlEscape(keys[i]) + "</Key></Object>";
      }
      xml += "</Delete>";
      S3Request request{"POST", bucket, "", {{"delete", ""}}};
      request.headers = {{"Content-Type", "application/xml"}};
      request.body = xml;
      request.body_md5 = Md5Raw(xml);
      const std::string what = "DeleteObjects in bucket " + bucket;
      auto response = client_->Send(request, what);
      Status batch = Ok();
      if (!response) {
        batch = std::unexpected(response.error());
      } else if (response->status != 200) {
        batch = std::unexpected(S3Error(*response, what, client_->config()));
      } else {
        for (std::string_view error : XmlElements(response->body, "Error")) {
          if (XmlText(error, "Code") == "NoSuchKey") continue;
          batch = IOError(what + ": s3://" + bucket + "/" + XmlText(error, "Key").value_or("") + ": " +
                          XmlText(error, "Code").value_or("") + " " + XmlText(error, "Message").value_or(""));
          break;
        }
      }
      if (!batch && first) first = batch;
    }
  }
  return first;
}

Status S3FileIO::CreateBucket(std::string_view bucket) {
  FLOE_ASSIGN_OR_RETURN(S3Location location, ParseS3Location("s3://" + std::string(bucket) + "/"));
  S3Request create{"PUT", location.bucket, ""};
  std::string body;
  if (client_->config().region != "us-east-1") {
    body = "<CreateBucketConfiguration><LocationConstraint>" + XmlEscape(client_->config().region) +
           "</LocationConstraint></CreateBucketConfiguration>";
    create.body = body;
  }
  const std::string what = "CreateBucket " + location.bucket;
  FLOE_ASSIGN_OR_RETURN(S3Response response, client_->Send(create, what));
  if (response.status == 200 || XmlText(response.body, "Code") == "BucketAlreadyOwnedByYou") return Ok();
  return std::unexpected(S3Error(response, what, client_->config()));
}

}  // namespace floe
