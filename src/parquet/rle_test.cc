#include "parquet/rle.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "parquet/compression.h"
#include "parquet/parquet_format.h"

namespace floe::parquet {
namespace {

std::vector<uint32_t> RoundTrip(const std::vector<uint32_t>& values, int bit_width) {
  std::string buf;
  RleEncode(values.data(), values.size(), bit_width, &buf);
  RleDecoder d(reinterpret_cast<const uint8_t*>(buf.data()), buf.size(), bit_width);
  std::vector<uint32_t> out(values.size());
  Status s = d.Decode(out.data(), out.size());
  EXPECT_TRUE(s) << s.error().ToString();
  return out;
}

TEST(Rle, RoundTripsMixedRunsAtEveryWidth) {
  std::mt19937 rng(42);
  for (int w = 1; w <= 32; ++w) {
    uint64_t limit = w == 32 ? 0xffffffffull : (1ull << w) - 1;
    std::vector<uint32_t> values;
    for (int block = 0; block < 50; ++block) {
      size_t len = rng() % 40 + 1;
      bool repeat = rng() % 2;
      uint32_t v = static_cast<uint32_t>(rng() % (limit + 1));
      for (size_t i = 0; i < len; ++i) values.push_back(repeat ? v : static_cast<uint32_t>(rng() % (limit + 1)));
    }
    EXPECT_EQ(RoundTrip(values, w), values) << "width " << w;
  }
}

TEST(Rle, LongRepeatIsCompact) {
  std::vector<uint32_t> values(100000, 1);
  std::string buf;
  RleEncode(values.data(), values.size(), 1, &buf);
  EXPECT_LE(buf.size(), 5u);
  EXPECT_EQ(RoundTrip(values, 1), values);
}

TEST(Rle, DecodesBytesAndZeroWidth) {
  std::vector<uint8_t> levels = {1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  std::string buf;
  RleEncode(levels.data(), levels.size(), 1, &buf);
  RleDecoder d(reinterpret_cast<const uint8_t*>(buf.data()), buf.size(), 1);
  std::vector<uint8_t> out(levels.size());
  ASSERT_TRUE(d.Decode(out.data(), out.size()));
  EXPECT_EQ(out, levels);

  std::vector<uint32_t> zeros(20, 0);
  EXPECT_EQ(RoundTrip(zeros, 0), zeros);
}

TEST(Rle, HostileStreamsAreCorrupt) {
  std::vector<uint32_t> out(100);
  // A bit-packed run of 8 values at width 8 with only 3 bytes present.
  const uint8_t packed[] = {0x03, 1, 2, 3};
  RleDecoder a(packed, sizeof packed, 8);
  EXPECT_FALSE(a.Decode(out.data(), 8));
  // A repeat run whose value is wider than the bit width.
  const uint8_t wide[] = {0x08, 0x05};
  RleDecoder b(wide, sizeof wide, 2);
  EXPECT_FALSE(b.Decode(out.data(), 4));
  // Asking for more values than the stream holds.
  const uint8_t shortrun[] = {0x04, 0x01};
  RleDecoder c(shortrun, sizeof shortrun, 1);
  EXPECT_FALSE(c.Decode(out.data(), 3));
  // An unterminated varint header.
  const uint8_t endless[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  RleDecoder e(endless, sizeof endless, 1);
  EXPECT_FALSE(e.Decode(out.data(), 1));
}

TEST(BitPackedMsb, DecodesMostSignificantBitFirst) {
  // Values 0..7 at width 3, MSB first: 000 001 010 011 100 101 110 111
  const uint8_t data[] = {0b00000101, 0b00111001, 0b01110111};
  uint8_t out[8];
  size_t consumed = 0;
  ASSERT_TRUE(BitPackedMsbDecode(data, sizeof data, 3, out, 8, &consumed));
  EXPECT_EQ(consumed, 3u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  EXPECT_FALSE(BitPackedMsbDecode(data, 2, 3, out, 8, &consumed));
}

TEST(Compression, RoundTripsEveryCodecAndRejectsGarbage) {
  std::string input;
  for (int i = 0; i < 10000; ++i) input += "row " + std::to_string(i % 97) + ";";
  for (int32_t c : {codec::kUncompressed, codec::kSnappy, codec::kGzip, codec::kZstd}) {
    std::string packed;
    ASSERT_TRUE(Compress(c, 3, reinterpret_cast<const uint8_t*>(input.data()), input.size(), &packed));
    if (c != codec::kUncompressed) {
      EXPECT_LT(packed.size(), input.size() / 4) << CodecName(c);
    }
    std::string back(input.size(), '\0');
    ASSERT_TRUE(Decompress(c, reinterpret_cast<const uint8_t*>(packed.data()), packed.size(),
                           reinterpret_cast<uint8_t*>(back.data()), back.size()))
        << CodecName(c);
    EXPECT_EQ(back, input);
    // A wrong declared size and flipped bytes are errors, not crashes.
    std::string small(input.size() / 2, '\0');
    EXPECT_FALSE(Decompress(c, reinterpret_cast<const uint8_t*>(packed.data()), packed.size(),
                            reinterpret_cast<uint8_t*>(small.data()), small.size()));
    if (c != codec::kUncompressed) {
      std::string flipped = packed;
      for (size_t i = 0; i < flipped.size(); i += 7) flipped[i] ^= 0x5a;
      (void)Decompress(c, reinterpret_cast<const uint8_t*>(flipped.data()), flipped.size(),
                       reinterpret_cast<uint8_t*>(back.data()), back.size());
    }
  }
  EXPECT_EQ(*CodecFromName("ZSTD"), codec::kZstd);
  EXPECT_FALSE(CodecFromName("lzo"));
}

}  // namespace
}  // namespace floe::parquet
