#include "server/auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cctype>
#include <fstream>

#include "util/strings.h"

namespace floe {
namespace {

bool IsPrefixOf(const Namespace& prefix, const Namespace& ns) {
  if (prefix.size() > ns.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] != ns[i]) return false;
  }
  return true;
}

std::optional<std::string> Unhex(std::string_view hex) {
  if (hex.size() % 2) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

std::string Signature(const std::string& key, const std::string& name, int64_t expiry_s) {
  std::string message = name + "\n" + std::to_string(expiry_s);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &mac_size);
  return Hex(std::string_view(reinterpret_cast<const char*>(mac), mac_size));
}

std::vector<std::string> Split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t at = text.find(sep, start);
    out.emplace_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

}  // namespace

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool Principal::CanRead(const Namespace& ns) const {
  for (const auto& g : grants) {
    if (g.everything || IsPrefixOf(g.ns, ns)) return true;
  }
  return false;
}

bool Principal::CanWrite(const Namespace& ns) const {
  for (const auto& g : grants) {
    if (g.write && (g.everything || IsPrefixOf(g.ns, ns))) return true;
  }
  return false;
}

bool Principal::CanReadEverything() const {
  for (const auto& g : grants) {
    if (g.everything) return true;
  }
  return false;
}

bool Principal::CanSee(const Namespace& ns) const {
  for (const auto& g : grants) {
    if (g.everything || IsPrefixOf(g.ns, ns) || IsPrefixOf(ns, g.ns)) return true;
  }
  return false;
}

Result<Principal> ParsePrincipal(std::string_view spec) {
  auto parts = Split(spec, ':');
  const bool hashed = parts.size() == 4 && parts[1] == "sha256";
  if (parts.size() != 3 && !hashed) {
    return InvalidArgument("principal '" + std::string(spec.substr(0, spec.find(':'))) +
                           "': expected NAME:SECRET:GRANTS or NAME:sha256:HEX:GRANTS, e.g. etl:s3cret:write@sales,read@*");
  }
  Principal p{parts[0], "", {}};
  if (p.name.empty()) return InvalidArgument("principal with an empty name");
  if (hashed) {
    std::string hex = parts[2];
    for (auto& c : hex) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (hex.size() != 64 || !Unhex(hex)) {
      return InvalidArgument("principal " + p.name + ": sha256: must be followed by 64 hex digits (sha256sum of the secret)");
    }
    p.secret_sha256 = hex;
  } else {
    if (parts[1].size() < 8) return InvalidArgument("principal " + p.name + ": its secret must have at least 8 characters");
    p.secret_sha256 = Sha256Hex(parts[1]);
  }
  for (const auto& item : Split(parts.back(), ',')) {
    size_t at = item.find('@');
    if (at == std::string::npos) {
      return InvalidArgument("principal " + p.name + ": grant '" + item + "' must be read@NS, write@NS or read@*");
    }
    std::string mode = item.substr(0, at), target = item.substr(at + 1);
    Grant g;
    if (mode == "write") {
      g.write = true;
    } else if (mode != "read") {
      return InvalidArgument("principal " + p.name + ": grant '" + item + "' must start with read@ or write@");
    }
    if (target == "*") {
      g.everything = true;
    } else {
      auto ns = ParseNamespace(target);
      if (!ns) return InvalidArgument("principal " + p.name + ": grant '" + item + "': " + ns.error().message);
      g.ns = std::move(*ns);
    }
    p.grants.push_back(std::move(g));
  }
  return p;
}

Result<std::vector<Principal>> LoadPrincipalsFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return IOError("cannot read tokens file " + path);
  std::vector<Principal> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    auto p = ParsePrincipal(line.substr(first));
    if (!p) return InvalidArgument(path + " line " + std::to_string(number) + ": " + p.error().message);
    out.push_back(std::move(*p));
  }
  return out;
}

Authenticator::Authenticator(std::vector<Principal> principals, int64_t token_lifetime_s)
    : principals_(std::move(principals)), token_lifetime_s_(token_lifetime_s) {}

const Principal* Authenticator::FindByName(std::string_view name) const {
  for (const auto& p : principals_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const Principal* Authenticator::Authenticate(std::string_view authorization, int64_t now_s, std::string* why) const {
  if (authorization.empty()) {
    *why = "no Authorization header: send 'Authorization: Bearer <token>'";
    return nullptr;
  }
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() <= kBearer.size() || authorization.substr(0, kBearer.size()) != kBearer) {
    *why = "the Authorization header is not a bearer token";
    return nullptr;
  }
  std::string_view token = authorization.substr(kBearer.size());
  if (token.substr(0, 6) == "floe1.") {
    auto parts = Split(token, '.');
    if (parts.size() == 4) {
      auto name = Unhex(parts[1]);
      const Principal* p = name ? FindByName(*name) : nullptr;
      int64_t expiry = 0;
      bool number = !parts[2].empty() && parts[2].size() < 19 &&
                    parts[2].find_first_not_of("0123456789") == std::string::npos;
      if (number) expiry = std::stoll(parts[2]);
      if (p && number && ConstantTimeEquals(parts[3], Signature(p->secret_sha256, p->name, expiry))) {
        if (expiry < now_s) {
          *why = "the token has expired; request a new one from /v1/oauth/tokens";
          return nullptr;
        }
        return p;
      }
    }
  }
  const std::string hash = Sha256Hex(token);
  for (const auto& p : principals_) {
    if (ConstantTimeEquals(hash, p.secret_sha256)) return &p;
  }
  *why = "the bearer token is not valid";
  return nullptr;
}

std::optional<std::string> Authenticator::IssueToken(std::string_view client_id, std::string_view client_secret,
                                                     int64_t now_s) const {
  const Principal* p = FindByName(client_id);
  if (!p || !ConstantTimeEquals(Sha256Hex(client_secret), p->secret_sha256)) return std::nullopt;
  int64_t expiry = now_s + token_lifetime_s_;
  return "floe1." + Hex(p->name) + "." + std::to_string(expiry) + "." + Signature(p->secret_sha256, p->name, expiry);
}

}  // namespace floe
