#include "types/variant.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

std::string RoundTrip(const std::string& json_text) {
  auto packed = PackedVariantFromJsonText(json_text);
  EXPECT_TRUE(packed) << packed.error().message;
  auto text = PackedVariantToJsonText(*packed);
  EXPECT_TRUE(text) << text.error().message;
  return text ? *text : "";
}

TEST(Variant, JsonValuesRoundTrip) {
  EXPECT_EQ(RoundTrip("null"), "null");
  EXPECT_EQ(RoundTrip("true"), "true");
  EXPECT_EQ(RoundTrip("-7"), "-7");
  EXPECT_EQ(RoundTrip("300"), "300");
  EXPECT_EQ(RoundTrip("70000"), "70000");
  EXPECT_EQ(RoundTrip("-9876543210"), "-9876543210");
  EXPECT_EQ(RoundTrip("1.5"), "1.5");
  EXPECT_EQ(RoundTrip("\"iceberg\""), "\"iceberg\"");
  std::string long_string(100, 'x');
  EXPECT_EQ(RoundTrip("\"" + long_string + "\""), "\"" + long_string + "\"");
  EXPECT_EQ(RoundTrip(R"({"b":[1,"two",{"a":null}],"a":{"b":false}})"), R"({"a":{"b":false},"b":[1,"two",{"a":null}]})");
  EXPECT_EQ(RoundTrip("[]"), "[]");
  EXPECT_EQ(RoundTrip("{}"), "{}");
}

TEST(Variant, LargeArraysAndObjectsUseWideCountsAndOffsets) {
  nlohmann::json array = nlohmann::json::array();
  nlohmann::json object = nlohmann::json::object();
  for (int i = 0; i < 1000; ++i) {
    array.push_back(std::string(80, static_cast<char>('a' + i % 26)));
    object["key" + std::to_string(i)] = i;
  }
  EXPECT_EQ(RoundTrip(array.dump()), array.dump());
  EXPECT_EQ(RoundTrip(object.dump()), object.dump());
}

TEST(Variant, EncodesTheSpecLayout) {
  // {"a": 1}: metadata = version 1, sorted, 1-byte offsets; dictionary ["a"].
  auto v = EncodeVariant(nlohmann::json::parse(R"({"a":1})"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->metadata, std::string("\x11\x01\x00\x01" "a", 5));
  // object header (basic type 2, 1-byte ids and offsets), 1 field, id 0, offsets 0 and 2, int8 1.
  EXPECT_EQ(v->value, std::string("\x02\x01\x00\x00\x02\x0c\x01", 7));
}

TEST(Variant, ReadsTypesJsonLacks) {
  std::string metadata("\x01\x00\x00", 3);  // empty dictionary
  auto text = [&](std::string value) { return VariantToJsonText(metadata, value); };
  // decimal4, scale 2, 12345 -> 123.45
  EXPECT_EQ(*text(std::string("\x20\x02\x39\x30\x00\x00", 6)), "123.45");
  // date 0 -> 1970-01-01
  EXPECT_EQ(*text(std::string("\x2c\x00\x00\x00\x00", 5)), "\"1970-01-01\"");
  // uuid
  std::string uuid("\x50", 1);
  for (int i = 0; i < 16; ++i) uuid.push_back(static_cast<char>(i));
  EXPECT_EQ(*text(uuid), "\"00010203-0405-0607-0809-0a0b0c0d0e0f\"");
}

TEST(Variant, HostileBytesGiveClearErrors) {
  std::string metadata("\x01\x00\x00", 3);
  auto err = [&](std::string md, std::string value) {
    auto r = VariantToJsonText(md, value);
    EXPECT_FALSE(r);
    return r ? std::string() : r.error().message;
  };
  EXPECT_NE(err(std::string("\x02\x00\x00", 3), std::string("\x00", 1)).find("version 2 is not 1"), std::string::npos);
  EXPECT_NE(err("", std::string("\x00", 1)).find("variant metadata"), std::string::npos);
  EXPECT_NE(err(metadata, "").find("run past its end"), std::string::npos);
  // a short string claiming 10 bytes with 2 present
  EXPECT_NE(err(metadata, std::string("\x29" "ab", 3)).find("run past its end"), std::string::npos);
  // an object naming field id 5 in an empty dictionary
  EXPECT_NE(err(metadata, std::string("\x02\x01\x05\x00\x01\x00", 6)).find("outside the metadata's dictionary"),
            std::string::npos);
  // an unknown primitive type
  EXPECT_NE(err(metadata, std::string("\xfc", 1)).find("unknown primitive type 63"), std::string::npos);
  // an array whose element offset points past the end
  EXPECT_NE(err(metadata, std::string("\x03\x01\x40\x41\x00", 5)).find("past its end"), std::string::npos);
  // a deep nest of one-element arrays
  std::string deep("\x00", 1);
  for (int i = 0; i < 1000; ++i) {
    // an array of 2-byte offsets holding the level below
    const auto n = static_cast<uint16_t>(deep.size());
    deep = std::string("\x07\x01\x00\x00", 4) + static_cast<char>(n & 0xff) + static_cast<char>(n >> 8) + deep;
  }
  EXPECT_NE(err(metadata, deep).find("nested deeper"), std::string::npos);
  // found by fuzz/fuzz_variant.cc: an array whose last offset (its values' size) leaves its
  // second element outside it; read as a whole it used to print, copied by its size it did not
  const std::string meta_ab("\x11\x02\x00\x01\x02" "ab", 7);
  const std::string cut("\x02\x02\x00\x01\x00\x02\x0a\x0c\x01\x03\x02\x00\x01\x01\x04\x05x", 17);
  EXPECT_NE(err(meta_ab, cut).find("lies past the 1 value bytes of its container"), std::string::npos) << err(meta_ab, cut);
  // a packed value whose metadata length exceeds it
  auto unpacked = UnpackVariant(std::string("\xff\x00\x00\x00", 4));
  ASSERT_FALSE(unpacked);
  // JSON text that is not JSON
  auto bad = PackedVariantFromJsonText("{not json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("is not JSON"), std::string::npos);
}

}  // namespace
}  // namespace floe
