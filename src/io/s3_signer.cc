#include "io/s3_signer.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <ctime>

#include "util/strings.h"

namespace floe {
namespace {

std::string Digest(const EVP_MD* md, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), out, &size, md, nullptr);
  return std::string(reinterpret_cast<const char*>(out), size);
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &size);
  return std::string(reinterpret_cast<const char*>(out), size);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Leading and trailing blanks removed, inner runs of blanks made one space.
std::string Trim(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

}  // namespace


std::string Md5Raw(std::string_view data) { return Digest(EVP_md5(), data); }

std::string Base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string UriEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string CanonicalQuery(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  for (const auto& [name, value] : query) encoded.emplace_back(UriEncode(name, false), UriEncode(value, false));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

HttpHeaders SignV4(const SignableRequest& request, const S3Credentials& credentials, std::string_view region,
                   std::string_view service, int64_t unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char amz_date[17];
  std::strftime(amz_date, sizeof(amz_date), "%Y%m%dT%H%M%SZ", &tm);
  const std::string date(amz_date, 8);

  HttpHeaders added = {{"x-amz-date", amz_date}, {"x-amz-content-sha256", request.payload_sha256}};
  if (!credentials.session_token.empty()) added.emplace_back("x-amz-security-token", credentials.session_token);

  std::vector<std::pair<std::string, std::string>> canonical = {{"host", Trim(request.host)}};
  for (const auto& [name, value] : request.headers) canonical.emplace_back(Lower(name), Trim(value));
  for (const auto& [name, value] : added) canonical.emplace_back(name, value);
  std::sort(canonical.begin(), canonical.end());

  std::string header_block, signed_headers;
  for (const auto& [name, value] : canonical) {
    header_block += name + ":" + value + "\n";
    if (!signed_headers.empty()) signed_headers += ';';
    signed_headers += name;
  }
  const std::string canonical_request = request.method + "\n" + request.encoded_path + "\n" +
                                        CanonicalQuery(request.query) + "\n" + header_block + "\n" +
                                        signed_headers + "\n" + request.payload_sha256;
  const std::string scope = date + "/" + std::string(region) + "/" + std::string(service) + "/aws4_request";
  const std::string string_to_sign =
      "AWS4-HMAC-SHA256\n" + std::string(amz_date) + "\n" + scope + "\n" + Sha256Hex(canonical_request);

  std::string key = Hmac("AWS4" + credentials.secret_access_key, date);
  key = Hmac(key, region);
  key = Hmac(key, service);
  key = Hmac(key, "aws4_request");
  const std::string signature = Hex(Hmac(key, string_to_sign));

  added.emplace_back("Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + scope +
                                          ",SignedHeaders=" + signed_headers + ",Signature=" + signature);
  return added;
}

}  // namespace floe
