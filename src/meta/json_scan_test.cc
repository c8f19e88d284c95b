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

std::vector<std::string> Elements(std::string_view text, const Member& m) {
  std::vector<std::string> out;
  for (const Span& e : m.elements) out.emplace_back(e.Of(text));
  return out;
}

TEST(JsonScan, ArrayElements) {
  const std::string text = R"({"s": [ {"a":"[\"]"} ,{"b":[{}]},	{} ], "t":[], "u":[ ], "v":{"w":[1]}})";
  auto members = ObjectMembers(text);
  ASSERT_TRUE(members);
  ASSERT_EQ(members->size(), 4u);
  EXPECT_EQ(Elements(text, (*members)[0]), (std::vector<std::string>{R"({"a":"[\"]"})", R"({"b":[{}]})", "{}"}));
  EXPECT_EQ((*members)[0].value.Of(text), R"([ {"a":"[\"]"} ,{"b":[{}]},	{} ])");
  EXPECT_TRUE((*members)[1].elements.empty());
  EXPECT_TRUE((*members)[2].elements.empty());
  EXPECT_TRUE((*members)[3].elements.empty());  // only top-level arrays are split
  for (const char* bad : {R"({"s":[{},]})", R"({"s":[,{}]})", R"({"s":[{} {}]})", R"({"s":[{},,{}]})", R"({"s":[{}})"}) {
    EXPECT_FALSE(ObjectMembers(bad)) << bad;
  }
}

TEST(JsonScan, KnownElementsAreNotScanned) {
  // The caller vouches for the first element's length: the scan takes it and goes on after it.
  const std::string text = R"({"s":[{"a":1},{"b":2}],"t":[{"a":1}]})";
  std::vector<std::string> asked;
  auto members = ObjectMembers(text, [&](std::string_view key, size_t index, size_t begin) -> size_t {
    asked.push_back(std::string(key) + "/" + std::to_string(index) + "@" + std::to_string(begin));
    return key == "s" && index == 0 ? 7 : 0;
  });
  ASSERT_TRUE(members);
  EXPECT_EQ(asked, (std::vector<std::string>{"s/0@6", "s/1@14", "t/0@28"}));
  EXPECT_EQ(Elements(text, (*members)[0]), (std::vector<std::string>{R"({"a":1})", R"({"b":2})"}));
  // A length that leaves no comma or bracket after it is refused like any bad layout.
  EXPECT_FALSE(ObjectMembers(text, [](std::string_view, size_t, size_t) -> size_t { return 3; }));
}

}  // namespace
}  // namespace floe::json_scan
