// Decoder::SkipVarints (eight bytes at a time) must end where SkipVarint called once per value
// ends, and fail exactly when it fails: on well-formed values of every length, on bytes that
// run out, and on hostile runs of continuation bytes longer than a varint may be.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "avro/avro_binary.h"

namespace floe::avro {
namespace {

void ExpectSameAsOneByOne(const std::string& bytes, uint64_t count) {
  Decoder fast(bytes);
  Decoder reference(bytes);
  fast.SkipVarints(count);
  for (uint64_t i = 0; i < count && !reference.failed(); ++i) reference.SkipVarint();
  ASSERT_EQ(fast.failed(), reference.failed()) << "count " << count << " of " << bytes.size() << " bytes";
  ASSERT_EQ(fast.remaining(), reference.remaining()) << "count " << count << " of " << bytes.size() << " bytes";
}

TEST(SkipVarints, EndsWhereSkippingOneByOneEnds) {
  std::mt19937_64 rng(39);
  for (int round = 0; round < 300; ++round) {
    std::string bytes;
    Encoder e(&bytes);
    int values = static_cast<int>(rng() % 40);
    for (int i = 0; i < values; ++i) {
      int bits = static_cast<int>(rng() % 64);  // 1- to 10-byte encodings
      e.WriteLong(static_cast<int64_t>(rng() >> (63 - bits)) * (rng() % 2 ? 1 : -1));
    }
    for (uint64_t count = 0; count <= static_cast<uint64_t>(values) + 2; ++count) ExpectSameAsOneByOne(bytes, count);
  }
}

TEST(SkipVarints, FailsLikeSkippingOneByOneOnHostileBytes) {
  std::mt19937_64 rng(40);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(rng() % 48, '\0');
    // Mostly continuation bytes, so over-long varints and truncated ones are common.
    for (char& c : bytes) c = static_cast<char>(rng() % 8 == 0 ? rng() % 0x80 : 0x80 | (rng() % 0x80));
    for (uint64_t count = 0; count <= 8; ++count) ExpectSameAsOneByOne(bytes, count);
  }
  ExpectSameAsOneByOne(std::string(9, '\x80') + '\x01', 1);   // 10 bytes: the longest a varint may be
  ExpectSameAsOneByOne(std::string(10, '\x80') + '\x01', 1);  // 11 bytes: fails
  ExpectSameAsOneByOne("\x01" + std::string(6, '\x80') + std::string(4, '\x80') + '\x01', 2);  // run across words
}

// SkipIntBytesItems must end and fail where the general decoding of each (int key, bytes value)
// item ends and fails: one-byte keys and lengths (its fast path), longer ones, negative lengths
// and lengths past the end.
void ExpectItemsSkippedAsDecoded(const std::string& bytes, uint64_t count) {
  Decoder fast(bytes);
  Decoder reference(bytes);
  fast.SkipIntBytesItems(count);
  for (uint64_t i = 0; i < count && !reference.failed(); ++i) {
    reference.SkipVarint();  // the key: stepped over, as the map reader did before
    reference.ReadBytesView();
  }
  ASSERT_EQ(fast.failed(), reference.failed()) << "count " << count << " of " << bytes.size() << " bytes";
  ASSERT_EQ(fast.remaining(), reference.remaining()) << "count " << count << " of " << bytes.size() << " bytes";
}

TEST(SkipIntBytesItems, EndsAndFailsWhereDecodingEachItemDoes) {
  std::mt19937_64 rng(41);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes;
    Encoder e(&bytes);
    int items = static_cast<int>(rng() % 12);
    for (int i = 0; i < items; ++i) {
      e.WriteInt(static_cast<int32_t>(rng() % (rng() % 2 ? 60 : 100000)));
      e.WriteBytes(std::string(rng() % (rng() % 2 ? 60 : 300), 'v'));
    }
    if (round % 3 == 0 && !bytes.empty()) bytes.resize(rng() % bytes.size());  // cut short
    if (round % 5 == 0 && !bytes.empty()) bytes[rng() % bytes.size()] = static_cast<char>(rng());  // damaged
    for (uint64_t count = 0; count <= static_cast<uint64_t>(items) + 1; ++count) ExpectItemsSkippedAsDecoded(bytes, count);
  }
  ExpectItemsSkippedAsDecoded(std::string("\x02\x03", 2), 1);  // length -2
}

}  // namespace
}  // namespace floe::avro
