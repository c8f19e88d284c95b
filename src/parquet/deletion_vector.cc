#include "parquet/deletion_vector.h"

#include <roaring/roaring.h>
#include <zlib.h>

#include <algorithm>
#include <memory>
#include <string>

namespace floe::parquet {
namespace {

constexpr unsigned char kMagic[4] = {0xD1, 0xD3, 0x39, 0x64};
constexpr uint32_t kCookieNoRuns = 12346;  // Roaring's portable format without run containers
constexpr uint32_t kCookieRuns = 12347;    // with run containers: the count is in the cookie's high half
constexpr int kNoOffsetThreshold = 4;      // fewer containers than this carry no offset header (with runs)
constexpr int64_t kMaxArrayCardinality = 4096;

uint32_t BigEndian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// Little-endian reads with bounds checks over the bitmap's bytes.
class Bytes {
 public:
  explicit Bytes(std::string_view data) : data_(data) {}
  bool Has(size_t n) const { return n <= data_.size() - pos_; }
  size_t pos() const { return pos_; }
  void Skip(size_t n) { pos_ += n; }
  uint64_t Le(int width) {
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) v |= uint64_t{static_cast<unsigned char>(data_[pos_ + i])} << (8 * i);
    pos_ += width;
    return v;
  }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

Status ReadBitmap32(Bytes& in, uint64_t high, std::vector<int64_t>* out) {
  auto bad = [](const std::string& what) { return Corrupt("deletion vector: " + what); };
  if (!in.Has(4)) return bad("truncated Roaring bitmap header");
  uint32_t cookie = static_cast<uint32_t>(in.Le(4));
  int64_t containers = 0;
  std::string run_flags;
  bool has_offsets = true;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    containers = (cookie >> 16) + 1;
    size_t flag_bytes = static_cast<size_t>((containers + 7) / 8);
    if (!in.Has(flag_bytes)) return bad("truncated run-container flags");
    for (size_t i = 0; i < flag_bytes; ++i) run_flags.push_back(static_cast<char>(in.Le(1)));
    has_offsets = containers >= kNoOffsetThreshold;
  } else if (cookie == kCookieNoRuns) {
    if (!in.Has(4)) return bad("truncated container count");
    containers = static_cast<int64_t>(in.Le(4));
  } else {
    return bad("unknown Roaring cookie " + std::to_string(cookie));
  }
  if (containers > 65536 || !in.Has(static_cast<size_t>(containers) * 4)) return bad("container count past the blob");
  std::vector<uint32_t> keys(static_cast<size_t>(containers)), cardinalities(static_cast<size_t>(containers));
  for (int64_t c = 0; c < containers; ++c) {
    keys[c] = static_cast<uint32_t>(in.Le(2));
    cardinalities[c] = static_cast<uint32_t>(in.Le(2)) + 1;
    if (c > 0 && keys[c] <= keys[c - 1]) return bad("container keys out of order");
  }
  if (has_offsets) {
    if (!in.Has(static_cast<size_t>(containers) * 4)) return bad("truncated offset header");
    in.Skip(static_cast<size_t>(containers) * 4);  // containers follow one another; offsets are redundant
  }
  for (int64_t c = 0; c < containers; ++c) {
    const int64_t base = static_cast<int64_t>((high << 32) | (uint64_t{keys[c]} << 16));
    const bool is_run = !run_flags.empty() && (static_cast<unsigned char>(run_flags[c / 8]) >> (c % 8)) & 1;
    if (is_run) {
      if (!in.Has(2)) return bad("truncated run container");
      uint64_t runs = in.Le(2);
      if (!in.Has(runs * 4)) return bad("run container past the blob");
      int64_t last = -1;
      for (uint64_t r = 0; r < runs; ++r) {
        int64_t start = static_cast<int64_t>(in.Le(2));
        int64_t length = static_cast<int64_t>(in.Le(2));
        if (start <= last || start + length > 0xFFFF) return bad("run container with overlapping or overlong runs");
        for (int64_t v = start; v <= start + length; ++v) out->push_back(base + v);
        last = start + length;
      }
    } else if (cardinalities[c] <= kMaxArrayCardinality) {
      if (!in.Has(size_t{cardinalities[c]} * 2)) return bad("array container past the blob");
      int64_t last = -1;
      for (uint32_t i = 0; i < cardinalities[c]; ++i) {
        int64_t v = static_cast<int64_t>(in.Le(2));
        if (v <= last) return bad("array container values out of order");
        out->push_back(base + v);
        last = v;
      }
    } else {
      if (!in.Has(8192)) return bad("bitmap container past the blob");
      size_t before = out->size();
      for (int word = 0; word < 1024; ++word) {
        uint64_t bits = in.Le(8);
        while (bits) {
          int bit = __builtin_ctzll(bits);
          out->push_back(base + word * 64 + bit);
          bits &= bits - 1;
        }
      }
      if (out->size() - before != cardinalities[c]) return bad("bitmap container cardinality does not match its header");
    }
  }
  return Ok();
}

}  // namespace

