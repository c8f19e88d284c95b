// Signed S3 requests with retries: the layer between the S3 FileIO and HTTP.
//
// Send builds the URL (path-style "endpoint/bucket/key" or virtual-hosted
// "bucket.endpoint/key", see S3Config), signs it (SigV4, payload UNSIGNED-PAYLOAD: bodies are
// checked by Content-MD5 instead, which costs one hash where a signed payload costs two) and
// retries transient failures with exponential backoff and full jitter, within the config's
// attempt and time bounds:
//   no answer at all (refused, reset, cut mid-body, stalled), 500, 502, 503 (SlowDown), 504,
//   429 and throttling codes, 409 ConditionalRequestConflict (a conditional write racing
//   another in flight), 400 RequestTimeout.
// Every other answer is returned to the caller. A response says whether an earlier attempt
// may already have been applied (it was sent and its answer was lost, or the server failed
// after maybe acting): that is what a conditional write needs to tell "someone else's object"
// from "my own object, whose answer I lost" (DESIGN.md invariant 9).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/s3_config.h"
#include "io/s3_http.h"
#include "floe/result.h"

namespace floe {

// s3://bucket/key (s3a:// and s3n:// too, as Hadoop writes them).
struct S3Location {
  std::string scheme = "s3";
  std::string bucket;
  std::string key;  // may be empty: the bucket itself, or a listing prefix
  std::string Uri() const { return scheme + "://" + bucket + "/" + key; }
};
// InvalidArgument naming the location when it is not s3://BUCKET[/KEY] with a valid bucket name.
Result<S3Location> ParseS3Location(std::string_view uri);
// Whether `path` starts with s3://, s3a:// or s3n://.
bool IsS3Uri(std::string_view path);

struct S3Request {
  std::string method;
  std::string bucket;
  std::string key;
  std::vector<std::pair<std::string, std::string>> query;
  HttpHeaders headers;
  std::string_view body;
  std::string body_md5;  // raw digest of body; sent as Content-MD5 when set
  // A GET's body streamed (s3_http.h). An attempt whose body had begun to arrive is never
  // retried here, as the sink has taken some bytes already: its caller resumes from there.
  HttpBodySink body_sink;
};

struct S3Response : HttpResponse {
  int attempts = 0;
  bool earlier_attempt_maybe_applied = false;
};

// Requests sent (each attempt counts), by method: object stores bill by request.
struct S3RequestCounts {
  int64_t get = 0, put = 0, head = 0, post = 0, del = 0, list = 0;
  int64_t Total() const { return get + put + head + post + del + list; }
  // Counts are read before and after some work: the difference is what the work sent.
  S3RequestCounts operator-(const S3RequestCounts& o) const {
    return {get - o.get, put - o.put, head - o.head, post - o.post, del - o.del, list - o.list};
  }
  S3RequestCounts& operator+=(const S3RequestCounts& o) {
    get += o.get, put += o.put, head += o.head, post += o.post, del += o.del, list += o.list;
    return *this;
  }
};

// How fast this client's GETs were answered: what a request costs in time, and what receiving a
// byte costs. Zero where nothing was measured yet.
struct S3ReadSpeed {
  double first_byte_ms = 0;   // request sent to first byte (an average over recent GETs)
  double bytes_per_ms = 0;    // body bytes per ms after the first (over recent bodies of 1 MiB or more)
};

class S3Client {
 public:
  explicit S3Client(S3Config config);

  // `what` names the request in errors ("PUT s3://b/k"). Unavailable when retries ran out.
  Result<S3Response> Send(const S3Request& request, std::string_view what);

  const S3Config& config() const { return config_; }
  S3RequestCounts Counts() const;

  // Bytes of object bodies that the S3InputFiles of this client hold now, and the most they held
  // at once since the last ResetPeakHeldReadBytes: what bounds a scan's read buffers.
  void AddHeldReadBytes(int64_t delta);
  int64_t HeldReadBytes() const { return held_read_.load(); }
  int64_t PeakHeldReadBytes() const { return peak_held_read_.load(); }
  void ResetPeakHeldReadBytes() { peak_held_read_.store(held_read_.load()); }

  S3ReadSpeed ReadSpeed() const;

 private:
  HttpRequest Build(const S3Request& request) const;
  void Count(const S3Request& request);

  S3Config config_;
  std::string endpoint_scheme_;  // "http" or "https"
  std::string endpoint_host_;    // host[:port]
  HttpClient http_;
  std::atomic<int64_t> get_{0}, put_{0}, head_{0}, post_{0}, del_{0}, list_{0};
  std::atomic<int64_t> held_read_{0}, peak_held_read_{0};
  void MeasureGet(const S3Response& response);
  mutable std::mutex speed_mutex_;
  S3ReadSpeed speed_;
};

// The error for an answer that is not a success: names the request, S3's error code and
// message, and for refused credentials the access key id (never the secret).
Error S3Error(const S3Response& response, std::string_view what, const S3Config& config);

// Milliseconds since the epoch from an ISO 8601 time ("2024-01-02T03:04:05.000Z"), 0 if malformed.
int64_t ParseIsoTimeMs(std::string_view text);

}  // namespace floe
