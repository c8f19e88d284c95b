#include "io/s3_upload.h"

#include "io/s3_xml.h"
#include "util/strings.h"

namespace floe {
namespace {

std::string Unquote(std::string etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') etag = etag.substr(1, etag.size() - 2);
  return etag;
}

bool LooksLikeMd5(std::string_view etag) {
  return etag.size() == 32 && etag.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// Whether the object now at `location` is the one we tried to create, whose answer was lost.
// `expected_etag` is what S3 names our bytes; `data`, when not null, lets stores whose ETags are
// not MD5s be checked by content. CommitStateUnknown when that cannot be told.
Result<bool> ObjectIsOurs(S3Client& client, const S3Location& location, const std::string& expected_etag,
                          const std::string_view* data) {
  const std::string uri = location.Uri();
  FLOE_ASSIGN_OR_RETURN(S3Response head, client.Send({"HEAD", location.bucket, location.key}, "HEAD " + uri));
  if (head.status == 404) return false;
  if (head.status != 200) return std::unexpected(S3Error(head, "HEAD " + uri, client.config()));
  const std::string* etag = head.Header("etag");
  std::string actual = etag ? Unquote(*etag) : "";
  if (actual == expected_etag) return true;
  if (LooksLikeMd5(actual) || (actual.find('-') != std::string::npos && expected_etag.find('-') != std::string::npos)) {
    return false;  // the store names content by MD5, and this is other content
  }
  if (data != nullptr) {
    FLOE_ASSIGN_OR_RETURN(S3Response get, client.Send({"GET", location.bucket, location.key}, "GET " + uri));
    if (get.status == 404) return false;
    if (get.status != 200) return std::unexpected(S3Error(get, "GET " + uri, client.config()));
    return get.body == *data;
  }
  return CommitStateUnknown("creating " + uri + ": the first attempt's answer was lost and the store's ETag '" +
                            actual + "' cannot tell whether the object now there is ours");
}

Status Refused(const S3Location& location) {
  return AlreadyExists("cannot create " + location.Uri() + ": an object of that name exists");
}

}  // namespace

Status PutIfAbsent(S3Client& client, const S3Location& location, std::string_view data) {
  const std::string uri = location.Uri();
  const std::string what = "PUT " + uri;
  S3Request put{"PUT", location.bucket, location.key};
  put.headers = {{"If-None-Match", "*"}, {"Content-Type", "application/octet-stream"}};
  put.body = data;
  put.body_md5 = Md5Raw(data);
  FLOE_ASSIGN_OR_RETURN(S3Response response, client.Send(put, what));
  if (response.status == 200) return Ok();
  if (response.status == 412) {
    if (!response.earlier_attempt_maybe_applied) return Refused(location);
    FLOE_ASSIGN_OR_RETURN(bool ours, ObjectIsOurs(client, location, Hex(put.body_md5), &data));
    if (ours) return Ok();
    return Refused(location);
  }
  return std::unexpected(S3Error(response, what, client.config()));
}

S3OutputFile::S3OutputFile(std::shared_ptr<S3Client> client, S3Location location, std::string path)
    : client_(std::move(client)), location_(std::move(location)), path_(std::move(path)) {}

S3OutputFile::~S3OutputFile() { Abort(); }

Status S3OutputFile::Write(std::string_view data) {
  if (finished_) return InvalidArgument("write to " + path_ + " after it was closed or aborted");
  const size_t part_size = static_cast<size_t>(client_->config().part_size);
  while (!data.empty()) {
    size_t take = std::min(data.size(), part_size - buffer_.size());
    if (buffer_.empty() && take == part_size) {
      // A whole part straight from the caller's bytes, no copy.
      FLOE_RETURN_IF_ERROR(UploadPart(data.substr(0, take)));
    } else {
      buffer_.append(data.substr(0, take));
      if (buffer_.size() == part_size) {
        FLOE_RETURN_IF_ERROR(UploadPart(buffer_));
        buffer_.clear();
      }
    }
    position_ += static_cast<int64_t>(take);
    data.remove_prefix(take);
  }
  return Ok();
}

Status S3OutputFile::UploadPart(std::string_view bytes) {
  const std::string uri = location_.Uri();
  auto fail = [&](Error e) {
    Abort();
    return std::unexpected(std::move(e));
  };
  if (upload_id_.empty()) {
    S3Request create{"POST", location_.bucket, location_.key, {{"uploads", ""}}};
    create.headers = {{"Content-Type", "application/octet-stream"}};
    auto started = client_->Send(create, "CreateMultipartUpload " + uri);
    if (!started) return fail(started.error());
    if (started->status != 200) return fail(S3Error(*started, "CreateMultipartUpload " + uri, client_->config()));
    upload_id_ = XmlText(started->body, "UploadId").value_or("");
    if (upload_id_.empty()) return fail(Error{ErrorKind::kIOError, "CreateMultipartUpload " + uri + ": no UploadId in the answer"});
  }
  const int number = static_cast<int>(parts_.size()) + 1;
  S3Request part{"PUT", location_.bucket, location_.key,
                 {{"partNumber", std::to_string(number)}, {"uploadId", upload_id_}}};
  part.body = bytes;
  part.body_md5 = Md5Raw(bytes);
  const std::string what = "UploadPart " + std::to_string(number) + " of " + uri;
  auto sent = client_->Send(part, what);
  if (!sent) return fail(sent.error());
  if (sent->status != 200) return fail(S3Error(*sent, what, client_->config()));
  const std::string* etag = sent->Header("etag");
  parts_.push_back({etag ? *etag : "\"" + Hex(part.body_md5) + "\"", part.body_md5});
  return Ok();
}

std::string S3OutputFile::ExpectedEtag() const {
  std::string md5s;
  for (const Part& p : parts_) md5s += p.md5;
  return Hex(Md5Raw(md5s)) + "-" + std::to_string(parts_.size());
}

Status S3OutputFile::Complete() {
  const std::string uri = location_.Uri();
  const std::string what = "CompleteMultipartUpload " + uri;
  std::string xml = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < parts_.size(); ++i) {
    xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + XmlEscape(parts_[i].etag) +
           "</ETag></Part>";
  }
  xml += "</CompleteMultipartUpload>";
  S3Request complete{"POST", location_.bucket, location_.key, {{"uploadId", upload_id_}}};
  complete.headers = {{"If-None-Match", "*"}, {"Content-Type", "application/xml"}};
  complete.body = xml;
  complete.body_md5 = Md5Raw(xml);
  FLOE_ASSIGN_OR_RETURN(S3Response response, client_->Send(complete, what));
  // S3 can answer 200 and put the failure in the body.
  if (response.status == 200 && response.body.find("<Error>") == std::string::npos) return Ok();
  const bool lost_race = response.status == 412 || XmlText(response.body, "Code") == "PreconditionFailed";
  // A retried completion of an upload that already completed finds no upload (404 NoSuchUpload).
  const bool gone = response.status == 404 && XmlText(response.body, "Code") == "NoSuchUpload";
  if ((lost_race || gone) && response.earlier_attempt_maybe_applied) {
    FLOE_ASSIGN_OR_RETURN(bool ours, ObjectIsOurs(*client_, location_, ExpectedEtag(), nullptr));
    if (ours) return Ok();
  }
  if (lost_race) return Refused(location_);
  return std::unexpected(S3Error(response, what, client_->config()));
}

Status S3OutputFile::Close() {
  if (finished_) return InvalidArgument("close of " + path_ + " after it was closed or aborted");
  Status done = Ok();
  if (upload_id_.empty()) {
    finished_ = true;
    done = PutIfAbsent(*client_, location_, buffer_);
  } else {
    if (!buffer_.empty() || parts_.empty()) done = UploadPart(buffer_);
    if (done) done = Complete();
    if (done) {
      upload_id_.clear();  // completed: nothing to abort
    }
  }
  finished_ = true;
  buffer_.clear();
  buffer_.shrink_to_fit();
  if (!done) Abort();
  return done;
}

void S3OutputFile::Abort() {
  finished_ = true;
  buffer_.clear();
  if (upload_id_.empty()) return;
  S3Request abort{"DELETE", location_.bucket, location_.key, {{"uploadId", upload_id_}}};
  upload_id_.clear();
  // Best effort: an upload left behind is invisible, and a lifecycle rule reclaims it.
  (void)client_->Send(abort, "AbortMultipartUpload " + location_.Uri());
}

}  // namespace floe
