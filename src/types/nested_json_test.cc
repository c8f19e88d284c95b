// The human JSON form (types/nested_json.h): printing every primitive inside nested values as
// the JSON-lines output prints it, the map forms, and input errors that name the place.
#include "types/nested_json.h"

#include <gtest/gtest.h>

#include "types/schema_text.h"

namespace floe {
namespace {

TypePtr JsonTestType(const std::string& text) {
  auto type = ParseTypeText(text);
  EXPECT_TRUE(type.has_value()) << text << ": " << (type ? "" : type.error().message);
  return *type;
}

std::string CellText(const Column& c, size_t row) {
  std::string out;
  AppendCellJson(c, row, &out);
  return out;
}

std::string AppendError(const std::string& type_text, const std::string& json, const std::string& name) {
  Column c(JsonTestType(type_text));
  auto st = AppendJsonValue(nlohmann::json::parse(json), &c, name);
  EXPECT_FALSE(st.has_value()) << type_text << " took " << json;
  EXPECT_EQ(c.length, 0u);
  return st ? "" : st.error().message;
}

TEST(NestedJson, PrimitivesPrintAsLiteralToJsonDoesAtEveryDepth) {
  // One value of each primitive, alone and inside a list: the cell text of a primitive is the
  // compact dump of Literal::ToJson, the JSON-lines output's definition.
  const std::vector<std::pair<std::string, std::string>> values = {
      {"boolean", "true"},
      {"int", "-7"},
      {"long", "9007199254740993"},
      {"float", "0.1"},
      {"double", "2.5e-300"},
      {"decimal(10,3)", "\"-12.050\""},
      {"date", "\"1969-12-31\""},
      {"time", "\"23:59:59.000001\""},
      {"timestamp", "\"2024-02-29T01:02:03.000004\""},
      {"timestamptz", "\"2024-02-29T01:02:03.000004+00:00\""},
      {"timestamp_ns", "\"2024-02-29T01:02:03.000000005\""},
      {"string", "\"tab\\there \\\"q\\\" \\u0001 é\""},
      {"uuid", "\"f79c3e09-677c-4bbd-a479-3f349cb785e7\""},
      {"binary", "\"00FF10\""},
      {"fixed[2]", "\"ABCD\""},
  };
  for (const auto& [type_text, json] : values) {
    TypePtr type = JsonTestType(type_text);
    Column alone(type);
    ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(json), &alone)) << type_text;
    const std::string expected = alone.Get(0).ToJson().dump();
    EXPECT_EQ(CellText(alone, 0), expected) << type_text;
    Column list(JsonTestType("list<" + type_text + ">"));
    ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse("[" + json + ", null]"), &list)) << type_text;
    EXPECT_EQ(CellText(list, 0), "[" + expected + ",null]") << type_text;
    EXPECT_EQ(list.Get(0).ToString(), CellText(list, 0));
  }
}

TEST(NestedJson, StringsThatAreNotUtf8PrintWithReplacementCharacters) {
  Column c(JsonTestType("struct<s: string>"));
  ASSERT_TRUE(c.Append(Literal::Nested(c.type, {Literal::String("a\xff" "b")})));
  EXPECT_EQ(CellText(c, 0), "{\"s\":\"a\xEF\xBF\xBD" "b\"}");
  EXPECT_EQ(c.Get(0).ToString(), CellText(c, 0));
  EXPECT_FALSE(CellJson(c, 0).is_discarded());
}

TEST(NestedJson, MapsPrintAsObjectsWhenKeyedByStringsElseAsEntries) {
  Column by_string(JsonTestType("map<string, int>"));
  ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(R"([{"key": "b", "value": 2}, {"key": "a"}])"), &by_string));
  EXPECT_EQ(CellText(by_string, 0), R"({"b":2,"a":null})");  // entries keep their order
  Column by_int(JsonTestType("map<int, string>"));
  ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(R"({"3": "x", "1": null})"), &by_int));
  EXPECT_EQ(CellText(by_int, 0), R"([{"key":1,"value":null},{"key":3,"value":"x"}])");
  Column by_struct(JsonTestType("map<struct<a: int>, list<long>>"));
  ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(R"([{"key": {"a": 1}, "value": [2]}])"), &by_struct));
  EXPECT_EQ(CellText(by_struct, 0), R"([{"key":{"a":1},"value":[2]}])");
  // Struct fields print in field order, and CellJson keeps it.
  Column s(JsonTestType("struct<z: int, a: int>"));
  ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(R"({"a": 1, "z": 2})"), &s));
  EXPECT_EQ(CellText(s, 0), R"({"z":2,"a":1})");
  EXPECT_EQ(CellJson(s, 0).dump(), R"({"z":2,"a":1})");
}

