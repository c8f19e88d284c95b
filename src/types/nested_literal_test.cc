// Literal::Nested: comparison, Iceberg's JSON single-value form, casts and the refusals.
#include "types/literal.h"

#include <gtest/gtest.h>

#include "types/schema_text.h"

namespace floe {
namespace {

TypePtr LiteralTestType(const std::string& text) {
  auto type = ParseTypeText(text);
  EXPECT_TRUE(type.has_value()) << text << ": " << (type ? "" : type.error().message);
  return *type;
}

// A value of `type` from its human JSON text (what scan prints).
Literal LiteralTestValue(const TypePtr& type, const std::string& text) {
  auto v = Literal::String(text).CastTo(type);
  EXPECT_TRUE(v.has_value()) << text << ": " << (v ? "" : v.error().message);
  return v ? *v : Literal();
}

TEST(NestedLiteral, ComparesItemByItemWithNullsFirstAndPrefixesBeforeLongerValues) {
  TypePtr list = LiteralTestType("list<int>");
  EXPECT_LT(LiteralTestValue(list, "[1, 2]"), LiteralTestValue(list, "[1, 3]"));
  EXPECT_LT(LiteralTestValue(list, "[1, 2]"), LiteralTestValue(list, "[1, 2, 0]"));
  EXPECT_LT(LiteralTestValue(list, "[]"), LiteralTestValue(list, "[0]"));
  EXPECT_LT(LiteralTestValue(list, "[null, 5]"), LiteralTestValue(list, "[0]"));
  EXPECT_EQ(LiteralTestValue(list, "[1, null]"), LiteralTestValue(list, "[1, null]"));
  EXPECT_NE(LiteralTestValue(list, "[1, null]"), LiteralTestValue(list, "[1]"));
  EXPECT_LT(Literal::Null(list), LiteralTestValue(list, "[]"));

  TypePtr s = LiteralTestType("struct<a: string, b: list<double>>");
  EXPECT_LT(LiteralTestValue(s, R"({"a": "x", "b": [1.5]})"), LiteralTestValue(s, R"({"a": "x", "b": [2]})"));
  EXPECT_LT(LiteralTestValue(s, R"({"a": "w", "b": [9]})"), LiteralTestValue(s, R"({"a": "x", "b": []})"));
  EXPECT_EQ(LiteralTestValue(s, R"({"b": [1], "a": "x"})"), LiteralTestValue(s, R"({"a": "x", "b": [1.0]})"));

  TypePtr m = LiteralTestType("map<string, long>");
  EXPECT_EQ(LiteralTestValue(m, R"({"k": 1})"), LiteralTestValue(m, R"([{"key": "k", "value": 1}])"));
  EXPECT_LT(LiteralTestValue(m, R"({"a": 1})"), LiteralTestValue(m, R"({"a": 2})"));
}

TEST(NestedLiteral, WritesTheSpecsJsonSingleValueForms) {
  // Field ids as ParseTypeText numbers them from 1: a=1, b=2, b.element=3.
  TypePtr s = LiteralTestType("struct<a: int, b: list<string>>");
  EXPECT_EQ(LiteralTestValue(s, R"({"a": 1, "b": ["x", null]})").ToJson().dump(), R"({"1":1,"2":["x",null]})");
  EXPECT_EQ(LiteralTestValue(s, R"({"b": []})").ToJson().dump(), R"({"1":null,"2":[]})");
  TypePtr m = LiteralTestType("map<string, date>");
  EXPECT_EQ(LiteralTestValue(m, R"({"a": "2024-01-02", "b": null})").ToJson().dump(),
            R"({"keys":["a","b"],"values":["2024-01-02",null]})");
  TypePtr l = LiteralTestType("list<decimal(9,2)>");
  EXPECT_EQ(LiteralTestValue(l, R"(["1.50", 2])").ToJson().dump(), R"(["1.50","2.00"])");
  TypePtr nested = LiteralTestType("map<int, struct<x: list<long>>>");  // key=1, value=2, x=3
  Literal v = LiteralTestValue(nested, R"([{"key": 7, "value": {"x": [1, 2]}}, {"key": 8, "value": null}])");
  EXPECT_EQ(v.ToJson().dump(), R"({"keys":[7,8],"values":[{"3":[1,2]},null]})");
}

TEST(NestedLiteral, ReadsTheSpecsJsonFormBack) {
  for (auto [type_text, human] : std::vector<std::pair<std::string, std::string>>{
           {"struct<a: int, b: list<string>>", R"({"a": 1, "b": ["x", null]})"},
           {"struct<a: int not null, b: struct<c: uuid>>", R"({"a": 1, "b": {"c": "f79c3e09-677c-4bbd-a479-3f349cb785e7"}})"},
           {"list<list<timestamp>>", R"([[], null, ["2024-01-02T03:04:05.000006"]])"},
           {"map<long, map<string, binary>>", R"([{"key": 1, "value": {"k": "00FF"}}, {"key": 2, "value": null}])"},
       }) {
    TypePtr type = LiteralTestType(type_text);
    Literal v = LiteralTestValue(type, human);
    auto back = Literal::FromJson(type, v.ToJson());
    ASSERT_TRUE(back.has_value()) << type_text << ": " << back.error().message;
    EXPECT_EQ(*back, v) << type_text;
    EXPECT_EQ(back->ToString(), v.ToString());
  }
  // A field left out reads as null.
  TypePtr s = LiteralTestType("struct<a: int, b: string>");
  EXPECT_EQ(*Literal::FromJson(s, nlohmann::json::parse(R"({"2": "x"})")), LiteralTestValue(s, R"({"b": "x"})"));
}

TEST(NestedLiteral, RefusesSpecJsonThatDoesNotFitTheType) {
  auto refused = [](const std::string& type_text, const std::string& json, const std::string& part) {
    auto v = Literal::FromJson(LiteralTestType(type_text), nlohmann::json::parse(json));
    ASSERT_FALSE(v.has_value()) << type_text << " read " << json;
    EXPECT_NE(v.error().message.find(part), std::string::npos) << v.error().message;
  };
  refused("struct<a: int>", R"({"9": 1})", "no field id 9");
  refused("struct<a: int not null>", R"({})", "is required");
  refused("struct<a: int>", R"([1])", "keyed by field id");
  refused("struct<a: int>", R"({"1": "one"})", "field 1");
  refused("list<int not null>", R"([1, null])", "element 1 is required");
  refused("list<int>", R"({"1": 1})", "a list is a JSON array");
  refused("map<string, int>", R"({"keys": ["a"], "values": []})", "1 keys but 0 values");
  refused("map<string, int>", R"({"keys": [null], "values": [1]})", "key 0 is required");
  refused("map<string, int>", R"({"a": 1})", "\"keys\"");
  refused("map<string, int>", R"({"keys": ["a"], "values": ["b"]})", "value 0");
}

TEST(NestedLiteral, CastsItemsRecursivelyToTheSameShape) {
  // A struct field promoted int -> long, matched by id.
  TypePtr from = LiteralTestType("struct<a: int, b: list<float>>");
  std::vector<NestedField> fields = from->fields();
  fields[0].type = Type::Long();
  fields[1].type = Type::List(NestedField{fields[1].type->fields()[0].id, "element", Type::Double(), false, ""});
  TypePtr to = Type::Struct(fields);
  auto cast = LiteralTestValue(from, R"({"a": 7, "b": [0.5, null]})").CastTo(to);
  ASSERT_TRUE(cast.has_value()) << cast.error().message;
  EXPECT_EQ(cast->type(), to);
  EXPECT_EQ(cast->AsItems()[0].type()->id(), TypeId::kLong);
  EXPECT_EQ(cast->AsItems()[1].AsItems()[0].type()->id(), TypeId::kDouble);
  EXPECT_EQ(cast->ToString(), R"({"a":7,"b":[0.5,null]})");

  // Fields matched by id, not position; a field the value lacks is null; an extra one is left out.
  TypePtr reordered = Type::Struct({NestedField{99, "c", Type::String(), false, ""}, fields[1], fields[0]});
  cast = LiteralTestValue(from, R"({"a": 7, "b": []})").CastTo(reordered);
  ASSERT_TRUE(cast.has_value()) << cast.error().message;
  EXPECT_EQ(cast->ToString(), R"({"c":null,"b":[],"a":7})");
  TypePtr needs_c = Type::Struct({NestedField{99, "c", Type::String(), true, ""}});
  EXPECT_FALSE(LiteralTestValue(from, R"({"a": 7})").CastTo(needs_c).has_value());

  EXPECT_EQ(LiteralTestValue(LiteralTestType("map<string, int>"), R"({"k": 1})").CastTo(LiteralTestType("map<string, long>"))->ToString(), R"({"k":1})");
  // Not the same shape; a value that does not fit.
  EXPECT_FALSE(LiteralTestValue(LiteralTestType("list<int>"), "[1]").CastTo(LiteralTestType("map<string, int>")).has_value());
  EXPECT_FALSE(LiteralTestValue(LiteralTestType("list<int>"), "[1]").CastTo(Type::Long()).has_value());
  EXPECT_FALSE(LiteralTestValue(LiteralTestType("list<long>"), "[5000000000]").CastTo(LiteralTestType("list<int>")).has_value());
  EXPECT_FALSE(Literal::Long(1).CastTo(LiteralTestType("list<int>")).has_value());
  // To a string: the human JSON text.
  EXPECT_EQ(LiteralTestValue(LiteralTestType("list<string>"), R"(["a", "b"])").CastTo(Type::String())->AsBytes(), R"(["a","b"])");
  // From a string that is not JSON.
  auto bad = Literal::String("[1, 2").CastTo(LiteralTestType("list<int>"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("not JSON"), std::string::npos);
}

TEST(NestedLiteral, HasNoBinaryForm) {
  auto binary = LiteralTestValue(LiteralTestType("list<int>"), "[1]").ToBinary();
  ASSERT_FALSE(binary.has_value());
  EXPECT_NE(binary.error().message.find("no single-value binary form"), std::string::npos);
  EXPECT_FALSE(LiteralTestValue(LiteralTestType("struct<a: int>"), R"({"a": 1})").ToBinary().has_value());
}

}  // namespace
}  // namespace floe
