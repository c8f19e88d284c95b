// Where an S3 FileIO sends its requests and with which credentials, from the settings users
// already have.
//
// Each setting takes the first of (PyIceberg's property names, as catalog URI parameters and
// FileIO properties; then the AWS variables; then the AWS profile files):
//   endpoint     s3.endpoint, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's endpoint_url;
//                else https://s3.<region>.amazonaws.com
//   region       s3.region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region; else us-east-1
//   credentials  s3.access-key-id + s3.secret-access-key (+ s3.session-token);
//                AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN);
//                the profile's aws_access_key_id, aws_secret_access_key, aws_session_token
//   addressing   s3.path-style-access=true|false; else path-style when the endpoint's host is an
//                IP address or localhost (emulators), virtual-hosted otherwise
// The profile is AWS_PROFILE (else "default"), looked up in AWS_SHARED_CREDENTIALS_FILE (else
// ~/.aws/credentials) and AWS_CONFIG_FILE (else ~/.aws/config, where it is "[profile NAME]").
//
// Secrets (the secret key, the session token) never appear in a message: Describe() names the
// endpoint, region and access key id only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "io/s3_signer.h"
#include "floe/result.h"

namespace floe {

struct S3Config {
  std::string endpoint;  // scheme://host[:port], no trailing '/'
  std::string region = "us-east-1";
  S3Credentials credentials;
  bool path_style = false;

  // Objects larger than this are written by multipart upload, one part of this size in memory
  // at a time. S3 refuses parts below 5 MiB (but the last).
  int64_t part_size = 8 << 20;
  // Transient failures (no answer, 500, 503 SlowDown, throttling) are retried with exponential
  // backoff and jitter, at most this many attempts and this long in all.
  int max_attempts = 10;
  int64_t retry_total_ms = 60'000;
  int64_t retry_min_wait_ms = 50;
  int64_t retry_max_wait_ms = 2'000;
  // A connection that moves fewer than 1 byte a second for this long is cut (and retried).
  int64_t stall_timeout_ms = 30'000;
  int64_t connect_timeout_ms = 5'000;

  // "endpoint http://127.0.0.1:9000 (path-style), region us-east-1, access key id test"
  std::string Describe() const;
};

// Reads an environment variable; the default reads the process environment.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
std::optional<std::string> ProcessEnv(std::string_view name);

// `properties` holds s3.* settings (others are ignored). A malformed setting (a bad endpoint,
// s3.path-style-access not true/false, a key id without its secret) is InvalidArgument naming it.
Result<S3Config> ResolveS3Config(const std::map<std::string, std::string>& properties,
                                 const EnvLookup& env = ProcessEnv);

// Whether a property name is one ResolveS3Config reads.
bool IsS3Property(std::string_view name);

}  // namespace floe
