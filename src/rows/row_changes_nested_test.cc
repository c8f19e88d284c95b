// SET on a table with struct, list and map columns: rows are copied column by column, so the
// nested values of the rows and columns a SET does not touch come out exactly as they went in;
// a nested column takes its new value as JSON text, and refuses any other value by name.
#include <gtest/gtest.h>

#include "expr/expression.h"
#include "rows/row_changes.h"
#include "types/nested_json.h"

namespace floe {
namespace {

// id long, addr struct<street string, zip int>, tags list<string>, attrs map<string, long>
Schema NestedSchema() {
  TypePtr addr = Type::Struct({NestedField{5, "street", Type::String(), false, ""},
                               NestedField{6, "zip", Type::Int(), false, ""}});
  TypePtr tags = Type::List(NestedField{7, "element", Type::String(), false, ""});
  TypePtr attrs = Type::Map(NestedField{8, "key", Type::String(), true, ""}, NestedField{9, "value", Type::Long(), false, ""});
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "addr", addr, false, ""},
                    NestedField{3, "tags", tags, false, ""}, NestedField{4, "attrs", attrs, false, ""}});
}

ColumnBatch Rows(const Schema& schema) {
  ColumnBatch batch(schema);
  const char* rows[] = {
      R"({"id": 1, "addr": {"street": "Main", "zip": 1}, "tags": ["a", "b"], "attrs": {"x": 1}})",
      R"({"id": 2, "addr": null, "tags": [], "attrs": null})",
      R"({"id": 3, "addr": {"street": null, "zip": 3}, "tags": null, "attrs": {"y": 2, "z": null}})",
  };
  for (const char* row : rows) {
    auto json = nlohmann::json::parse(row);
    for (size_t c = 0; c < schema.fields().size(); ++c) {
      const NestedField& f = schema.fields()[c];
      auto st = AppendJsonValue(json[f.name], &batch.columns[c], f.name);
      EXPECT_TRUE(st) << st.error().message;
    }
    ++batch.num_rows;
  }
  return batch;
}

std::string Text(const ColumnBatch& batch) {
  std::string out;
  for (size_t r = 0; r < batch.num_rows; ++r) {
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      if (c) out += " | ";
      AppendCellJson(batch.columns[c], r, &out);
    }
    out += "\n";
  }
  return out;
}

Result<ColumnBatch> Set(const Schema& schema, const ColumnBatch& rows, std::vector<Assignment> assignments,
                        bool only_selected) {
  FLOE_ASSIGN_OR_RETURN(auto sets, BindAssignments(schema, assignments));
  return ApplyAssignments(schema, rows, {0, 1, 0}, sets, only_selected);
}

TEST(RowChangesNested, UntouchedNestedValuesSurviveExactly) {
  const Schema schema = NestedSchema();
  const ColumnBatch rows = Rows(schema);
  const std::string before = Text(rows);
  auto out = Set(schema, rows, {Assignment{"id", LiteralTerm(Literal::Long(20))}}, /*only_selected=*/false);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(Text(*out),
            "1 | {\"street\":\"Main\",\"zip\":1} | [\"a\",\"b\"] | {\"x\":1}\n"
            "20 | null | [] | null\n"
            "3 | {\"street\":null,\"zip\":3} | null | {\"y\":2,\"z\":null}\n");
  // Merge-on-read writes only the selected rows.
  out = Set(schema, rows, {Assignment{"id", LiteralTerm(Literal::Long(20))}}, /*only_selected=*/true);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(Text(*out), "20 | null | [] | null\n");
  EXPECT_EQ(Text(rows), before);
}

TEST(RowChangesNested, ANestedColumnTakesItsValueAsJsonText) {
  const Schema schema = NestedSchema();
  const ColumnBatch rows = Rows(schema);
  auto out = Set(schema, rows,
                 {Assignment{"tags", LiteralTerm(Literal::String(R"(["new", null])"))},
                  Assignment{"addr", LiteralTerm(Literal::String(R"({"zip": 9, "street": "Side"})"))},
                  Assignment{"attrs", LiteralTerm(Literal())}},
                 /*only_selected=*/false);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(Text(*out),
            "1 | {\"street\":\"Main\",\"zip\":1} | [\"a\",\"b\"] | {\"x\":1}\n"
            "2 | {\"street\":\"Side\",\"zip\":9} | [\"new\",null] | null\n"
            "3 | {\"street\":null,\"zip\":3} | null | {\"y\":2,\"z\":null}\n");
}

TEST(RowChangesNested, AValueThatDoesNotFitANestedColumnIsRefusedByName) {
  const Schema schema = NestedSchema();
  const ColumnBatch rows = Rows(schema);
  auto out = Set(schema, rows, {Assignment{"tags", LiteralTerm(Literal::Long(5))}}, false);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("SET tags: column 'tags' is a list<string>; give its value as JSON text"),
            std::string::npos)
      << out.error().message;
  out = Set(schema, rows, {Assignment{"tags", LiteralTerm(Literal::String("a,b"))}}, false);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("'a,b' is not JSON text"), std::string::npos) << out.error().message;
  out = Set(schema, rows, {Assignment{"addr", LiteralTerm(Literal::String(R"({"zip": "x"})"))}}, false);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("addr.zip"), std::string::npos) << out.error().message;
}

}  // namespace
}  // namespace floe
