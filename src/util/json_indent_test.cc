#include "util/json_indent.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace floe {
namespace {

TEST(JsonIndent, IndentKeepsOrderAndMatchesNlohmann) {
  const std::string compact = R"({"z":1,"a":[1,{"b":"x, y: [z]","c":{}}],"e":[],"s":"q\"{"})";
  EXPECT_EQ(IndentJson(compact), nlohmann::ordered_json::parse(compact).dump(2));
}

TEST(JsonIndent, IndentIsLinearInTheNumberOfKeys) {
  std::string big = "{";
  for (int i = 0; i < 300000; ++i) big += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v\"";
  big += "}";
  // ordered_json would take n^2/2 key comparisons here (minutes); this is one pass.
  std::string pretty = IndentJson(big);
  EXPECT_EQ(pretty.substr(0, 14), "{\n  \"k0\": \"v\",");
  EXPECT_EQ(pretty.back(), '}');
}

}  // namespace
}  // namespace floe
