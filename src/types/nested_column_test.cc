// Nested columns (struct, list, map at any depth) through Append, Get, Take, Filter and Append
// of batches: every shape with nulls at each level and empty lists and maps.
#include "types/column_batch.h"

#include <gtest/gtest.h>

#include "types/nested_json.h"
#include "types/schema_text.h"

namespace floe {
namespace {

// The rows below, as JSON lines of the human form; each row's text is what AppendCellJson
// prints for it.
const char* kSchema =
    "id long not null, "
    "points list<struct<x: long, tags: list<int>>>, "
    "attrs map<string, list<string>>, "
    "box struct<corners: list<long not null>, meta: map<int, string>>, "
    "grid list<list<int>>";

const std::vector<std::string> kRows = {
    R"({"id":0,"points":[{"x":1,"tags":[1,2]},{"x":null,"tags":[]},null,{"x":3,"tags":null}],"attrs":{"a":["x","y"],"b":[],"c":null},"box":{"corners":[1,2,3],"meta":[{"key":1,"value":"one"},{"key":2,"value":null}]},"grid":[[1],[],null,[null,4]]})",
    R"({"id":1,"points":null,"attrs":null,"box":null,"grid":null})",
    R"({"id":2,"points":[],"attrs":{},"box":{"corners":[],"meta":[]},"grid":[]})",
    R"({"id":3,"points":[null],"attrs":{"":[null]},"box":{"corners":null,"meta":null},"grid":[null]})",
    R"({"id":4,"points":[{"x":-9,"tags":[null,null,7]}],"attrs":{"k\"q":["é"]},"box":{"corners":[9],"meta":null},"grid":[[],[]]})",
};

ColumnBatch Build(const std::vector<std::string>& rows) {
  auto schema = ParseSchemaText(kSchema);
  EXPECT_TRUE(schema.has_value()) << schema.error().message;
  ColumnBatch batch(*schema);
  for (const auto& line : rows) {
    auto obj = nlohmann::json::parse(line);
    for (size_t i = 0; i < batch.fields.size(); ++i) {
      auto st = AppendJsonValue(obj.at(batch.fields[i].name), &batch.columns[i], batch.fields[i].name);
      EXPECT_TRUE(st.has_value()) << line << ": " << st.error().message;
    }
    ++batch.num_rows;
  }
  return batch;
}

std::string RowText(const ColumnBatch& b, size_t row) {
  std::string out = "{";
  for (size_t i = 0; i < b.columns.size(); ++i) {
    if (i) out += ",";
    out += "\"" + b.fields[i].name + "\":";
    AppendCellJson(b.columns[i], row, &out);
  }
  return out + "}";
}

// Every column's children hold exactly the rows the offsets and struct lengths say.
void ExpectConsistent(const Column& c) {
  if (!c.nulls.empty()) EXPECT_EQ(c.nulls.size(), c.length);
  switch (c.type->id()) {
    case TypeId::kStruct:
      for (const auto& child : c.children) {
        EXPECT_EQ(child.length, c.length);
        ExpectConsistent(child);
      }
      break;
    case TypeId::kList:
    case TypeId::kMap:
      ASSERT_EQ(c.offsets.size(), c.length + 1);
      for (size_t r = 0; r < c.length; ++r) {
        EXPECT_LE(c.offsets[r], c.offsets[r + 1]);
        if (c.IsNull(r)) EXPECT_EQ(c.offsets[r], c.offsets[r + 1]) << "a null row has an empty range";
      }
      for (const auto& child : c.children) {
        EXPECT_EQ(child.length, c.offsets.back());
        ExpectConsistent(child);
      }
      if (c.type->id() == TypeId::kMap) EXPECT_EQ(c.children[0].null_count(), 0u);
      break;
    default: break;
  }
}

TEST(NestedColumn, PrintsEveryRowAsItWasGiven) {
  ColumnBatch b = Build(kRows);
  ASSERT_EQ(b.num_rows, kRows.size());
  for (size_t r = 0; r < b.num_rows; ++r) EXPECT_EQ(RowText(b, r), kRows[r]);
  for (const auto& c : b.columns) ExpectConsistent(c);
  EXPECT_EQ(b.columns[1].null_count(), 1u);
  EXPECT_EQ(b.columns[1].children[0].length, 6u);  // 4 + 0 + 0 + 1 + 1 points
  EXPECT_EQ(b.columns[4].children[0].children[0].length, 3u);  // [1], [], null, [null, 4]
}

