// AWS Signature Version 4 for S3 requests, over OpenSSL's SHA-256 and HMAC.
//
// Debian 12 packages no AWS SDK for C++, so floe signs its own requests. The
// signature covers the method, the encoded path, the sorted query, every header
// the request sends (names lower-cased, values trimmed) and the payload's
// SHA-256 (or the literal UNSIGNED-PAYLOAD). The secret key never leaves this
// file: only the derived signature goes on the wire.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/sha256.h"

namespace floe {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct S3Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty without temporary credentials
};

struct SignableRequest {
  std::string method;        // GET, PUT, ...
  std::string host;          // the Host header's value (with :port when not the default)
  std::string encoded_path;  // as sent: "/bucket/key%20name"
  std::vector<std::pair<std::string, std::string>> query;  // raw (not encoded) names and values
  HttpHeaders headers;       // headers to send besides host and the x-amz-* ones added here
  std::string payload_sha256;  // hex, or "UNSIGNED-PAYLOAD"
};

// The headers to add to the request: x-amz-date, x-amz-content-sha256,
// x-amz-security-token (with a session token) and Authorization.
HttpHeaders SignV4(const SignableRequest& request, const S3Credentials& credentials,
                   std::string_view region, std::string_view service, int64_t unix_seconds);

// RFC 3986 percent-encoding as SigV4 requires: everything but A-Z a-z 0-9 - _ . ~ is
// encoded; '/' too unless keep_slash.
std::string UriEncode(std::string_view text, bool keep_slash);
// The canonical query string: encoded name=value pairs sorted by name then value.
std::string CanonicalQuery(const std::vector<std::pair<std::string, std::string>>& query);

// Raw 16-byte MD5 digest (ETags, Content-MD5) and its forms.
std::string Md5Raw(std::string_view data);
std::string Base64Encode(std::string_view bytes);

}  // namespace floe
