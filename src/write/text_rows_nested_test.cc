// Text input of struct, list and map columns: JSON lines take the values' JSON, a CSV cell their
// JSON text; a value that does not fit is an error naming the line, the column and the place
// inside the value. `--like` of JSON lines infers structs and lists with Iceberg's fresh ids.
#include <sstream>

#include <gtest/gtest.h>

#include "types/nested_json.h"
#include "write/text_rows.h"

namespace floe {
namespace {

// id long, addr struct<street string, zip int not null>, tags list<string>, attrs map<string, int>
Schema NestedSchema() {
  TypePtr addr = Type::Struct({NestedField{5, "street", Type::String(), false, ""},
                               NestedField{6, "zip", Type::Int(), true, ""}});
  TypePtr tags = Type::List(NestedField{7, "element", Type::String(), false, ""});
  TypePtr attrs = Type::Map(NestedField{8, "key", Type::String(), true, ""}, NestedField{9, "value", Type::Int(), false, ""});
  return Schema(0, {NestedField{1, "id", Type::Long(), false, ""}, NestedField{2, "addr", addr, false, ""},
                    NestedField{3, "tags", tags, false, ""}, NestedField{4, "attrs", attrs, false, ""}});
}

// Fields as "id name type", nested types with their fields' ids.
std::string Describe(const std::vector<NestedField>& fields) {
  std::string out;
  for (const auto& f : fields) {
    out += (out.empty() ? "" : ", ") + std::to_string(f.id) + " " + f.name + " ";
    switch (f.type->id()) {
      case TypeId::kStruct: out += "struct<" + Describe(f.type->fields()) + ">"; break;
      case TypeId::kList: out += "list<" + Describe(f.type->fields()) + ">"; break;
      case TypeId::kMap: out += "map<" + Describe(f.type->fields()) + ">"; break;
      default: out += f.type->ToString();
    }
  }
  return out;
}

// Every row read from `text`, each as its cells' JSON joined by " | "; or "error: <message>".
std::string ReadAll(const std::string& text, TextFormat format) {
  std::istringstream in(text);
  auto reader = TextRowReader::Open(in, format, NestedSchema(), "in");
  if (!reader) return "error: " + reader.error().message;
  std::string out;
  ColumnBatch batch;
  while (true) {
    auto more = (*reader)->Next(100, &batch);
    if (!more) return out + "error: " + more.error().message;
    if (!*more) return out;
    for (size_t r = 0; r < batch.num_rows; ++r) {
      for (size_t c = 0; c < batch.columns.size(); ++c) {
        if (c) out += " | ";
        AppendCellJson(batch.columns[c], r, &out);
      }
      out += "\n";
    }
  }
}

TEST(TextRowsNested, JsonLinesFillStructListAndMapColumns) {
  EXPECT_EQ(ReadAll("{\"id\": 1, \"addr\": {\"zip\": 10115, \"street\": \"Main\"}, \"tags\": [\"a\", null, \"b\"], "
                    "\"attrs\": {\"x\": 1, \"y\": null}}\n"
                    "{\"id\": 2, \"addr\": null, \"tags\": [], \"attrs\": [{\"key\": \"k\", \"value\": 7}]}\n"
                    "{\"id\": 3}\n",
                    TextFormat::kJsonLines),
            "1 | {\"street\":\"Main\",\"zip\":10115} | [\"a\",null,\"b\"] | {\"x\":1,\"y\":null}\n"
            "2 | null | [] | {\"k\":7}\n"
            "3 | null | null | null\n");
}

TEST(TextRowsNested, JsonLinesErrorsNameTheLineTheColumnAndThePlace) {
  auto error = [](const std::string& text) { return ReadAll("{\"id\": 1}\n" + text + "\n", TextFormat::kJsonLines); };
  std::string e = error("{\"tags\": [\"a\", \"b\", [5]]}");
  EXPECT_NE(e.find("in line 2, column 'tags'"), std::string::npos) << e;
  EXPECT_NE(e.find("tags[2]"), std::string::npos) << e;
  e = error("{\"addr\": {\"street\": \"x\"}}");  // zip is required inside addr
  EXPECT_NE(e.find("in line 2, column 'addr'"), std::string::npos) << e;
  EXPECT_NE(e.find("addr.zip"), std::string::npos) << e;
  e = error("{\"addr\": {\"zip\": 1, \"city\": \"B\"}}");
  EXPECT_NE(e.find("city"), std::string::npos) << e;
  e = error("{\"attrs\": {\"k\": \"not a number\"}}");
  EXPECT_NE(e.find("in line 2, column 'attrs'"), std::string::npos) << e;
  EXPECT_NE(e.find("attrs['k']"), std::string::npos) << e;
  e = error("{\"tags\": \"a,b\"}");
  EXPECT_NE(e.find("in line 2, column 'tags'"), std::string::npos) << e;
  EXPECT_NE(e.find("array"), std::string::npos) << e;
}

TEST(TextRowsNested, CsvCellsHoldTheValuesJsonText) {
  EXPECT_EQ(ReadAll("id,addr,tags,attrs\n"
                    "1,\"{\"\"street\"\":\"\"Main\"\",\"\"zip\"\":1}\",\"[\"\"a\"\"]\",\"{\"\"x\"\":2}\"\n"
                    "2,,,\n",
                    TextFormat::kCsv),
            "1 | {\"street\":\"Main\",\"zip\":1} | [\"a\"] | {\"x\":2}\n2 | null | null | null\n");
  std::string e = ReadAll("id,tags\n1,[a b]\n", TextFormat::kCsv);
  EXPECT_NE(e.find("in line 2, column 'tags'"), std::string::npos) << e;
  EXPECT_NE(e.find("not JSON text"), std::string::npos) << e;
}

TEST(TextRowsNested, LikeInfersStructsAndListsWithIcebergsIds) {
  std::istringstream in(
      "{\"id\": 1, \"addr\": {\"street\": \"Main\", \"geo\": {\"lat\": 1.5}}, \"tags\": [\"a\"]}\n"
      "{\"id\": 2, \"addr\": {\"zip\": 10115}, \"tags\": [], \"points\": [{\"x\": 1}, {\"x\": 2, \"y\": \"b\"}]}\n");
  auto schema = InferSchema(in, TextFormat::kJsonLines, "s.jsonl");
  ASSERT_TRUE(schema) << schema.error().message;
  // Top-level 1..4, then addr's fields (5..7), geo's (8), tags' element (9), points' element (10)
  // and its fields (11, 12): a struct's own fields before what they hold.
  EXPECT_EQ(Describe(schema->fields()),
            "1 id long, 2 addr struct<5 street string, 6 geo struct<8 lat double>, 7 zip long>, "
            "3 tags list<9 element string>, 4 points list<10 element struct<11 x long, 12 y string>>");
  EXPECT_TRUE(schema->Validate());
}

TEST(TextRowsNested, LikeRefusesAColumnHoldingTwoKindsNamingItAndTheLine) {
  std::istringstream in("{\"a\": {\"b\": [1]}}\n{\"a\": {\"b\": 5}}\n");
  auto schema = InferSchema(in, TextFormat::kJsonLines, "s.jsonl");
  ASSERT_FALSE(schema);
  EXPECT_NE(schema.error().message.find("s.jsonl line 2: 'a.b' holds a scalar here and an array"), std::string::npos)
      << schema.error().message;
}

}  // namespace
}  // namespace floe
