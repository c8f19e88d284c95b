#include "util/sha256.h"

#include <openssl/evp.h>

#include "util/strings.h"

namespace floe {

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr);
  return Hex(std::string_view(reinterpret_cast<const char*>(digest), size));
}

}  // namespace floe
