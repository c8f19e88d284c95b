// SHA-256 as lowercase hex: token hashes (server/auth), S3 request signing (io/s3_signer).
#pragma once

#include <string>
#include <string_view>

namespace floe {

std::string Sha256Hex(std::string_view data);

}  // namespace floe
