#include "util/strict_json.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(StrictJson, ParsesOrdinaryDocuments) {
  auto j = ParseStrictJson(R"({"a":[1,2,{"b":null}],"c":"caf\u00e9"})", "body");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ((*j)["a"][2].count("b"), 1u);
  EXPECT_EQ(JsonDepth(*j), 3);
}

TEST(StrictJson, DepthLimitStopsTheParseEarly) {
  std::string deep(100000, '[');  // would crash a recursive parser; never completed here
  auto j = ParseStrictJson(deep, "body");
  ASSERT_FALSE(j);
  EXPECT_NE(j.error().message.find("nested deeper than 64 levels"), std::string::npos) << j.error().message;
  std::string ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_TRUE(ParseStrictJson(ok, "body"));
  std::string over = std::string(65, '[') + std::string(65, ']');
  EXPECT_FALSE(ParseStrictJson(over, "body"));
}

TEST(StrictJson, DuplicateKeysTrailingDataAndBadUtf8AreRefused) {
  auto dup = ParseStrictJson(R"({"requirements":[{"type":"assert-create"}],"requirements":[]})", "body");
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("\"requirements\" appears twice"), std::string::npos) << dup.error().message;
  EXPECT_TRUE(ParseStrictJson(R"({"a":{"k":1},"b":{"k":2}})", "body"));  // same key, other objects
  EXPECT_FALSE(ParseStrictJson(R"({"a":1} x)", "body"));
  EXPECT_FALSE(ParseStrictJson(R"({"a":1}{})", "body"));
  EXPECT_FALSE(ParseStrictJson("{\"a\":\"\xff\"}", "body"));
  auto bad = ParseStrictJson("{\"secret\": x}", "body");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.find("secret"), std::string::npos) << "errors never quote the input";
}

TEST(StrictJson, StringLimit) {
  JsonLimits limits;
  limits.max_string_bytes = 4;
  EXPECT_TRUE(ParseStrictJson(R"({"abcd":"efgh"})", "body", limits));
  EXPECT_FALSE(ParseStrictJson(R"({"abcde":1})", "body", limits));
  EXPECT_FALSE(ParseStrictJson(R"(["abcde"])", "body", limits));
}

}  // namespace
}  // namespace floe