TEST(NestedJson, InputReadsLikeJsonLinesPrimitives) {
  Column c(JsonTestType("struct<n: long, d: decimal(5,2), f: double, b: boolean, t: timestamp, s: string, v: variant>"));
  ASSERT_TRUE(AppendJsonValue(
      nlohmann::json::parse(R"({"n": "12", "d": 1.5, "f": 3, "b": true, "t": "2024-01-01 00:00:00", "s": 5, "v": {"x": [1]}})"),
      &c));
  EXPECT_EQ(CellText(c, 0),
            R"({"n":12,"d":"1.50","f":3.0,"b":true,"t":"2024-01-01T00:00:00.000000","s":"5","v":{"x":[1]}})");
  // Field names match case-insensitively when no exact match exists.
  Column upper(JsonTestType("struct<Zip: int>"));
  ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(R"({"zip": 1})"), &upper));
  EXPECT_EQ(CellText(upper, 0), R"({"Zip":1})");
}

TEST(NestedJson, BadInputNamesThePlaceInsideTheValue) {
  auto has = [](const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << "'" << message << "' lacks '" << part << "'";
  };
  has(AppendError("list<int>", R"([1, 2, "x"])", "tags"), "tags[2]: ");
  has(AppendError("struct<street: string, zip: int not null>", R"({"street": "a"})", "addr"), "addr.zip: is required");
  has(AppendError("struct<zip: int>", R"({"zip": [1]})", "addr"), "addr.zip: expected int, got an array");
  has(AppendError("map<string, int>", R"({"k": "v"})", "attrs"), "attrs['k']: ");
  has(AppendError("map<string, int>", R"([{"key": "k", "value": 1}, {"key": "k", "value": 2}])", "attrs"),
      "attrs: key 'k' appears twice");
  has(AppendError("map<string, int>", R"([{"key": null, "value": 1}])", "attrs"), "attrs[key 0]: is required");
  has(AppendError("map<string, int>", R"([{"value": 1}])", "attrs"), "attrs[0]: a map entry is an object");
  has(AppendError("map<string, int>", R"([{"key": "a", "val": 1}])", "attrs"), "no member 'val'");
  has(AppendError("map<int, int>", R"({"x": 1})", "m"), "m[key 0]: ");
  has(AppendError("map<struct<a: int>, int>", R"({"x": 1})", "m"), "is an array of");
  has(AppendError("struct<a: int>", R"({"b": 1})", "s"), "s: the struct has no field 'b'");
  has(AppendError("struct<a: int>", R"([1])", "s"), "s: expected an object");
  has(AppendError("list<int>", R"({"a": 1})", "l"), "l: expected an array");
  has(AppendError("list<list<int not null>>", R"([[1], [2, null]])", "l"), "l[1][1]: is required");
  has(AppendError("list<struct<x: list<long>>>", R"([{"x": [1, 18446744073709551615]}])", "p"), "p[0].x[1]: ");
  has(AppendError("list<int>", R"([1, 2, "x"])", ""), "[2]: ");
  // A null at the top is a null row; whether the column may be null is the caller's check.
  Column c(JsonTestType("list<int>"));
  ASSERT_TRUE(AppendJsonValue(nullptr, &c));
  EXPECT_TRUE(c.IsNull(0));
}

TEST(NestedJson, ParsedLiteralsAreNestedLiteralsOfTheType) {
  TypePtr type = JsonTestType("struct<tags: list<string>, n: int>");
  auto v = LiteralFromCellJson(type, nlohmann::json::parse(R"({"tags": ["a"], "n": 1})"));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->type(), type);
  ASSERT_EQ(v->AsItems().size(), 2u);
  EXPECT_EQ(v->AsItems()[0].AsItems()[0], Literal::String("a"));
  EXPECT_EQ(v->ToString(), R"({"tags":["a"],"n":1})");
  EXPECT_TRUE(LiteralFromCellJson(type, nullptr)->is_null());
}

}  // namespace
}  // namespace floe
