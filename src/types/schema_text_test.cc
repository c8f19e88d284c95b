#include "types/schema_text.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

Schema MustParse(const std::string& text) {
  auto schema = ParseSchemaText(text);
  EXPECT_TRUE(schema.has_value()) << text << ": " << (schema ? "" : schema.error().message);
  return schema ? *schema : Schema();
}

std::string ParseError(const std::string& text) {
  auto schema = ParseSchemaText(text);
  EXPECT_FALSE(schema.has_value()) << text << " parsed as " << (schema ? SchemaToText(*schema) : "");
  return schema ? "" : schema.error().message;
}

int IdOf(const Schema& s, const std::string& name) {
  const NestedField* f = s.FindField(name);
  EXPECT_NE(f, nullptr) << name;
  return f ? f->id : -1;
}

TEST(SchemaText, NumbersNestedFieldsAsIcebergDoesTopLevelFirstThenDepthFirst) {
  Schema s = MustParse(
      "id long not null, tags list<string>, attrs map<string, int>, "
      "addr struct<street: string, zip int not null>, deep list<struct<xs list<int not null>, n long>>");
  EXPECT_EQ(IdOf(s, "id"), 1);
  EXPECT_EQ(IdOf(s, "tags"), 2);
  EXPECT_EQ(IdOf(s, "attrs"), 3);
  EXPECT_EQ(IdOf(s, "addr"), 4);
  EXPECT_EQ(IdOf(s, "deep"), 5);
  EXPECT_EQ(IdOf(s, "tags.element"), 6);
  EXPECT_EQ(IdOf(s, "attrs.key"), 7);
  EXPECT_EQ(IdOf(s, "attrs.value"), 8);
  EXPECT_EQ(IdOf(s, "addr.street"), 9);
  EXPECT_EQ(IdOf(s, "addr.zip"), 10);
  EXPECT_EQ(IdOf(s, "deep.element"), 11);
  EXPECT_EQ(IdOf(s, "deep.element.xs"), 12);  // the struct's own fields before what they hold
  EXPECT_EQ(IdOf(s, "deep.element.n"), 13);
  EXPECT_EQ(IdOf(s, "deep.element.xs.element"), 14);
  EXPECT_EQ(s.HighestFieldId(), 14);

  EXPECT_TRUE(s.FindField("id")->required);
  EXPECT_FALSE(s.FindField("tags.element")->required);
  EXPECT_TRUE(s.FindField("attrs.key")->required);  // map keys always are
  EXPECT_FALSE(s.FindField("attrs.value")->required);
  EXPECT_TRUE(s.FindField("addr.zip")->required);
  EXPECT_FALSE(s.FindField("addr.street")->required);
  EXPECT_TRUE(s.FindField("deep.element.xs.element")->required);
  EXPECT_EQ(s.FindField("attrs.value")->type->id(), TypeId::kInt);
}

TEST(SchemaText, PrintsWhatParsesBackToTheSameSchema) {
  for (std::string text : {
           "id long not null, tags list<string>",
           "attrs map<string, int not null>, m2 map<struct<a: int>, list<string>>",
           "addr struct<street: string, zip: int not null> not null",
           "x list<list<list<decimal(10,2) not null>>>, y struct<a: struct<b: struct<c: timestamptz>>>",
           "`first name` string, s struct<`a:b`: int, `tick``s`: string>",
           "g geography(srid:4326, karney), f fixed[16], u uuid, v map<date, list<struct<t: time not null>>>",
       }) {
    Schema s = MustParse(text);
    std::string printed = SchemaToText(s);
    EXPECT_EQ(printed, text);
    Schema again = MustParse(printed);
    EXPECT_TRUE(again.SameStructure(s)) << printed;
  }
}

TEST(SchemaText, AcceptsTheLooserSpellings) {
  Schema a = MustParse("tags ARRAY<String>, m Map< string , INT >, s STRUCT<zip int NOT NULL, street string REQUIRED>");
  EXPECT_EQ(SchemaToText(a), "tags list<string>, m map<string, int>, s struct<zip: int not null, street: string not null>");
  // The colon after a field name is optional; spaces and newlines anywhere between tokens.
  Schema b = MustParse("addr struct<\n  street:string,\n  zip int not null\n>, price decimal(10, 2)");
  EXPECT_EQ(SchemaToText(b), "addr struct<street: string, zip: int not null>, price decimal(10,2)");
  // "not null" on a map key is allowed (keys are required anyway).
  EXPECT_EQ(SchemaToText(MustParse("m map<string not null, long>")), "m map<string, long>");
}

