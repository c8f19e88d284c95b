#include "expr/expression.h"

#include <gtest/gtest.h>

#include "expr/binder.h"
#include "expr/parser.h"
#include "expr/random_testing.h"
#include "expr/value_ops.h"

namespace floe {
namespace {

TEST(ExpressionTest, PrintsInIcebergsForm) {
  EXPECT_EQ(ToString(Equal("country", Literal::String("DE"))), "ref(name=\"country\") == \"DE\"");
  EXPECT_EQ(ToString(And(GreaterThan("a", Literal::Long(1)), LessThan("b", Literal::Long(2)))),
            "(ref(name=\"a\") > 1 and ref(name=\"b\") < 2)");
  EXPECT_EQ(ToString(Or(LessThanOrEqual("a", Literal::Int(1)), GreaterThanOrEqual("b", Literal::Double(2.5)))),
            "(ref(name=\"a\") <= 1 or ref(name=\"b\") >= 2.5)");
  EXPECT_EQ(ToString(NotNull("x")), "not_null(ref(name=\"x\"))");
  EXPECT_EQ(ToString(IsNull("x")), "is_null(ref(name=\"x\"))");
  EXPECT_EQ(ToString(IsNan("x")), "is_nan(ref(name=\"x\"))");
  EXPECT_EQ(ToString(NotNan("x")), "not_nan(ref(name=\"x\"))");
  EXPECT_EQ(ToString(In("id", {Literal::Long(1), Literal::Long(2), Literal::Long(3)})),
            "ref(name=\"id\") in (1, 2, 3)");
  EXPECT_EQ(ToString(NotIn("id", {Literal::String("a")})), "ref(name=\"id\") not in (\"a\")");
  EXPECT_EQ(ToString(NotEqual("id", Literal::Long(-4))), "ref(name=\"id\") != -4");
  EXPECT_EQ(ToString(StartsWith("name", "ab")), "ref(name=\"name\") startsWith \"ab\"");
  EXPECT_EQ(ToString(NotStartsWith("name", "ab")), "ref(name=\"name\") notStartsWith \"ab\"");
  EXPECT_EQ(ToString(Not(Equal("a", Literal::Boolean(true)))), "not(ref(name=\"a\") == true)");
  EXPECT_EQ(ToString(True()), "true");
  EXPECT_EQ(ToString(False()), "false");
  EXPECT_EQ(ToString(Predicate(Op::kEq, Arith(ArithOp::kMod, Ref("order_id"), LiteralTerm(Literal::Long(2))),
                               {Literal::Long(0)})),
            "(ref(name=\"order_id\") % 2) == 0");
  EXPECT_EQ(ToString(Equal("d", Literal::Date(0))), "ref(name=\"d\") == \"1970-01-01\"");
  EXPECT_EQ(ToString(Equal("b", Literal::Binary("\x01\xab"))), "ref(name=\"b\") == X'01AB'");
}

TEST(ExpressionTest, PrintsSql) {
  EXPECT_EQ(ToSql(And(Equal("country", Literal::String("it's")), NotNull("x"))), "(country = 'it''s' AND x IS NOT NULL)");
  EXPECT_EQ(ToSql(StartsWith("name", "50%_off")), "name LIKE '50\\%\\_off%'");
  EXPECT_EQ(ToSql(Equal("odd name", Literal::Long(1))), "\"odd name\" = 1");
  EXPECT_EQ(ToSql(Equal("and", Literal::Long(1))), "\"and\" = 1");
  EXPECT_EQ(ToSql(Not(In("x", {Literal::Double(1.5), Literal::Double(std::nan(""))}))), "NOT (x IN (1.5, 'NaN'))");
  EXPECT_EQ(ToSql(Equal("ts", Literal::Timestamp(0))), "ts = '1970-01-01T00:00:00.000000'");
}

TEST(ExpressionTest, ConstantsSimplify) {
  Expr p = Equal("a", Literal::Long(1));
  EXPECT_EQ(And(True(), p), p);
  EXPECT_EQ(And(p, False())->op(), Op::kFalse);
  EXPECT_EQ(Or(p, True())->op(), Op::kTrue);
  EXPECT_EQ(Or(False(), p), p);
  EXPECT_EQ(Not(Not(p)), p);
  EXPECT_EQ(Not(True())->op(), Op::kFalse);
}

TEST(ExpressionTest, RewriteNotPushesNegationToPredicates) {
  auto e = ParseFilter("NOT (a > 1 OR NOT (b IN (1, 2) AND c IS NULL)) AND NOT d LIKE 'x%' AND NOT e LIKE '%x'");
  ASSERT_TRUE(e);
  Expr r = RewriteNot(*e);
  EXPECT_FALSE(ContainsNot(r));
  EXPECT_EQ(ToString(r),
            "((ref(name=\"a\") <= 1 and (ref(name=\"b\") in (1, 2) and is_null(ref(name=\"c\")))) and "
            "(ref(name=\"d\") notStartsWith \"x\" and ref(name=\"e\") not like \"%x\"))");
  Expr plain = Equal("a", Literal::Long(1));
  EXPECT_EQ(RewriteNot(plain), plain);  // nothing to do: the same node
}

// RewriteNot is exact under three-valued logic (with NaN sorting above numbers): the rewritten
// filter is TRUE on exactly the rows where the original is.
TEST(ExpressionTest, RewriteNotIsExact) {
  testing::RandomData rnd(3);
  Schema schema = testing::RandomSchema();
  for (int round = 0; round < 3000; ++round) {
    auto bound = Bind(rnd.RandomExpression(4), schema);
    ASSERT_TRUE(bound);
    Expr rewritten = RewriteNot(*bound);
    std::vector<Literal> row;
    for (const auto& f : schema.fields()) row.push_back(rnd.Cell(f.id));
    auto lookup = [&](int id) -> const Literal* { return &row[id - 1]; };
    Truth original = EvaluateRow(*bound, lookup), pushed = EvaluateRow(rewritten, lookup);
    ASSERT_EQ(original == Truth::kTrue, pushed == Truth::kTrue) << ToString(*bound);
  }
}

TEST(ExpressionTest, ReferencedFieldIds) {
  Schema schema(0, {{1, "a", Type::Long(), false, ""}, {2, "b", Type::Long(), false, ""}, {3, "c", Type::Long(), false, ""}});
  auto e = Bind(*ParseFilter("c > 1 AND (a + c) % 2 = 0 OR c IS NULL"), schema);
  ASSERT_TRUE(e);
  EXPECT_EQ(ReferencedFieldIds(*e), (std::vector<int>{1, 3}));
  EXPECT_TRUE(ReferencedFieldIds(True()).empty());
  EXPECT_FALSE(Equal("a", Literal::Long(1))->is_bound());
}

}  // namespace
}  // namespace floe
