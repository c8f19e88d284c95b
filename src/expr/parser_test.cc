#include "expr/parser.h"

#include <gtest/gtest.h>

#include <random>

#include "expr/binder.h"
#include "expr/metrics_evaluator.h"
#include "expr/projection.h"
#include "expr/random_testing.h"
#include "expr/row_evaluator.h"

namespace floe {
namespace {

std::string Parsed(const std::string& text) {
  auto e = ParseFilter(text);
  if (!e) return "error: " + e.error().message;
  return ToString(*e);
}

TEST(ParserTest, TheLanguage) {
  EXPECT_EQ(Parsed("country = 'DE' AND order_id % 2 = 0"),
            "(ref(name=\"country\") == \"DE\" and (ref(name=\"order_id\") % 2) == 0)");
  EXPECT_EQ(Parsed("ts >= '2026-01-01'"), "ref(name=\"ts\") >= \"2026-01-01\"");
  EXPECT_EQ(Parsed("name LIKE 'abc%'"), "ref(name=\"name\") startsWith \"abc\"");
  EXPECT_EQ(Parsed("name NOT LIKE 'abc%%'"), "ref(name=\"name\") notStartsWith \"abc\"");
  EXPECT_EQ(Parsed("name LIKE 'a%c'"), "ref(name=\"name\") like \"a%c\"");
  EXPECT_EQ(Parsed("name LIKE 'a\\%'"), "ref(name=\"name\") == \"a%\"");
  EXPECT_EQ(Parsed("id IN (1, 2, 3)"), "ref(name=\"id\") in (1, 2, 3)");
  EXPECT_EQ(Parsed("id NOT IN (1, -2)"), "ref(name=\"id\") not in (1, -2)");
  EXPECT_EQ(Parsed("amount IS NULL"), "is_null(ref(name=\"amount\"))");
  EXPECT_EQ(Parsed("amount is not null"), "not_null(ref(name=\"amount\"))");
  EXPECT_EQ(Parsed("score IS NOT NAN"), "not_nan(ref(name=\"score\"))");
  EXPECT_EQ(Parsed("NOT (a > 1 OR b < 2)"), "not((ref(name=\"a\") > 1 or ref(name=\"b\") < 2))");
  EXPECT_EQ(Parsed("a <> 1 AND b != 2 AND c == 3"),
            "(ref(name=\"a\") != 1 and (ref(name=\"b\") != 2 and ref(name=\"c\") == 3))");
  EXPECT_EQ(Parsed("x BETWEEN 1 AND 5"), "(ref(name=\"x\") >= 1 and ref(name=\"x\") <= 5)");
  EXPECT_EQ(Parsed("x NOT BETWEEN 1 AND 5"), "(ref(name=\"x\") < 1 or ref(name=\"x\") > 5)");
  EXPECT_EQ(Parsed("true"), "true");
  EXPECT_EQ(Parsed("FALSE"), "false");
  EXPECT_EQ(Parsed("s = 'it''s'"), "ref(name=\"s\") == \"it's\"");
  EXPECT_EQ(Parsed("\"odd \"\"name\"\"\" = 1"), "ref(name=\"odd \"name\"\") == 1");
  EXPECT_EQ(Parsed("location.lat > 1.5"), "ref(name=\"location.lat\") > 1.5");
  EXPECT_EQ(Parsed("`back tick` = 1"), "ref(name=\"back tick\") == 1");
  EXPECT_EQ(Parsed("5 < x"), "ref(name=\"x\") > 5");
  EXPECT_EQ(Parsed("x = -3"), "ref(name=\"x\") == -3");
  EXPECT_EQ(Parsed("x > 1e3"), "ref(name=\"x\") > 1e+03");
  EXPECT_EQ(Parsed("x > 2 * 3 + 1"), "ref(name=\"x\") > 7");
  EXPECT_EQ(Parsed("(x + 1) * 2 > 3"), "((ref(name=\"x\") + 1) * 2) > 3");
  EXPECT_EQ(Parsed("x + 1 * 2 > 3"), "(ref(name=\"x\") + 2) > 3");
  EXPECT_EQ(Parsed("-x < 0"), "(0 - ref(name=\"x\")) < 0");
  EXPECT_EQ(Parsed("a = 1 OR b = 2 AND c = 3"), "(ref(name=\"a\") == 1 or (ref(name=\"b\") == 2 and ref(name=\"c\") == 3))");
  EXPECT_EQ(Parsed("active AND NOT deleted"), "(ref(name=\"active\") == true and not(ref(name=\"deleted\") == true))");
  EXPECT_EQ(Parsed("d = DATE '2026-01-01'"), "ref(name=\"d\") == \"2026-01-01\"");
  EXPECT_EQ(Parsed("date = '2026-01-01'"), "ref(name=\"date\") == \"2026-01-01\"");
  EXPECT_EQ(Parsed("b = X'0aFF'"), "ref(name=\"b\") == X'0AFF'");
  EXPECT_EQ(Parsed("1 = 1"), "true");
  EXPECT_EQ(Parsed("a.\"and\" = 1 AND a.And = 2"), "(ref(name=\"a.and\") == 1 and ref(name=\"a.And\") == 2)");
  EXPECT_EQ(Parsed("stra\xc3\x9f" "e = 'x'"), "ref(name=\"stra\xc3\x9f" "e\") == \"x\"");
}

TEST(ParserTest, LongChainsStayShallow) {
  std::string text = "x = 0";
  for (int i = 1; i < 5000; ++i) text += " OR x = " + std::to_string(i);
  auto e = ParseFilter(text);
  ASSERT_TRUE(e) << e.error().message;
  int depth = 0;
  for (Expr node = *e; node->op() == Op::kOr; node = node->left()) ++depth;
  EXPECT_LT(depth, 20);
}

TEST(ParserTest, ErrorsPointAtThePosition) {
  EXPECT_EQ(Parsed("country = "), "error: expected a value after '=' at position 11");
  EXPECT_EQ(Parsed("country = AND x = 1"), "error: expected a value after '=' at position 11");
  EXPECT_EQ(Parsed("country = 'DE' AND"), "error: expected a condition after AND at position 19");
  EXPECT_EQ(Parsed("(a = 1"), "error: expected ')' to close the '(' at position 1, found end of text at position 7");
  EXPECT_EQ(Parsed("a = 'abc"), "error: unterminated string starting at position 5");
  EXPECT_EQ(Parsed("a # 1"), "error: unexpected character '#' at position 3");
  EXPECT_EQ(Parsed("a IN 1"), "error: expected '(' after IN at position 6");
  EXPECT_EQ(Parsed("a IN (1, b)"), "error: an IN list element must be a value, not a column at position 10");
  EXPECT_EQ(Parsed("a IN (1, NULL)"), "error: NULL is not allowed in an IN list at position 10");
  EXPECT_EQ(Parsed("a = b"), "error: comparing two columns is not supported at position 3");
  EXPECT_EQ(Parsed("a = NULL"), "error: cannot compare with NULL; use IS NULL or IS NOT NULL at position 5");
  EXPECT_EQ(Parsed("a = 1 b"), "error: unexpected 'b' at position 7");
  EXPECT_EQ(Parsed("a = 1)"), "error: unexpected ')' at position 6");
  EXPECT_EQ(Parsed("a IS 1"), "error: expected NULL or NAN after IS at position 6");
  EXPECT_EQ(Parsed("a LIKE b"), "error: expected a quoted pattern after LIKE at position 8");
  EXPECT_EQ(Parsed("a = 1 / 0"), "error: division by zero at position 7");
  EXPECT_EQ(Parsed("a = 12abc"), "error: invalid number '12a' at position 5");
  EXPECT_EQ(Parsed("a + 1"), "error: expected a condition at position 1");
  EXPECT_EQ(Parsed("   "), "error: empty filter");
  EXPECT_EQ(Parsed(std::string(1000, '(') + "a" + std::string(1000, ')')).substr(0, 35),
            "error: expression nested too deeply");
  EXPECT_EQ(Parsed(std::string(1000, '-') + "a > 1").substr(0, 35), "error: expression nested too deeply");
}

TEST(ParserTest, SqlFormReadsBack) {
  for (const char* text : {"country = 'DE' AND order_id % 2 = 0", "name LIKE 'a\\_b%'", "name LIKE 'a_b%'",
                           "NOT (a > 1.50 OR b < -2) OR c IN ('x', 'y''z')", "\"a b\".c IS NULL", "x > 1e300",
                           "b = X'00FF'", "x < -9223372036854775808", "flag", "a.\"\"\"\" >= 0.000001"}) {
    auto e = ParseFilter(text);
    ASSERT_TRUE(e) << text;
    auto again = ParseFilter(ToSql(*e));
    ASSERT_TRUE(again) << ToSql(*e) << ": " << again.error().message;
    EXPECT_EQ(ToString(*again), ToString(*e)) << text;
  }
}

// Random and mutated texts: the parser never crashes, every error names a position, and
// whatever parses prints back to SQL that parses to the same expression. Successful parses
// also go through binding and the evaluators, which must not crash either.
TEST(ParserTest, FuzzNeverCrashes) {
  std::mt19937 rng(1234);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  const std::vector<std::string> seeds = {
      "id = 5 AND name LIKE 'ab%'", "NOT (id > 1 OR small < 2)", "ts >= '2026-01-01' AND day < '2026-02-01'",
      "amount BETWEEN 1.5 AND 20", "score IS NAN OR score IS NOT NULL", "id % 2 = 0 AND (small + 1) * 3 <> 4",
      "name IN ('a', 'b''c', 'é') AND flag", "\"name\" NOT LIKE '%a_b%'", "id NOT IN (1, -2, 3) OR amount <= -0.5"};
  const std::vector<std::string> pieces = {" ", "(", ")", "'", "\"", "`", ",", ".", "=", "<", ">", "<>", "!=", "+",
                                           "-", "*", "/", "%", "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE",
                                           "BETWEEN", "NAN", "TRUE", "id", "name", "score", "1", "0", "1.5", "1e9",
                                           "'x'", "X'", "\xc3\xa9", "\xff", "\\", "_", "ts", "DATE", "99999999999999999999999"};
  Schema schema = testing::RandomSchema();
  PartitionSpec spec(1, {{testing::kId, 1000, "id_bucket", Transform::Bucket(4)},
                         {testing::kName, 1001, "name_trunc", Transform::Truncate(2)}});
  testing::RandomData rnd(5);
  ColumnBatch rows = rnd.Rows(20);
  FileMetrics metrics = testing::MetricsOf(rows, &rnd);
  int parsed = 0, bound = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    if (i % 3 == 0) {
      int n = pick(12);
      for (int k = 0; k < n; ++k) text += pieces[pick(static_cast<int>(pieces.size()))] + (pick(2) ? " " : "");
    } else {
      text = seeds[pick(static_cast<int>(seeds.size()))];
      int edits = 1 + pick(3);
      for (int k = 0; k < edits && !text.empty(); ++k) {
        size_t at = pick(static_cast<int>(text.size()));
        switch (pick(4)) {
          case 0: text.erase(at, 1 + pick(3)); break;
          case 1: text.insert(at, pieces[pick(static_cast<int>(pieces.size()))]); break;
          case 2: text[at] = static_cast<char>(pick(256)); break;
          default: text.insert(at, text.substr(pick(static_cast<int>(text.size()))));
        }
      }
    }
    auto e = ParseFilter(text);
    if (!e) {
      const std::string& m = e.error().message;
      EXPECT_TRUE(m.find(" at position ") != std::string::npos || m == "empty filter") << text << " -> " << m;
      EXPECT_EQ(e.error().kind, ErrorKind::kInvalidArgument);
      continue;
    }
    ++parsed;
    auto again = ParseFilter(ToSql(*e));
    ASSERT_TRUE(again) << text << " -> " << ToSql(*e) << ": " << again.error().message;
    EXPECT_EQ(ToString(*again), ToString(*e)) << text;
    auto b = Bind(*e, schema, i % 2 == 0);
    if (!b) continue;
    ++bound;
    ASSERT_TRUE(EvaluateRows(*b, rows));
    (void)InclusiveMetrics(*b, metrics);
    (void)StrictMetrics(*b, metrics);
    ASSERT_TRUE(ProjectInclusive(*b, spec));
    ASSERT_TRUE(ProjectStrict(*b, spec));
  }
  EXPECT_GT(parsed, 1000);
  EXPECT_GT(bound, 300);
}

}  // namespace
}  // namespace floe
