#include "io/s3_client.h"

#include <chrono>
#include <ctime>
#include <thread>

#include "io/s3_xml.h"
#include "util/backoff.h"

namespace floe {
namespace {

constexpr char kEmptySha256[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

int64_t NowSteadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool ValidBucketName(std::string_view bucket) {
  if (bucket.size() < 3 || bucket.size() > 63) return false;
  for (char c : bucket) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
          c == '.')) {
      return false;
    }
  }
  return bucket.front() != '-' && bucket.front() != '.' && bucket.back() != '-' && bucket.back() != '.';
}

bool Retryable(const S3Response& response) {
  switch (response.status) {
    case 0:
    case 409:  // ConditionalRequestConflict: another conditional write is in flight
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
      return true;
    case 400:
    case 403: {
      auto code = XmlText(response.body, "Code").value_or("");
      return code == "RequestTimeout" || code == "Throttling" || code == "ThrottlingException" ||
             code == "SlowDown" || code == "RequestLimitExceeded";
    }
    default:
      return false;
  }
}

// Whether the attempt that got `response` may have changed the object.
bool MayHaveApplied(const S3Response& response) {
  if (response.status == 0) return response.maybe_sent;
  return response.status == 500 || response.status == 502 || response.status == 504;
}

}  // namespace

bool IsS3Uri(std::string_view path) {
  return path.starts_with("s3://") || path.starts_with("s3a://") || path.starts_with("s3n://");
}

Result<S3Location> ParseS3Location(std::string_view uri) {
  auto malformed = [&](const std::string& why) {
    return InvalidArgument("malformed S3 location '" + std::string(uri) + "': " + why +
                           " (expected s3://BUCKET/KEY)");
  };
  size_t sep = uri.find("://");
  if (sep == std::string_view::npos || !IsS3Uri(uri)) return malformed("not an s3:// URI");
  S3Location out;
  out.scheme = std::string(uri.substr(0, sep));
  std::string_view rest = uri.substr(sep + 3);
  size_t slash = rest.find('/');
  out.bucket = std::string(rest.substr(0, slash));
  if (out.bucket.empty()) return malformed("no bucket");
  if (!ValidBucketName(out.bucket)) {
    return malformed("'" + out.bucket + "' is not a bucket name (3-63 of a-z, 0-9, '.', '-')");
  }
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  if (out.key.find('?') != std::string::npos || out.key.find('#') != std::string::npos) {
    // Keys may hold them, but a location with them is almost always a mistyped URI.
    return malformed("the key holds '?' or '#'");
  }
  return out;
}

S3Client::S3Client(S3Config config)
    : config_(std::move(config)),
      http_(HttpOptions{.connect_timeout_ms = config_.connect_timeout_ms,
                        .stall_timeout_ms = config_.stall_timeout_ms}) {
  size_t sep = config_.endpoint.find("://");
  endpoint_scheme_ = config_.endpoint.substr(0, sep);
  endpoint_host_ = config_.endpoint.substr(sep + 3);
}

HttpRequest S3Client::Build(const S3Request& request) const {
  SignableRequest sign;
  sign.method = request.method;
  std::string encoded_key = UriEncode(request.key, true);
  if (config_.path_style) {
    sign.host = endpoint_host_;
    sign.encoded_path = "/" + request.bucket + (request.key.empty() ? "" : "/" + encoded_key);
  } else {
    sign.host = request.bucket + "." + endpoint_host_;
    sign.encoded_path = "/" + encoded_key;
  }
  sign.query = request.query;
  sign.headers = request.headers;
  if (!request.body_md5.empty()) sign.headers.emplace_back("Content-MD5", Base64Encode(request.body_md5));
  sign.payload_sha256 = request.body.empty() ? kEmptySha256 : "UNSIGNED-PAYLOAD";
  const int64_t now = static_cast<int64_t>(std::time(nullptr));

  HttpRequest out;
  out.method = request.method;
  std::string query = CanonicalQuery(request.query);
  out.url = endpoint_scheme_ + "://" + sign.host + sign.encoded_path + (query.empty() ? "" : "?" + query);
  out.headers = sign.headers;
  out.headers.emplace_back("Host", sign.host);
  for (auto& header : SignV4(sign, config_.credentials, config_.region, "s3", now)) {
    out.headers.push_back(std::move(header));
  }
  out.body = request.body;
  out.body_sink = request.body_sink;
  return out;
}

void S3Client::Count(const S3Request& request) {
  if (request.method == "GET") {
    bool list = false;
    for (const auto& [name, value] : request.query) list = list || name == "list-type";
    (list ? list_ : get_).fetch_add(1, std::memory_order_relaxed);
  } else if (request.method == "PUT") {
    put_.fetch_add(1, std::memory_order_relaxed);
  } else if (request.method == "HEAD") {
    head_.fetch_add(1, std::memory_order_relaxed);
  } else if (request.method == "POST") {
    post_.fetch_add(1, std::memory_order_relaxed);
  } else {
    del_.fetch_add(1, std::memory_order_relaxed);
  }
}

