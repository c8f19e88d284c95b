// The S3 server tests run against: scripts/s3.sh starts moto and scripts/test.sh exports its
// endpoint as FLOE_TEST_S3_ENDPOINT. Without it, S3 tests skip saying so.
#pragma once

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "io/s3_file_io.h"
#include "util/uuid.h"

namespace floe {

inline constexpr const char* kNoS3Message =
    "skipped: no S3 endpoint (FLOE_TEST_S3_ENDPOINT is not set; scripts/test.sh sets it, or run "
    "`bash scripts/s3.sh start` and export the line of build/s3.env)";
inline constexpr const char* kTestBucket = "floe-test";

// moto's endpoint with moto's fake credentials and fast retries; nullopt without one.
inline std::optional<S3Config> TestS3Config() {
  const char* endpoint = std::getenv("FLOE_TEST_S3_ENDPOINT");
  if (endpoint == nullptr || *endpoint == '\0') return std::nullopt;
  S3Config config;
  config.endpoint = endpoint;
  while (!config.endpoint.empty() && config.endpoint.back() == '/') config.endpoint.pop_back();
  config.region = "us-east-1";
  config.credentials = {"testing", "testing-secret", ""};
  config.path_style = true;
  config.part_size = 5 << 20;  // S3's smallest, so that tests reach multipart uploads cheaply
  config.retry_min_wait_ms = 10;
  config.retry_max_wait_ms = 200;
  config.retry_total_ms = 20'000;
  return config;
}

// The catalog URI parameters that reach the test server.
inline std::string TestS3UriParams() {
  const char* endpoint = std::getenv("FLOE_TEST_S3_ENDPOINT");
  return std::string("s3.endpoint=") + (endpoint ? endpoint : "") +
         "&s3.access-key-id=testing&s3.secret-access-key=testing-secret&s3.region=us-east-1";
}

// A FileIO on the test server whose bucket exists, and a fresh prefix in it.
inline std::shared_ptr<S3FileIO> TestS3FileIO() {
  auto config = TestS3Config();
  if (!config) return nullptr;
  auto io = std::make_shared<S3FileIO>(*config);
  if (!io->CreateBucket(kTestBucket)) return nullptr;
  return io;
}
inline std::string TestS3Prefix(const std::string& what) {
  return std::string("s3://") + kTestBucket + "/" + what + "-" + RandomUuidString();
}

}  // namespace floe