TEST(SchemaText, TheFlatFormKeepsWorking) {
  Schema s = MustParse("order_id long not null, country string, amount_cents long, ts timestamp, p decimal(9, 2) required");
  ASSERT_EQ(s.fields().size(), 5u);
  EXPECT_EQ(s.fields()[4].id, 5);
  EXPECT_TRUE(s.fields()[4].required);
  EXPECT_EQ(SchemaToText(s), "order_id long not null, country string, amount_cents long, ts timestamp, p decimal(9,2) not null");
}

TEST(SchemaText, BadTextNamesTheColumnAndThePosition) {
  auto has = [](const std::string& message, const std::string& part) {
    EXPECT_NE(message.find(part), std::string::npos) << "'" << message << "' lacks '" << part << "'";
  };
  std::string e = ParseError("id long, tags list<>");
  has(e, "column 'tags'");
  has(e, "list<> needs an element type");
  has(e, "position 20");

  e = ParseError("id long, attrs map<string>");
  has(e, "column 'attrs'");
  has(e, "needs a key and a value type");

  e = ParseError("tags list<string");
  has(e, "column 'tags'");
  has(e, "'list<' is never closed");
  has(e, "position 10");

  e = ParseError("a struct<x int, y list<int>");
  has(e, "column 'a'");
  has(e, "never closed");

  e = ParseError("tags list<string>>, b int");
  has(e, "unexpected '>'");
  has(e, "position 18");

  e = ParseError("addr struct<zip int, street string, ZIP long>");
  has(e, "column 'addr.ZIP'");
  has(e, "appears twice in the struct");
  has(e, "position 37");

  e = ParseError("id long, ID int");
  has(e, "appears twice in the schema");

  has(ParseError("s struct<>"), "struct<> needs at least one field");
  has(ParseError("tags list string"), "list needs its types in <...>");
  e = ParseError("m map<string, list<strin>>");
  has(e, "column 'm.value.element'");
  has(e, "cannot parse type 'strin'");
  has(ParseError("tags list<string> not nul"), "unexpected 'n'");
  has(ParseError("a int,"), "a column definition is empty");
  has(ParseError(""), "a column definition is empty");
  has(ParseError("a"), "has no type");
  has(ParseError("s struct<x>"), "column 's.x': has no type");
  has(ParseError("`a int"), "never closed");
  has(ParseError("d decimal(10,2"), "'(' is never closed");

  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "list<";
  deep += "int";
  for (int i = 0; i < 200; ++i) deep += ">";
  has(ParseError("x " + deep), "nests deeper than");
}

TEST(SchemaText, ParsesOneTypeAndAssignsFreshIdsAfterAGivenOne) {
  auto type = ParseTypeText("struct<a: list<int>, b: map<string, struct<c: long>>>");
  ASSERT_TRUE(type.has_value()) << type.error().message;
  EXPECT_EQ(TypeToText(**type), "struct<a: list<int>, b: map<string, struct<c: long>>>");
  int last = 20;
  TypePtr fresh = AssignFreshIds(*type, &last);
  // a=21, b=22, a.element=23, b.key=24, b.value=25, b.value.c=26
  EXPECT_EQ(last, 26);
  Schema s(0, {NestedField{20, "col", fresh, false, ""}});
  EXPECT_TRUE(s.Validate().has_value());
  EXPECT_EQ(IdOf(s, "col.a"), 21);
  EXPECT_EQ(IdOf(s, "col.b"), 22);
  EXPECT_EQ(IdOf(s, "col.a.element"), 23);
  EXPECT_EQ(IdOf(s, "col.b.key"), 24);
  EXPECT_EQ(IdOf(s, "col.b.value"), 25);
  EXPECT_EQ(IdOf(s, "col.b.value.c"), 26);
  EXPECT_FALSE(ParseTypeText("list<int> x").has_value());
  EXPECT_EQ((*ParseTypeText("long"))->id(), TypeId::kLong);
}

}  // namespace
}  // namespace floe
