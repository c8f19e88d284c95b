// TESTS AND BENCHMARKS ONLY (header-only, not in the library): the client of the test S3
// server's bulk seed (scripts/s3_server.py --bulk-seed, which scripts/s3.sh turns on for the
// server of FLOE_TEST_S3_ENDPOINT). One loopback request creates many objects directly in
// moto's backend, as moto's PUT would, so that a benchmark can make a table of 100,000 objects
// in seconds where moto's one request at a time would take most of an hour. What the seed
// makes is only the objects' bytes: manifests and metadata stay floe's own writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/s3_http.h"
#include "io/s3_signer.h"
#include "floe/result.h"

namespace floe {

// The seed names its objects prefix + an 8-digit index (from 0) + suffix.
inline std::string S3BulkSeedKey(std::string_view prefix, int64_t index, std::string_view suffix) {
  std::string digits = std::to_string(index);
  if (digits.size() < 8) digits.insert(0, 8 - digits.size(), '0');
  return std::string(prefix) + digits + std::string(suffix);
}

// One seed request with `query` sent as is (the tests of refusals send malformed ones): the
// server's answer, status 0 when there was none.
inline HttpResponse SendS3BulkSeed(std::string_view endpoint, std::string_view query, std::string_view content,
                                   std::string method = "POST") {
  HttpOptions options;
  options.stall_timeout_ms = 600'000;  // a large seed is one long request
  HttpClient client(options);
  HttpRequest request;
  request.method = std::move(method);
  request.url = std::string(endpoint) + "/_floe_test/bulk-seed?" + std::string(query);
  request.headers = {{"Content-Type", "application/octet-stream"}};
  request.body = content;
  return client.Send(request);
}

// Creates the `count` objects s3://bucket/prefix<00000000..>suffix, each holding `content`.
// Refused (nothing created) when any exists already or an argument is malformed.
inline Status S3BulkSeed(std::string_view endpoint, std::string_view bucket, std::string_view prefix, int64_t count,
                         std::string_view suffix, std::string_view content) {
  const std::string query = "bucket=" + UriEncode(bucket, false) + "&prefix=" + UriEncode(prefix, false) +
                            "&count=" + std::to_string(count) + "&suffix=" + UriEncode(suffix, false);
  const std::string what = "bulk seed of " + std::to_string(count) + " objects s3://" + std::string(bucket) + "/" +
                           std::string(prefix) + "*" + std::string(suffix) + " at " + std::string(endpoint);
  HttpResponse response = SendS3BulkSeed(endpoint, query, content);
  if (response.status == 0) return Unavailable(what + ": no answer: " + response.transport_error);
  if (response.status == 404 && response.body.find("bulk-seed") == std::string::npos) {
    return NotSupported(what + ": the server has no bulk seed (start it with scripts/s3.sh)");
  }
  if (response.status != 200) {
    return InvalidArgument(what + ": HTTP " + std::to_string(response.status) + ": " + response.body);
  }
  if (response.body.find("\"created\": " + std::to_string(count) + ",") == std::string::npos) {
    return IOError(what + ": unexpected answer " + response.body);
  }
  return Ok();
}

}  // namespace floe
