// Who may call the REST server, and what each caller may touch.
//
// A principal is configured as NAME:SECRET:GRANTS or NAME:sha256:HEX:GRANTS, e.g.
//   etl:s3cret:write@sales,read@*
//   etl:sha256:5e2b...(64 hex digits of SHA-256(SECRET)):write@sales,read@*
// The second form keeps the secret itself out of the tokens file; the server only ever holds
// the hash either way.
// GRANTS is a comma-separated list of read@NS or write@NS, where NS is a dotted namespace (the
// grant covers it and every namespace below it) or '*' (everything). write implies read.
//
// A caller authenticates with `Authorization: Bearer T`, where T is either the principal's
// SECRET itself, or a token issued by POST /v1/oauth/tokens (client_credentials with
// client_id=NAME, client_secret=SECRET). Issued tokens are self-contained and signed:
//   floe1.<hex name>.<expiry seconds>.<hex HMAC-SHA256(key, name "\n" expiry)>
// where the HMAC key is the secret's SHA-256 (hex), so every server process configured with the
// same principals, in either form, accepts every other's tokens without sharing any state, and a
// token dies with its expiry or with a change of the secret.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "util/sha256.h"

namespace floe {

struct Grant {
  bool write = false;
  bool everything = false;  // '*'
  Namespace ns;             // when !everything: this namespace and all below it
};

struct Principal {
  std::string name;
  std::string secret_sha256;  // 64 lower-case hex digits; the secret itself is not kept
  std::vector<Grant> grants;

  bool CanRead(const Namespace& ns) const;
  bool CanWrite(const Namespace& ns) const;
  // True when the principal may read `ns` or anything below it (namespace listings).
  bool CanSee(const Namespace& ns) const;
  // True when a grant covers every namespace (read@* or write@*).
  bool CanReadEverything() const;
};

// Parses NAME:SECRET:GRANTS or NAME:sha256:HEX:GRANTS (see the top of this file).
Result<Principal> ParsePrincipal(std::string_view spec);
// One principal per line; blank lines and lines starting with '#' are skipped.
Result<std::vector<Principal>> LoadPrincipalsFile(const std::string& path);

class Authenticator {
 public:
  Authenticator(std::vector<Principal> principals, int64_t token_lifetime_s);

  bool enabled() const { return !principals_.empty(); }
  int64_t token_lifetime_s() const { return token_lifetime_s_; }

  // The caller named by an Authorization header value; nullptr with `why` set when the header
  // is missing, malformed, forged or expired.
  const Principal* Authenticate(std::string_view authorization, int64_t now_s, std::string* why) const;

  // The client_credentials grant: a signed token for NAME when SECRET matches; nullopt otherwise.
  std::optional<std::string> IssueToken(std::string_view client_id, std::string_view client_secret,
                                        int64_t now_s) const;

 private:
  const Principal* FindByName(std::string_view name) const;
  std::vector<Principal> principals_;
  int64_t token_lifetime_s_;
};


// Equal-length comparison in time independent of where the strings differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace floe