TEST(NestedColumn, GetAndAppendOfLiteralsRoundTrip) {
  ColumnBatch b = Build(kRows);
  ColumnBatch copy(b.fields);
  for (size_t r = 0; r < b.num_rows; ++r) {
    std::vector<Literal> row = b.Row(r);
    ASSERT_TRUE(copy.AppendRow(row).has_value());
    EXPECT_EQ(copy.Row(r), row);
  }
  for (size_t r = 0; r < b.num_rows; ++r) EXPECT_EQ(RowText(copy, r), kRows[r]);
  for (const auto& c : copy.columns) ExpectConsistent(c);
  // A literal of the points column: a list of struct literals.
  Literal points = b.columns[1].Get(0);
  ASSERT_EQ(points.AsItems().size(), 4u);
  EXPECT_TRUE(points.AsItems()[2].is_null());
  EXPECT_EQ(points.AsItems()[0].AsItems()[0], Literal::Long(1));
  EXPECT_EQ(points.ToString(), R"([{"x":1,"tags":[1,2]},{"x":null,"tags":[]},null,{"x":3,"tags":null}])");
}

TEST(NestedColumn, TakeAndFilterCarryEveryLevelAndItsNulls) {
  ColumnBatch b = Build(kRows);
  std::vector<uint32_t> order = {4, 0, 0, 3, 1, 2, 4};
  ColumnBatch taken = b.Take(order);
  ASSERT_EQ(taken.num_rows, order.size());
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(RowText(taken, i), kRows[order[i]]);
  for (const auto& c : taken.columns) ExpectConsistent(c);

  ColumnBatch kept = b.Filter({0, 1, 0, 1, 1});
  ASSERT_EQ(kept.num_rows, 3u);
  EXPECT_EQ(RowText(kept, 0), kRows[1]);
  EXPECT_EQ(RowText(kept, 1), kRows[3]);
  EXPECT_EQ(RowText(kept, 2), kRows[4]);
  for (const auto& c : kept.columns) ExpectConsistent(c);

  // Only rows without nulls at the top: the taken columns carry no null flags there.
  ColumnBatch no_nulls = b.Take({2, 4});
  EXPECT_TRUE(no_nulls.columns[1].nulls.empty());
  EXPECT_EQ(RowText(no_nulls, 1), kRows[4]);

  ColumnBatch empty = b.Take({});
  EXPECT_EQ(empty.num_rows, 0u);
  for (const auto& c : empty.columns) ExpectConsistent(c);
}

TEST(NestedColumn, AppendingBatchesKeepsOffsetsRunning) {
  ColumnBatch a = Build({kRows[0], kRows[1]});
  ColumnBatch b = Build({kRows[2], kRows[3], kRows[4]});
  a.Append(b);
  a.Append(Build({kRows[0]}));
  ASSERT_EQ(a.num_rows, 6u);
  for (size_t r = 0; r < 5; ++r) EXPECT_EQ(RowText(a, r), kRows[r]);
  EXPECT_EQ(RowText(a, 5), kRows[0]);
  for (const auto& c : a.columns) ExpectConsistent(c);
}

TEST(NestedColumn, ABadValueDeepInsideLeavesTheColumnAsItWas) {
  ColumnBatch b = Build(kRows);
  const std::string before = RowText(b, 4);
  Column& box = b.columns[3];
  const size_t corners = box.children[0].children[0].length;
  // corners' elements are required: a null in the middle fails after two were appended.
  TypePtr box_type = box.type;
  const auto& corner_list = box_type->fields()[0].type;
  Literal bad = Literal::Nested(
      box_type, {Literal::Nested(corner_list, {Literal::Long(1), Literal::Long(2), Literal::Null(Type::Long())}),
                 Literal::Null(box_type->fields()[1].type)});
  auto st = box.Append(bad);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message.find("field 'corners': element 2"), std::string::npos) << st.error().message;
  EXPECT_EQ(box.length, kRows.size());
  EXPECT_EQ(box.children[0].children[0].length, corners);
  ExpectConsistent(box);
  EXPECT_EQ(RowText(b, 4), before);

  // A map key may never be null; a struct literal needs one item per field.
  Column attrs(b.columns[2].type);
  auto list_of_string = attrs.type->fields()[1].type;
  EXPECT_FALSE(attrs.Append(Literal::Nested(attrs.type, {Literal::Null(Type::String()), Literal::Null(list_of_string)})));
  EXPECT_FALSE(box.Append(Literal::Nested(box_type, {Literal::Null(corner_list)})));
  EXPECT_FALSE(box.Append(Literal::Long(3)));
  EXPECT_EQ(attrs.length, 0u);
  EXPECT_EQ(box.length, kRows.size());
  ExpectConsistent(attrs);
}

TEST(NestedColumn, ReserveNullsAndTruncate) {
  auto schema = ParseSchemaText("m map<string, int>");
  Column m((*schema).fields()[0].type);
  m.Reserve(100);
  m.AppendNull();
  ASSERT_TRUE(AppendJsonValue(nlohmann::json::parse(R"({"a":1,"b":null})"), &m));
  m.AppendNull();
  EXPECT_EQ(m.null_count(), 2u);
  EXPECT_EQ(m.offsets, (std::vector<uint32_t>{0, 0, 2, 2}));
  m.Truncate(1);
  EXPECT_EQ(m.length, 1u);
  EXPECT_EQ(m.children[0].length, 0u);
  EXPECT_EQ(m.children[1].length, 0u);
  ExpectConsistent(m);
}

}  // namespace
}  // namespace floe
