// Block codecs of Avro object container files: null, deflate, snappy, zstandard.
#pragma once

#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe::avro {

enum class Codec { kNull, kDeflate, kSnappy, kZstandard };

// Avro's codec names ("null", "deflate", "snappy", "zstandard"); "zstd", "gzip" and
// "uncompressed" are accepted as the names Iceberg's write.avro.compression-codec uses.
Result<Codec> ParseCodec(std::string_view name);
std::string_view CodecName(Codec codec);  // the name written into avro.codec

// Appends the compressed form of `input` to `out`. level: -1 for the codec's default.
Status CompressBlock(Codec codec, int level, std::string_view input, std::string* out);

// Replaces `out` with the decompressed block. Blocks that would expand past `max_size` are
// refused as corrupt: a flipped length must not become a huge allocation.
Status DecompressBlock(Codec codec, std::string_view input, std::string* out, size_t max_size);

}  // namespace floe::avro
