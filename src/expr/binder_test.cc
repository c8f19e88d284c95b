#include "expr/binder.h"

#include <gtest/gtest.h>

#include "expr/parser.h"
#include "types/temporal.h"

namespace floe {
namespace {

Schema TestSchema() {
  return Schema(3, {
                       {1, "country", Type::String(), false, ""},
                       {2, "order_id", Type::Long(), true, ""},
                       {3, "ts", Type::Timestamp(), false, ""},
                       {4, "d", Type::Date(), false, ""},
                       {5, "amount", Type::Decimal(9, 2), false, ""},
                       {6, "score", Type::Float(), false, ""},
                       {7, "small", Type::Int(), false, ""},
                       {8, "location", Type::Struct({{9, "lat", Type::Double(), false, ""}}), false, ""},
                       {10, "tags", Type::List({11, "element", Type::String(), false, ""}), false, ""},
                       {12, "tstz", Type::TimestampTz(), false, ""},
                   });
}

Result<Expr> BindText(const std::string& text, bool case_sensitive = true) {
  FLOE_ASSIGN_OR_RETURN(Expr e, ParseFilter(text));
  return Bind(e, TestSchema(), case_sensitive);
}

std::string ErrorOf(const std::string& text, bool case_sensitive = true) {
  auto b = BindText(text, case_sensitive);
  return b ? "bound: " + ToString(*b) : b.error().message;
}

TEST(BinderTest, ResolvesNamesToFieldIds) {
  auto b = BindText("country = 'DE' AND order_id % 2 = 0");
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE((*b)->is_bound());
  EXPECT_EQ(ReferencedFieldIds(*b), (std::vector<int>{1, 2}));
  const Expr& eq = (*b)->left();
  EXPECT_EQ(eq->term()->field_id, 1);
  EXPECT_EQ(eq->term()->type->id(), TypeId::kString);
  const Expr& mod = (*b)->right();
  EXPECT_EQ(mod->term()->kind, Term::Kind::kArithmetic);
  EXPECT_EQ(mod->term()->type->id(), TypeId::kLong);
  EXPECT_EQ(mod->literal().type()->id(), TypeId::kLong);
}

TEST(BinderTest, CaseSensitivity) {
  EXPECT_EQ(ErrorOf("COUNTRY = 'DE'"), "column 'COUNTRY' not found");
  auto b = BindText("COUNTRY = 'DE' AND Location.LAT > 1", false);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(ToString(*b), "(ref(name=\"country\") == \"DE\" and ref(name=\"location.lat\") > 1)");
}

TEST(BinderTest, ConvertsLiteralsToTheColumnType) {
  auto ts = BindText("ts >= '2026-01-01'");
  ASSERT_TRUE(ts);
  EXPECT_EQ((*ts)->literal().type()->id(), TypeId::kTimestamp);
  EXPECT_EQ((*ts)->literal().AsLong(), int64_t{DaysFromCivil(2026, 1, 1)} * 86400 * 1000000);
  auto tstz = BindText("tstz < '2026-01-01T01:00:00+01:00'");
  ASSERT_TRUE(tstz);
  EXPECT_EQ((*tstz)->literal().AsLong(), int64_t{DaysFromCivil(2026, 1, 1)} * 86400 * 1000000);
  auto d = BindText("d = '2026-01-01'");
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)->literal().AsInt(), DaysFromCivil(2026, 1, 1));
  auto amount = BindText("amount > 12.5");
  ASSERT_TRUE(amount);
  EXPECT_EQ((*amount)->literal().type()->ToString(), "decimal(9,2)");
  EXPECT_TRUE((*amount)->literal().AsDecimal() == 1250);
  auto whole = BindText("amount IN (3, 4.25)");
  ASSERT_TRUE(whole);
  EXPECT_TRUE((*whole)->literals()[0].AsDecimal() == 300);
  auto score = BindText("score < 1");
  ASSERT_TRUE(score);
  EXPECT_EQ((*score)->literal().type()->id(), TypeId::kFloat);
  auto id = BindText("order_id = '42'");
  ASSERT_TRUE(id);
  EXPECT_EQ((*id)->literal().AsLong(), 42);
  // A whole number beyond an int column's range stays a long: it matches no int.
  auto big = BindText("small < 10000000000");
  ASSERT_TRUE(big);
  EXPECT_EQ((*big)->literal().type()->id(), TypeId::kLong);
  auto as_double = BindText("score * 2 > 1.25");
  ASSERT_TRUE(as_double);
  EXPECT_EQ((*as_double)->term()->type->id(), TypeId::kDouble);
  EXPECT_EQ((*as_double)->literal().AsDouble(), 1.25);
}

TEST(BinderTest, ClearErrors) {
  EXPECT_EQ(ErrorOf("x = 1"), "column 'x' not found");
  EXPECT_EQ(ErrorOf("country = 12"), "cannot compare string column 'country' with 12");
  EXPECT_EQ(ErrorOf("d = 'soon'"), "cannot compare date column 'd' with 'soon'");
  EXPECT_EQ(ErrorOf("order_id > 1.5"), "cannot compare long column 'order_id' with 1.5");
  EXPECT_EQ(ErrorOf("amount = 1.555"), "cannot compare decimal(9,2) column 'amount' with 1.555");
  EXPECT_EQ(ErrorOf("order_id IS NAN"), "is_nan needs a float or double column, not long column 'order_id'");
  EXPECT_EQ(ErrorOf("order_id LIKE 'a%'"), "starts with needs a string column, not long column 'order_id'");
  EXPECT_EQ(ErrorOf("country + 1 > 2"), "arithmetic needs int, long, float or double values, not string column 'country'");
  EXPECT_EQ(ErrorOf("order_id % 2 = 'x'"), "cannot compare long expression (order_id % 2) with 'x'");
  EXPECT_EQ(ErrorOf("location = 1"), "cannot compare struct<lat: double> column 'location' with a value");
  EXPECT_EQ(ErrorOf("tags.element = 'a'"), "cannot filter on column 'tags.element': it is inside a list or map");
  EXPECT_EQ(ErrorOf("score = 'NaN'"), "cannot compare float column 'score' with NaN; use IS NAN or IS NOT NAN");
}

TEST(BinderTest, ConstructedExpressions) {
  auto b = Bind(And(In("order_id", {}), IsNull("country")), TestSchema());
  ASSERT_TRUE(b);
  EXPECT_EQ(ToString(*b), "false");  // IN () matches nothing
  auto n = Bind(Not(NotIn("order_id", {})), TestSchema());
  ASSERT_TRUE(n);
  EXPECT_EQ(ToString(*n), "false");
  auto eq = Bind(Equal("small", Literal::Long(3)), TestSchema());
  ASSERT_TRUE(eq);
  EXPECT_EQ(eq.value()->literal().type()->id(), TypeId::kInt);
  auto null_literal = Bind(Equal("small", Literal::Null(Type::Int())), TestSchema());
  ASSERT_FALSE(null_literal);
  EXPECT_EQ(null_literal.error().message, "cannot compare int column 'small' with NULL; use IS NULL or IS NOT NULL");
  auto rebound = Bind(*eq, TestSchema());  // binding twice is harmless
  ASSERT_TRUE(rebound);
  EXPECT_EQ(ToString(*rebound), ToString(*eq));
}

}  // namespace
}  // namespace floe
