#include "avro/avro_codec.h"

#include <algorithm>

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

Status Inflate(std::string_view input, std::string* out, size_t max_size) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return IOError("inflateInit2 failed");
  // A reused buffer keeps its capacity: start from it, so a block the size of the last one
  // neither reallocates nor grows in steps.
  out->resize(std::min(std::max({input.size() * 4, size_t{4096}, out->capacity()}), std::max(max_size, size_t{4096})));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  int rc = Z_OK;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + zs.total_out);
    zs.avail_out = static_cast<uInt>(out->size() - zs.total_out);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
    if (zs.avail_out == 0) {
      if (out->size() >= max_size) {
        rc = Z_MEM_ERROR;
        break;
      }
      out->resize(std::min(out->size() * 2, max_size));
    } else if (zs.avail_in == 0) {
      rc = Z_DATA_ERROR;  // input ended before the deflate stream did
      break;
    }
  }
  size_t produced = zs.total_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) return Corrupt("deflate data is corrupt or truncated");
  out->resize(produced);
  return Ok();
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
