// Block codecs: what one writes the other reads back, whatever the block's shape, and a block
// that is corrupt or expands past its limit is refused, not trusted.
#include "avro/avro_codec.h"

#include <gtest/gtest.h>

#include <random>

namespace floe::avro {
namespace {

std::string RandomText(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

std::string Deflated(std::string_view input) {
  std::string out;
  EXPECT_TRUE(CompressBlock(Codec::kDeflate, -1, input, &out));
  return out;
}

TEST(AvroCodec, DeflateRoundTripsBlocksOfEveryShape) {
  // 4 MB of one byte deflates ~1000:1, far past the first guess at the output's size.
  for (const std::string& input : {std::string(), std::string("x"), RandomText(100'000, 7), std::string(4 << 20, 'a')}) {
    std::string out = "stale bytes of an earlier block";
    ASSERT_TRUE(DecompressBlock(Codec::kDeflate, Deflated(input), &out, size_t{1} << 30));
    EXPECT_EQ(out, input) << input.size() << " bytes";
  }
}

TEST(AvroCodec, AReusedLargerBufferHoldsASmallBlockExactly) {
  std::string out(1 << 20, 'z');  // capacity of an earlier, larger block
  std::string input = RandomText(3000, 3);
  ASSERT_TRUE(DecompressBlock(Codec::kDeflate, Deflated(input), &out, size_t{1} << 30));
  EXPECT_EQ(out, input);
}

TEST(AvroCodec, CorruptOrTruncatedDeflateIsRefused) {
  std::string packed = Deflated(RandomText(50'000, 5));
  std::string out;
  auto truncated = DecompressBlock(Codec::kDeflate, std::string_view(packed).substr(0, packed.size() / 2), &out, size_t{1} << 30);
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error().kind, ErrorKind::kCorrupt);
  std::string garbage = RandomText(1000, 11);
  garbage[0] = static_cast<char>(0xff);  // block type 3 (reserved) in the first header bits
  auto bad = DecompressBlock(Codec::kDeflate, garbage, &out, size_t{1} << 30);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kCorrupt);
}

TEST(AvroCodec, ABlockExpandingPastItsLimitIsRefused) {
  std::string packed = Deflated(std::string(1 << 20, 'a'));
  std::string out;
  auto r = DecompressBlock(Codec::kDeflate, packed, &out, 64 << 10);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kCorrupt);
  EXPECT_LE(out.capacity(), size_t{128} << 10);  // grew to the limit at most, not to the block's 1 MB
}

}  // namespace
}  // namespace floe::avro
