#include "parquet/compression.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "parquet/parquet_format.h"

namespace floe::parquet {

Result<int32_t> CodecFromName(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  if (n == "zstd") return codec::kZstd;
  if (n == "snappy") return codec::kSnappy;
  if (n == "gzip") return codec::kGzip;
  if (n == "uncompressed" || n == "none") return codec::kUncompressed;
  return InvalidArgument("write.parquet.compression-codec: unsupported codec '" + std::string(name) +
                         "' (expected zstd, snappy, gzip or uncompressed)");
}

namespace {

// One zstd context per thread: creating one per page costs more than compressing small pages.
ZSTD_CCtx* ThreadCCtx() {
  thread_local struct Holder {
    ZSTD_CCtx* ctx = ZSTD_createCCtx();
    ~Holder() { ZSTD_freeCCtx(ctx); }
  } holder;
  return holder.ctx;
}
ZSTD_DCtx* ThreadDCtx() {
  thread_local struct Holder {
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    ~Holder() { ZSTD_freeDCtx(ctx); }
  } holder;
  return holder.ctx;
}

Status GzipCompress(int level, const uint8_t* input, size_t size, std::string* out) {
  z_stream zs{};
  if (level < 1 || level > 9) level = 6;
  if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return IOError("gzip: deflateInit failed");
  size_t start = out->size();
  size_t bound = deflateBound(&zs, size);
  out->resize(start + bound);
  zs.next_in = const_cast<Bytef*>(input);
  zs.avail_in = static_cast<uInt>(size);
  zs.next_out = reinterpret_cast<Bytef*>(out->data() + start);
  zs.avail_out = static_cast<uInt>(bound);
  int rc = deflate(&zs, Z_FINISH);
  size_t produced = bound - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return IOError("gzip: compression failed");
  out->resize(start + produced);
  return Ok();
}

Status GzipDecompress(const uint8_t* input, size_t size, uint8_t* out, size_t out_size) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return Corrupt("gzip: inflateInit failed");
  zs.next_in = const_cast<Bytef*>(input);
  zs.avail_in = static_cast<uInt>(size);
  zs.next_out = out;
  zs.avail_out = static_cast<uInt>(out_size);
  int rc = inflate(&zs, Z_FINISH);
  size_t produced = out_size - zs.avail_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced != out_size) return Corrupt("gzip: page does not decompress to its declared size");
  return Ok();
}

}  // namespace

Status Compress(int32_t c, int level, const uint8_t* input, size_t size, std::string* out) {
  switch (c) {
    case codec::kUncompressed:
      out->append(reinterpret_cast<const char*>(input), size);
      return Ok();
    case codec::kSnappy: {
      // resize_and_overwrite: the bound's bytes are not zeroed first (a page's worth each time).
      const size_t start = out->size();
      out->resize_and_overwrite(start + snappy::MaxCompressedLength(size), [&](char* p, size_t) {
        size_t n = 0;
        snappy::RawCompress(reinterpret_cast<const char*>(input), size, p + start, &n);
        return start + n;
      });
      return Ok();
    }
    case codec::kGzip:
      return GzipCompress(level, input, size, out);
    case codec::kZstd: {
      const size_t start = out->size();
      const size_t bound = ZSTD_compressBound(size);
      size_t n = 0;
      out->resize_and_overwrite(start + bound, [&](char* p, size_t) {
        n = ZSTD_compressCCtx(ThreadCCtx(), p + start, bound, input, size, level);
        return ZSTD_isError(n) ? start : start + n;
      });
      if (ZSTD_isError(n)) return IOError(std::string("zstd: ") + ZSTD_getErrorName(n));
      return Ok();
    }
  }
  return NotSupported("parquet: cannot compress with codec " + CodecName(c));
}

Status Decompress(int32_t c, const uint8_t* input, size_t size, uint8_t* out, size_t uncompressed_size) {
  switch (c) {
    case codec::kUncompressed:
      if (size != uncompressed_size) return Corrupt("uncompressed page size does not match its header");
      if (size) std::memcpy(out, input, size);
      return Ok();
    case codec::kSnappy: {
      size_t n = 0;
      if (!snappy::GetUncompressedLength(reinterpret_cast<const char*>(input), size, &n) || n != uncompressed_size)
        return Corrupt("snappy: page does not decompress to its declared size");
      if (!snappy::RawUncompress(reinterpret_cast<const char*>(input), size, reinterpret_cast<char*>(out)))
        return Corrupt("snappy: malformed page");
      return Ok();
    }
    case codec::kGzip:
      return GzipDecompress(input, size, out, uncompressed_size);
    case codec::kZstd: {
      size_t n = ZSTD_decompressDCtx(ThreadDCtx(), out, uncompressed_size, input, size);
      if (ZSTD_isError(n)) return Corrupt(std::string("zstd: ") + ZSTD_getErrorName(n));
      if (n != uncompressed_size) return Corrupt("zstd: page does not decompress to its declared size");
      return Ok();
    }
  }
  return NotSupported("parquet: codec " + CodecName(c) + " is not supported");
}

}  // namespace floe::parquet
