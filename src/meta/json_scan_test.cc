// The scan that locates a metadata document's snapshots: exact spans for any valid JSON, and
// nullopt (a full parse) for shapes it cannot follow.
#include "meta/json_scan.h"

#include <gtest/gtest.h>

#include <string>

namespace floe::json_scan {
namespace {

std::vector<std::string> Keys(std::string_view text) {
  auto members = ObjectMembers(text);
  EXPECT_TRUE(members) << text;
  std::vector<std::string> out;
  if (members) {
    for (const auto& m : *members) out.push_back(std::string(m.raw_key) + "=" + std::string(m.value.Of(text)));
  }
  return out;
}

TEST(JsonScan, MembersOfAnyLayout) {
  EXPECT_EQ(Keys(R"({"a":1,"b":[1,{"c":"]"}],"d":{"e":"}\"{"},"f":null})"),
            (std::vector<std::string>{"a=1", R"(b=[1,{"c":"]"}])", R"(d={"e":"}\"{"})", "f=null"}));
  EXPECT_EQ(Keys(" \n\t{ \"a\" :\r\n -1.5e3 , \"b\"\t:\"x\\\\\" }\n "),
            (std::vector<std::string>{"a=-1.5e3", R"(b="x\\")"}));
  EXPECT_EQ(Keys("{}"), std::vector<std::string>{});
  // Keys are raw: an escaped key is reported as written, for the caller to refuse.
  EXPECT_EQ(Keys(R"({"sn\u0061pshots":[]})"), (std::vector<std::string>{R"(sn\u0061pshots=[])"}));
  EXPECT_EQ(Keys(R"({"a":1,"a":2})"), (std::vector<std::string>{"a=1", "a=2"}));
}

TEST(JsonScan, RefusesWhatItCannotFollow) {
  for (const char* bad : {"", "[]", "{", "{\"a\":1", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":1 \"b\":2}",
                          "{\"a\":\"unterminated}", "{\"a\":[1,2}", "{\"a\":1} x", "{,}", "{\"a\":}"}) {
    EXPECT_FALSE(ObjectMembers(bad)) << bad;
  }
}

TEST(JsonScan, ArrayElements) {
  const std::string text = R"({"s": [ {"a":"[\"]"} ,{"b":[{}]},	{} ], "t":[], "u":[ ]})";
  auto members = ObjectMembers(text);
  ASSERT_TRUE(members);
  ASSERT_EQ(members->size(), 3u);
  auto elements = ArrayElements(text, (*members)[0].value);
  ASSERT_TRUE(elements);
  std::vector<std::string> got;
  for (const Span& e : *elements) got.emplace_back(e.Of(text));
  EXPECT_EQ(got, (std::vector<std::string>{R"({"a":"[\"]"})", R"({"b":[{}]})", "{}"}));
  EXPECT_EQ(ArrayElements(text, (*members)[1].value)->size(), 0u);
  EXPECT_EQ(ArrayElements(text, (*members)[2].value)->size(), 0u);
  for (const char* bad : {R"({"s":[{},]})", R"({"s":[,{}]})", R"({"s":[{} {}]})", R"({"s":[{},,{}]})"}) {
    auto m = ObjectMembers(bad);
    ASSERT_TRUE(m) << bad;
    EXPECT_FALSE(ArrayElements(bad, (*m)[0].value)) << bad;
  }
  auto object = ObjectMembers(R"({"s":{}})");
  EXPECT_FALSE(ArrayElements(R"({"s":{}})", (*object)[0].value));
}

}  // namespace
}  // namespace floe::json_scan
