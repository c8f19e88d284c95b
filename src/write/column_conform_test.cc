#include "write/column_conform.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

NestedField F(int id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, ""};
}

// list<int> [1, 2], null, [] into list<long>: offsets, nulls and values kept.
TEST(ColumnConform, ListOfIntBecomesListOfLong) {
  Column src(Type::List(F(2, "element", Type::Int())));
  src.children.assign(1, Column(Type::Int()));
  src.children[0].ints = {1, 2};
  src.children[0].length = 2;
  src.offsets = {0, 2, 2, 2};
  src.nulls = {0, 1, 0};
  src.length = 3;
  auto out = ConformColumn(src, Type::List(F(2, "element", Type::Long())), "l");
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->offsets, src.offsets);
  EXPECT_EQ(out->nulls, src.nulls);
  ASSERT_EQ(out->children.size(), 1u);
  EXPECT_EQ(out->children[0].type->id(), TypeId::kLong);
  EXPECT_EQ(out->children[0].longs, (std::vector<int64_t>{1, 2}));
}

// A struct written before a field was added: the field reads null; the old one keeps its values.
TEST(ColumnConform, StructGainsANullFieldAndKeepsItsOwn) {
  Column src(Type::Struct({F(2, "a", Type::Int())}));
  src.children[0].ints = {7, 8};
  src.children[0].length = 2;
  src.length = 2;
  auto target = Type::Struct({F(2, "a", Type::Long()), F(3, "tags", Type::List(F(4, "element", Type::String())))});
  auto out = ConformColumn(src, target, "s");
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->children.size(), 2u);
  EXPECT_EQ(out->children[0].longs, (std::vector<int64_t>{7, 8}));
  const Column& tags = out->children[1];
  EXPECT_EQ(tags.length, 2u);
  EXPECT_TRUE(tags.IsNull(0));
  EXPECT_TRUE(tags.IsNull(1));
  EXPECT_EQ(tags.offsets, (std::vector<uint32_t>{0, 0, 0}));
}

TEST(ColumnConform, MissingRequiredNestedFieldIsRefusedNamingIt) {
  Column src(Type::Struct({F(2, "a", Type::Int())}));
  src.children[0].ints = {7};
  src.children[0].length = 1;
  src.length = 1;
  auto out = ConformColumn(src, Type::Struct({F(2, "a", Type::Int()), F(3, "b", Type::Int(), true)}), "s");
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("s.b"), std::string::npos) << out.error().message;
}

TEST(ColumnConform, ListWhereTheTableHasAStructIsRefused) {
  Column src(Type::List(F(2, "element", Type::Int())));
  src.children.assign(1, Column(Type::Int()));
  src.offsets = {0};
  auto out = ConformColumn(src, Type::Struct({F(2, "a", Type::Int())}), "x");
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("'x'"), std::string::npos);
}

}  // namespace
}  // namespace floe