Result<std::vector<int64_t>> DecodeDeletionVector(std::string_view blob) {
  auto bad = [](const std::string& what) { return Corrupt("deletion vector: " + what); };
  const auto* bytes = reinterpret_cast<const unsigned char*>(blob.data());
  if (blob.size() < 12) return bad("blob of " + std::to_string(blob.size()) + " bytes is too short");
  const uint32_t length = BigEndian32(bytes);
  if (length < 4 || uint64_t{length} + 8 != blob.size())
    return bad("length " + std::to_string(length) + " does not match a blob of " + std::to_string(blob.size()) + " bytes");
  for (int i = 0; i < 4; ++i)
    if (bytes[4 + i] != kMagic[i]) return bad("no deletion-vector-v1 magic bytes");
  const uint32_t stored_crc = BigEndian32(bytes + 4 + length);
  const uint32_t crc = static_cast<uint32_t>(crc32(0L, bytes + 4, length));
  if (crc != stored_crc) return bad("checksum mismatch");

  Bytes in(blob.substr(8, length - 4));
  if (!in.Has(8)) return bad("truncated bitmap count");
  const uint64_t bitmaps = in.Le(8);
  std::vector<int64_t> positions;
  int64_t last_key = -1;
  for (uint64_t b = 0; b < bitmaps; ++b) {
    if (!in.Has(4)) return bad("truncated bitmap key");
    const int64_t key = static_cast<int64_t>(in.Le(4));
    if (key <= last_key || key > 0x7FFFFFFF) return bad("bitmap keys out of order");
    last_key = key;
    FLOE_RETURN_IF_ERROR(ReadBitmap32(in, static_cast<uint64_t>(key), &positions));
  }
  if (in.Has(1)) return bad("bytes left after the bitmap");
  return positions;
}

namespace {

void PutBigEndian32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

void PutLittleEndian(std::string& out, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

struct RoaringFree {
  void operator()(roaring_bitmap_t* r) const { roaring_bitmap_free(r); }
};

}  // namespace

Result<std::string> EncodeDeletionVector(const std::vector<int64_t>& positions) {
  std::vector<int64_t> sorted = positions;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  if (!sorted.empty() && sorted.front() < 0)
    return InvalidArgument("deletion vector: negative position " + std::to_string(sorted.front()));
  if (!sorted.empty() && (sorted.back() >> 32) > 0x7FFFFFFF)
    return InvalidArgument("deletion vector: position " + std::to_string(sorted.back()) + " is past the spec's range");

  // magic, then the count of 32-bit bitmaps and each as key + portable bitmap.
  std::string body(reinterpret_cast<const char*>(kMagic), 4);
  size_t bitmaps = 0;
  std::string bitmap_bytes;
  for (size_t i = 0; i < sorted.size();) {
    const uint64_t high = static_cast<uint64_t>(sorted[i]) >> 32;
    size_t end = i;
    std::vector<uint32_t> low;
    while (end < sorted.size() && (static_cast<uint64_t>(sorted[end]) >> 32) == high) {
      low.push_back(static_cast<uint32_t>(sorted[end] & 0xFFFFFFFF));
      ++end;
    }
    std::unique_ptr<roaring_bitmap_t, RoaringFree> bitmap(roaring_bitmap_of_ptr(low.size(), low.data()));
    if (!bitmap) return IOError("deletion vector: out of memory building a bitmap");
    roaring_bitmap_run_optimize(bitmap.get());
    PutLittleEndian(bitmap_bytes, high, 4);
    const size_t size = roaring_bitmap_portable_size_in_bytes(bitmap.get());
    const size_t at = bitmap_bytes.size();
    bitmap_bytes.resize(at + size);
    if (roaring_bitmap_portable_serialize(bitmap.get(), bitmap_bytes.data() + at) != size)
      return IOError("deletion vector: CRoaring wrote an unexpected size");
    ++bitmaps;
    i = end;
  }
  PutLittleEndian(body, bitmaps, 8);
  body += bitmap_bytes;
  if (body.size() > 0x7FFFFFFF) return InvalidArgument("deletion vector: blob past 2 GiB");

  std::string blob;
  PutBigEndian32(blob, static_cast<uint32_t>(body.size()));
  blob += body;
  const uint32_t crc = static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const unsigned char*>(body.data()), static_cast<uInt>(body.size())));
  PutBigEndian32(blob, crc);
  return blob;
}

}  // namespace floe::parquet
