#include "parquet/deletion_vector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace floe::parquet {
namespace {

void Le(std::string* out, uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void Be32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A blob around `bitmap` (the 64-bit portable Roaring form), framed as the spec says.
std::string Blob(const std::string& bitmap) {
  std::string body("\xD1\xD3\x39\x64", 4);
  body += bitmap;
  std::string blob;
  Be32(&blob, static_cast<uint32_t>(body.size()));
  blob += body;
  Be32(&blob, static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), body.size())));
  return blob;
}

// Two 32-bit bitmaps: key 0 holds an array container {1, 5, 70000 (key 1: 4464)} and a run
// container 100..102 at key 2; key 3 (positions 3 << 32 and up) holds a bitmap container.
std::string SampleBitmap() {
  std::string b;
  Le(&b, 2, 8);  // two 32-bit bitmaps
  // High key 0: run-capable format, three containers (keys 0, 1, 2), container 2 is a run.
  Le(&b, 0, 4);
  Le(&b, 12347 | ((3 - 1) << 16), 4);
  b.push_back(static_cast<char>(0b100));  // run flags: container 2
  Le(&b, 0, 2), Le(&b, 2 - 1, 2);         // key 0, cardinality 2
  Le(&b, 1, 2), Le(&b, 1 - 1, 2);         // key 1, cardinality 1
  Le(&b, 2, 2), Le(&b, 3 - 1, 2);         // key 2, cardinality 3 (a run)
  Le(&b, 1, 2), Le(&b, 5, 2);             // array {1, 5}
  Le(&b, 4464, 2);                        // array {4464}: position 65536 + 4464
  Le(&b, 1, 2), Le(&b, 100, 2), Le(&b, 2, 2);  // one run: 100, length 2 -> 100..102
  // High key 3: the format without runs, one bitmap container (5000 positions: 0..4999).
  Le(&b, 3, 4);
  Le(&b, 12346, 4);
  Le(&b, 1, 4);
  Le(&b, 0, 2), Le(&b, 5000 - 1, 2);
  Le(&b, 0, 4);  // offset header
  std::string words(8192, '\0');
  for (int v = 0; v < 5000; ++v) words[v / 8] = static_cast<char>(words[v / 8] | (1 << (v % 8)));
  b += words;
  return b;
}

TEST(DeletionVector, DecodesArrayRunAndBitmapContainers) {
  auto positions = DecodeDeletionVector(Blob(SampleBitmap()));
  ASSERT_TRUE(positions) << positions.error().message;
  std::vector<int64_t> want = {1, 5, 65536 + 4464, 131072 + 100, 131072 + 101, 131072 + 102};
  for (int64_t v = 0; v < 5000; ++v) want.push_back((int64_t{3} << 32) + v);
  EXPECT_EQ(*positions, want);
}

TEST(DeletionVector, EmptyVectorHoldsNothing) {
  std::string bitmap;
  Le(&bitmap, 0, 8);
  auto positions = DecodeDeletionVector(Blob(bitmap));
  ASSERT_TRUE(positions) << positions.error().message;
  EXPECT_TRUE(positions->empty());
}

TEST(DeletionVector, DamagedBlobsAreCorruptNeverACrash) {
  const std::string good = Blob(SampleBitmap());
  std::string bad_magic = good;
  bad_magic[5] = 'x';
  auto r = DecodeDeletionVector(bad_magic);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCorrupt);
  std::string bad_crc = good;
  bad_crc[20] ^= 1;
  r = DecodeDeletionVector(bad_crc);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("checksum"), std::string::npos);
  for (size_t cut = 0; cut < good.size(); cut += 7) EXPECT_FALSE(DecodeDeletionVector(good.substr(0, cut)));
  // Every truncation of the bitmap, re-framed with a valid length and checksum, is refused too.
  const std::string bitmap = SampleBitmap();
  for (size_t cut = 0; cut < bitmap.size(); cut += 5) EXPECT_FALSE(DecodeDeletionVector(Blob(bitmap.substr(0, cut)))) << cut;
}

}  // namespace
}  // namespace floe::parquet
