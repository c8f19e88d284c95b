#include "avro/avro_codec.h"

#include <algorithm>

#include <libdeflate.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

namespace floe::avro {

Result<Codec> ParseCodec(std::string_view name) {
  if (name == "null" || name == "uncompressed" || name == "none" || name.empty()) return Codec::kNull;
  if (name == "deflate" || name == "gzip") return Codec::kDeflate;
  if (name == "snappy") return Codec::kSnappy;
  if (name == "zstandard" || name == "zstd") return Codec::kZstandard;
  return NotSupported("unsupported Avro codec '" + std::string(name) + "' (null, deflate, snappy, zstandard)");
}

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kNull: return "null";
    case Codec::kDeflate: return "deflate";
    case Codec::kSnappy: return "snappy";
    case Codec::kZstandard: return "zstandard";
  }
  return "null";
}

namespace {

Status Deflate(int level, std::string_view input, std::string* out) {
  z_stream zs{};
  // Avro's deflate is raw RFC 1951 data: no zlib header, hence the negative window bits.
  if (deflateInit2(&zs, level < 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return IOError("deflateInit2 failed");
  }
  size_t start = out->size();
  out->resize(start + deflateBound(&zs, input.size()));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data() + start);
  zs.avail_out = static_cast<uInt>(out->size() - start);
  int rc = deflate(&zs, Z_FINISH);
  out->resize(start + zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return IOError("deflate failed");
  return Ok();
}

// One decompressor per thread: allocating one (~30 KB of tables) per block would cost more
// than inflating a small manifest block.
libdeflate_decompressor* ThreadDecompressor() {
  struct Owner {
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    ~Owner() { libdeflate_free_decompressor(d); }
  };
  thread_local Owner owner;
  return owner.d;
}

// libdeflate inflates a whole buffer at once (2-3x zlib's speed), so the output must be large
// enough up front: start from the reused buffer's capacity (a block the size of the last one
// needs one pass) and double, up to max_size, when it is not.
Status Inflate(std::string_view input, std::string* out, size_t max_size) {
  libdeflate_decompressor* d = ThreadDecompressor();
  if (!d) return IOError("libdeflate_alloc_decompressor failed");
  size_t cap = std::max(max_size, size_t{4096});
  out->resize(std::min(std::max({input.size() * 4, size_t{4096}, out->capacity()}), cap));
  while (true) {
    size_t produced = 0;
    // Avro's deflate is raw RFC 1951 data: no zlib header or trailer.
    libdeflate_result rc = libdeflate_deflate_decompress(d, input.data(), input.size(), out->data(), out->size(), &produced);
    if (rc == LIBDEFLATE_SUCCESS) {
      out->resize(produced);
      return Ok();
    }
    if (rc != LIBDEFLATE_INSUFFICIENT_SPACE || out->size() >= cap) break;
    out->resize(std::min(out->size() * 2, cap));
  }
  return Corrupt("deflate data is corrupt or truncated");
}

uint32_t Crc32(std::string_view data) {
  return static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

}  // namespace

Status CompressBlock(Codec codec, int level, std::string_view input, std::string* out) {
  switch (codec) {
    case Codec::kNull:
      out->append(input);
      return Ok();
    case Codec::kDeflate:
      return Deflate(level, input, out);
    case Codec::kSnappy: {
      // Snappy blocks carry the big-endian CRC-32 of the uncompressed data after the payload.
      size_t start = out->size();
      size_t len = snappy_max_compressed_length(input.size());
      out->resize(start + len + 4);
      if (snappy_compress(input.data(), input.size(), out->data() + start, &len) != SNAPPY_OK) {
        return IOError("snappy compression failed");
      }
      uint32_t crc = Crc32(input);
      char* p = out->data() + start + len;
      p[0] = static_cast<char>(crc >> 24);
      p[1] = static_cast<char>(crc >> 16);
      p[2] = static_cast<char>(crc >> 8);
      p[3] = static_cast<char>(crc);
      out->resize(start + len + 4);
      return Ok();
    }
    case Codec::kZstandard: {
      size_t start = out->size();
      out->resize(start + ZSTD_compressBound(input.size()));
      size_t n = ZSTD_compress(out->data() + start, out->size() - start, input.data(), input.size(),
                               level < 0 ? ZSTD_CLEVEL_DEFAULT : level);
      if (ZSTD_isError(n)) return IOError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
      out->resize(start + n);
      return Ok();
    }
  }
  return InvalidArgument("unknown codec");
}

Status DecompressBlock(Codec codec, std::string_view input, std::string* out, size_t max_size) {
  switch (codec) {
    case Codec::kNull:
      out->assign(input);
      return Ok();
    case Codec::kDeflate:
      return Inflate(input, out, max_size);
    case Codec::kSnappy: {
      if (input.size() < 4) return Corrupt("snappy block shorter than its checksum");
      std::string_view payload = input.substr(0, input.size() - 4);
      size_t len = 0;
      if (snappy_uncompressed_length(payload.data(), payload.size(), &len) != SNAPPY_OK || len > max_size) {
        return Corrupt("snappy block is corrupt");
      }
      out->resize(len);
      if (snappy_uncompress(payload.data(), payload.size(), out->data(), &len) != SNAPPY_OK) {
        return Corrupt("snappy block is corrupt");
      }
      out->resize(len);
      const auto* c = reinterpret_cast<const unsigned char*>(input.data() + payload.size());
      uint32_t expected = (uint32_t{c[0]} << 24) | (uint32_t{c[1]} << 16) | (uint32_t{c[2]} << 8) | c[3];
      if (Crc32(*out) != expected) return Corrupt("snappy block fails its CRC-32 check");
      return Ok();
    }
    case Codec::kZstandard: {
      ZSTD_DStream* ds = ZSTD_createDStream();
      if (!ds) return IOError("ZSTD_createDStream failed");
      out->resize(std::max<size_t>(input.size() * 4, 4096));
      ZSTD_inBuffer in{input.data(), input.size(), 0};
      size_t produced = 0;
      size_t rc = 0;
      bool ok = false;
      while (true) {
        ZSTD_outBuffer o{out->data() + produced, out->size() - produced, 0};
        rc = ZSTD_decompressStream(ds, &o, &in);
        produced += o.pos;
        if (ZSTD_isError(rc)) break;
        if (rc == 0 && in.pos == in.size) {
          ok = true;
          break;
        }
        if (produced == out->size()) {
          if (out->size() >= max_size) break;
          out->resize(std::min(out->size() * 2, max_size));
        } else if (in.pos == in.size) {
          break;  // input ended inside a frame
        }
      }
      ZSTD_freeDStream(ds);
      if (!ok) return Corrupt("zstandard block is corrupt or truncated");
      out->resize(produced);
      return Ok();
    }
  }
  return InvalidArgument("unknown codec");
}

}  // namespace floe::avro