void S3Client::AddHeldReadBytes(int64_t delta) {
  const int64_t now = held_read_.fetch_add(delta) + delta;
  int64_t peak = peak_held_read_.load();
  while (now > peak && !peak_held_read_.compare_exchange_weak(peak, now)) {
  }
}

void S3Client::MeasureGet(const S3Response& response) {
  if (response.status != 200 && response.status != 206) return;
  // Moving averages: the last few GETs weigh most, so a store that slows down is seen soon.
  constexpr double kWeight = 0.3;
  auto blend = [&](double& average, double sample) {
    average = average == 0 ? sample : average + kWeight * (sample - average);
  };
  std::lock_guard lock(speed_mutex_);
  if (response.first_byte_us > 0) blend(speed_.first_byte_ms, response.first_byte_us / 1000.0);
  const int64_t body_us = response.total_us - response.first_byte_us;
  // A streamed body's time includes the reader's pauses: its rate is a lower bound, which only
  // makes gaps read across smaller (the safe side).
  if (response.body_bytes >= (1 << 20) && body_us > 0) {
    blend(speed_.bytes_per_ms, static_cast<double>(response.body_bytes) / (body_us / 1000.0));
  }
}

S3ReadSpeed S3Client::ReadSpeed() const {
  std::lock_guard lock(speed_mutex_);
  return speed_;
}

S3RequestCounts S3Client::Counts() const {
  return {get_.load(), put_.load(), head_.load(), post_.load(), del_.load(), list_.load()};
}

Result<S3Response> S3Client::Send(const S3Request& request, std::string_view what) {
  Backoff backoff(BackoffPolicy{config_.retry_min_wait_ms, config_.retry_max_wait_ms});
  const int64_t deadline = NowSteadyMs() + config_.retry_total_ms;
  bool maybe_applied = false;
  for (int attempt = 1;; ++attempt) {
    Count(request);
    S3Response response;
    HttpRequest http = Build(request);  // signed anew: the date moves
    bool body_began = false;
    if (request.body_sink) {
      http.body_sink = [&](const HttpResponse& head, std::string_view bytes) {
        body_began = true;
        return request.body_sink(head, bytes);
      };
    }
    static_cast<HttpResponse&>(response) = http_.Send(http);
    response.attempts = attempt;
    response.earlier_attempt_maybe_applied = maybe_applied;
    if (request.method == "GET" && request.query.empty()) MeasureGet(response);  // object reads, not listings
    if (body_began || !Retryable(response)) return response;
    maybe_applied = maybe_applied || MayHaveApplied(response);
    const std::string reason = response.status == 0
                                   ? response.transport_error
                                   : "HTTP " + std::to_string(response.status) + " " +
                                         XmlText(response.body, "Code").value_or("");
    const int64_t wait = backoff.WaitMs(attempt);
    if (attempt >= config_.max_attempts || NowSteadyMs() + wait > deadline) {
      return Unavailable(std::string(what) + ": gave up after " + std::to_string(attempt) + " attempts (" + reason +
                         ") at " + config_.endpoint);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(wait));
  }
}

Error S3Error(const S3Response& response, std::string_view what, const S3Config& config) {
  std::string code = XmlText(response.body, "Code").value_or("");
  std::string message = XmlText(response.body, "Message").value_or("");
  std::string detail = "HTTP " + std::to_string(response.status) + (code.empty() ? "" : " " + code) +
                       (message.empty() ? "" : ": " + message);
  std::string prefix = std::string(what) + ": ";
  if (code == "NoSuchBucket") {
    std::string bucket = XmlText(response.body, "BucketName").value_or("");
    return Error{ErrorKind::kNotFound, prefix + "bucket " + (bucket.empty() ? "" : "'" + bucket + "' ") +
                                           "does not exist at " + config.endpoint + " (" + detail + ")"};
  }
  if (response.status == 404) return Error{ErrorKind::kNotFound, prefix + "no such object (" + detail + ")"};
  if (response.status == 403 || response.status == 401 || code == "InvalidAccessKeyId" ||
      code == "SignatureDoesNotMatch") {
    return Error{ErrorKind::kIOError, prefix + "access refused (" + detail + ") with " + config.Describe() +
                                          ": check the credentials (AWS_ACCESS_KEY_ID/s3.access-key-id and the "
                                          "secret key) and the region"};
  }
  return Error{ErrorKind::kIOError, prefix + detail};
}

int64_t ParseIsoTimeMs(std::string_view text) {
  std::tm tm{};
  int ms = 0;
  std::string s(text);
  const char* end = strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == nullptr) return 0;
  if (*end == '.') {
    ++end;
    int digits = 0;
    while (std::isdigit(static_cast<unsigned char>(*end))) {
      if (digits < 3) ms = ms * 10 + (*end - '0');
      ++digits;
      ++end;
    }
    while (digits < 3) {
      ms *= 10;
      ++digits;
    }
  }
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

}  // namespace floe
