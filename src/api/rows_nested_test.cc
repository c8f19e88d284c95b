// The library's Rows (floe/rows.h) with struct, list and map columns: a nested cell is a string
// holding the value's JSON, read back the same way, and a cell that is not JSON of the column's
// type is refused naming the row and the column.
#include <gtest/gtest.h>

#include "api/api_internal.h"

namespace floe {
namespace {

Schema NestedSchema() {
  TypePtr addr = Type::Struct({NestedField{4, "street", Type::String(), false, ""},
                               NestedField{5, "zip", Type::Int(), false, ""}});
  TypePtr tags = Type::List(NestedField{6, "element", Type::String(), false, ""});
  return Schema(0, {NestedField{1, "id", Type::Long(), false, ""}, NestedField{2, "addr", addr, false, ""},
                    NestedField{3, "tags", tags, false, ""}});
}

TEST(RowsNested, NestedCellsAreJsonTextBothWays) {
  Rows rows;
  rows.columns = {"id", "addr", "tags"};
  rows.rows.push_back({int64_t{1}, std::string(R"({"zip": 5, "street": "Main"})"), std::string(R"(["a", null])")});
  rows.rows.push_back({int64_t{2}, std::monostate{}, std::string("[]")});
  auto batch = RowsToBatch(rows, NestedSchema());
  ASSERT_TRUE(batch) << batch.error().message;
  Rows back = BatchToRows(*batch);
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(back.rows[0][1]), R"({"street":"Main","zip":5})");
  EXPECT_EQ(std::get<std::string>(back.rows[0][2]), R"(["a",null])");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(back.rows[1][1]));
  EXPECT_EQ(std::get<std::string>(back.rows[1][2]), "[]");
}

TEST(RowsNested, ACellThatDoesNotFitIsRefusedNamingRowAndColumn) {
  Rows rows;
  rows.columns = {"id", "tags"};
  rows.rows.push_back({int64_t{1}, std::string("a,b")});
  auto batch = RowsToBatch(rows, NestedSchema());
  ASSERT_FALSE(batch);
  EXPECT_NE(batch.error().message.find("column 'tags'"), std::string::npos) << batch.error().message;
  EXPECT_NE(batch.error().message.find("not JSON text"), std::string::npos) << batch.error().message;
  rows.rows[0][1] = std::string(R"(["a", {"b": 1}])");
  batch = RowsToBatch(rows, NestedSchema());
  ASSERT_FALSE(batch);
  EXPECT_NE(batch.error().message.find("tags[1]"), std::string::npos) << batch.error().message;
}

}  // namespace
}  // namespace floe
