// HTTP/1.1 requests for the S3 FileIO, over libcurl.
//
// Why libcurl and not the cpp-httplib the server uses: libcurl is Debian's maintained client
// with TLS (OpenSSL), proxies (HTTPS_PROXY), IPv6 and a connection cache per handle; it reports
// a broken connection precisely (refused, reset, cut mid-body), which the retry logic needs to
// tell "never sent" from "maybe applied"; and it streams request bodies from a callback.
//
// Connection reuse: a pool of easy handles. A request takes an idle handle (or makes one),
// and gives it back after; curl_easy_reset keeps the handle's live connections, DNS and TLS
// session caches, so consecutive requests to one endpoint reuse one TCP/TLS connection and
// several threads each get their own (no request ever waits for another's connection, which
// a single shared handle would force). The pool keeps at most `max_idle` handles.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "io/s3_signer.h"

namespace floe {

struct HttpResponse;

// Receives the body of a successful (2xx) answer piece by piece, in order, as it arrives, instead
// of HttpResponse::body; `head` holds the status and headers. It may block: the connection then
// stops reading, so the server stops sending (TCP's flow control), which is how a reader that
// decodes slower than the network bounds what it holds. False stops the transfer (the response
// then has no status and a transport_error). The bodies of other answers (S3's error documents)
// still go to HttpResponse::body.
using HttpBodySink = std::function<bool(const HttpResponse& head, std::string_view bytes)>;

struct HttpRequest {
  std::string method;  // GET, HEAD, PUT, POST, DELETE
  std::string url;
  HttpHeaders headers;
  std::string_view body;  // sent as is (with Content-Length) when the method takes one
  HttpBodySink body_sink;  // empty: the body is collected in HttpResponse::body
};

struct HttpResponse {
  long status = 0;  // 0: no answer (see transport_error)
  HttpHeaders headers;  // names lower-cased
  std::string body;
  std::string transport_error;  // why there was no answer
  // False only when the request certainly never reached the server (the connection could not
  // be made): such a request can be retried even if it was not idempotent.
  bool maybe_sent = true;
  // Timing of the answer, for reads that size their requests by the store's speed: from the
  // request's start to the first byte of the answer, and the body bytes received after it.
  int64_t first_byte_us = 0;
  int64_t total_us = 0;
  int64_t body_bytes = 0;

  const std::string* Header(std::string_view lower_name) const;
};

struct HttpOptions {
  int64_t connect_timeout_ms = 5'000;
  int64_t stall_timeout_ms = 30'000;
  size_t max_idle = 16;
};

class HttpClient {
 public:
  explicit HttpClient(HttpOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // One attempt, no retry. Thread-safe.
  HttpResponse Send(const HttpRequest& request);

 private:
  void* Take();
  void Give(void* handle);

  HttpOptions options_;
  std::mutex mutex_;
  std::vector<void*> idle_;  // CURL* handles
};

}  // namespace floe
