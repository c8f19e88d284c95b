// Page compression: UNCOMPRESSED, SNAPPY, GZIP and ZSTD, by Parquet codec number.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe::parquet {

// Parses write.parquet.compression-codec ("zstd", "snappy", "gzip", "uncompressed"/"none").
Result<int32_t> CodecFromName(std::string_view name);

// Appends the compressed form of input to out. level is used by zstd and gzip.
Status Compress(int32_t codec, int level, const uint8_t* input, size_t size, std::string* out);

// Decompresses input into out[0, uncompressed_size); the result must be exactly that long.
Status Decompress(int32_t codec, const uint8_t* input, size_t size, uint8_t* out, size_t uncompressed_size);

}  // namespace floe::parquet
