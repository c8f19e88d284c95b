// Decimal arithmetic: SQL's result types, exact values with half-away-from-zero rounding, and
// overflow refused; bound from text and evaluated in filters and SET values.
#include "expr/decimal_arithmetic.h"

#include <gtest/gtest.h>

#include "expr/binder.h"
#include "expr/parser.h"
#include "expr/row_evaluator.h"
#include "expr/value_ops.h"
#include "types/schema_text.h"

namespace floe {
namespace {

Literal Dec(__int128 unscaled, int p, int s) { return Literal::Decimal(unscaled, p, s); }

TEST(DecimalArithmetic, ResultTypesFollowTheSqlRules) {
  auto d = [](int p, int s) { return Type::Decimal(p, s); };
  auto type = [&](ArithOp op, TypePtr a, TypePtr b) { return (*DecimalResultType(op, a, b))->ToString(); };
  EXPECT_EQ(type(ArithOp::kAdd, d(9, 2), d(5, 3)), "decimal(11,3)");
  EXPECT_EQ(type(ArithOp::kSub, d(9, 2), Type::Int()), "decimal(13,2)");
  EXPECT_EQ(type(ArithOp::kMul, d(9, 2), d(1, 0)), "decimal(11,2)");
  EXPECT_EQ(type(ArithOp::kDiv, d(9, 2), d(3, 1)), "decimal(14,6)");
  EXPECT_EQ(type(ArithOp::kMod, d(9, 2), d(5, 3)), "decimal(5,3)");
  EXPECT_EQ(type(ArithOp::kMul, d(38, 10), d(38, 10)), "decimal(38,6)");  // scale given up, at least 6
  EXPECT_FALSE(DecimalResultType(ArithOp::kAdd, d(9, 2), Type::Double()).has_value());
}

TEST(DecimalArithmetic, ExactValuesRoundedHalfAwayFromZero) {
  auto value = [](ArithOp op, Literal a, Literal b) {
    auto type = DecimalResultType(op, a.type(), b.type());
    EXPECT_TRUE(type.has_value());
    auto v = DecimalArithmetic(op, a, b, *type);
    EXPECT_TRUE(v.has_value()) << (v ? "" : v.error().message);
    return v ? v->ToString() : std::string("error");
  };
  EXPECT_EQ(value(ArithOp::kMul, Dec(1999, 9, 2), Dec(2, 1, 0)), "39.98");
  EXPECT_EQ(value(ArithOp::kAdd, Dec(1999, 9, 2), Dec(5, 5, 3)), "19.995");
  EXPECT_EQ(value(ArithOp::kSub, Dec(-1999, 9, 2), Literal::Long(1)), "-20.99");
  EXPECT_EQ(value(ArithOp::kDiv, Dec(1000, 9, 2), Dec(3, 1, 0)), "3.333333");
  EXPECT_EQ(value(ArithOp::kDiv, Dec(-2000, 9, 2), Dec(3, 1, 0)), "-6.666667");
  EXPECT_EQ(value(ArithOp::kMod, Dec(1050, 9, 2), Dec(3, 1, 0)), "1.50");
  EXPECT_EQ(value(ArithOp::kDiv, Dec(1000, 9, 2), Dec(0, 1, 0)), "null");  // by zero: null
  // Fitting into a column: rounded to its scale; too many digits refused with the value.
  EXPECT_EQ(FitDecimal(Dec(19995, 9, 3), Type::Decimal(9, 2))->ToString(), "20.00");
  EXPECT_EQ(FitDecimal(Dec(-19995, 9, 3), Type::Decimal(9, 2))->ToString(), "-20.00");
  auto too_big = FitDecimal(Dec(12345678, 11, 2), Type::Decimal(7, 2));
  ASSERT_FALSE(too_big.has_value());
  EXPECT_NE(too_big.error().message.find("123456.78 does not fit decimal(7,2)"), std::string::npos)
      << too_big.error().message;
  // Past 38 digits: refused, never wrapped.
  __int128 big = 1;
  for (int i = 0; i < 37; ++i) big *= 10;
  auto type = DecimalResultType(ArithOp::kMul, Type::Decimal(38, 0), Type::Decimal(38, 0));
  auto overflow = DecimalArithmetic(ArithOp::kMul, Dec(big, 38, 0), Dec(big, 38, 0), *type);
  ASSERT_FALSE(overflow.has_value());
  EXPECT_NE(overflow.error().message.find("decimal overflow"), std::string::npos) << overflow.error().message;
}

TEST(DecimalArithmetic, BindsAndFiltersOnADecimalColumnExactly) {
  auto schema = ParseSchemaText("id long, amt decimal(9, 2), ratio double");
  ASSERT_TRUE(schema.has_value());
  auto filter = ParseFilter("amt * 2 = 0.02");
  ASSERT_TRUE(filter.has_value());
  auto bound = Bind(*filter, *schema);
  ASSERT_TRUE(bound.has_value()) << bound.error().message;
  EXPECT_EQ((*bound)->term()->type->ToString(), "decimal(11,2)");
  ColumnBatch batch(*schema);
  ASSERT_TRUE(batch.AppendRow({Literal::Long(1), Dec(1, 9, 2), Literal::Double(1)}));
  ASSERT_TRUE(batch.AppendRow({Literal::Long(2), Dec(2, 9, 2), Literal::Double(1)}));
  ASSERT_TRUE(batch.AppendRow({Literal::Long(3), Literal::Null(Type::Decimal(9, 2)), Literal::Double(1)}));
  auto matches = EvaluateRows(*bound, batch);
  ASSERT_TRUE(matches.has_value()) << matches.error().message;
  EXPECT_EQ(*matches, (std::vector<uint8_t>{1, 0, 0}));
  // Mixing a decimal with a double would lose exactness: refused, saying what to write.
  auto mixed = Bind(*ParseFilter("amt * ratio > 1"), *schema);
  ASSERT_FALSE(mixed.has_value());
  EXPECT_NE(mixed.error().message.find("decimal"), std::string::npos) << mixed.error().message;
}

}  // namespace
}  // namespace floe
