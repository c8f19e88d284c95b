#include "expr/row_evaluator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "expr/binder.h"
#include "expr/parser.h"
#include "expr/random_testing.h"
#include "expr/value_ops.h"

namespace floe {
namespace {

Schema RowSchema() {
  return Schema(0, {
                       {1, "x", Type::Long(), false, ""},
                       {2, "y", Type::Int(), false, ""},
                       {3, "name", Type::String(), false, ""},
                       {4, "score", Type::Double(), false, ""},
                       {5, "ts", Type::Timestamp(), false, ""},
                       {6, "flag", Type::Boolean(), false, ""},
                       {7, "amount", Type::Decimal(9, 2), false, ""},
                       {8, "loc", Type::Struct({{9, "lat", Type::Float(), false, ""}}), false, ""},
                       {10, "d", Type::Date(), false, ""},
                   });
}

const double kNaN = std::nan("");

// Five rows; row 1 is null everywhere.
ColumnBatch TestRows() {
  Schema schema = RowSchema();
  ColumnBatch batch(schema);
  auto ts = [](const char* text) { return Literal::String(text).CastTo(Type::Timestamp()).value(); };
  auto null = [&](int id) { return Literal::Null(schema.FindField(id)->type); };
  std::vector<std::vector<Literal>> rows = {
      {Literal::Long(1), Literal::Int(10), Literal::String("abc"), Literal::Double(0.5), ts("2025-12-31T23:59:59"),
       Literal::Boolean(true), Literal::Decimal(150, 9, 2), null(8), Literal::Date(1)},
      {null(1), null(2), null(3), null(4), null(5), null(6), null(7), null(8), null(10)},
      {Literal::Long(3), Literal::Int(-7), Literal::String("\xc3\xa9t\xc3\xa9"), Literal::Double(kNaN),
       ts("2026-01-01T00:00:00"), Literal::Boolean(false), Literal::Decimal(-5, 9, 2), null(8), Literal::Date(-1)},
      {Literal::Long(4), Literal::Int(0), Literal::String("a%c"), Literal::Double(-0.0), ts("2026-03-01T12:00:00"),
       Literal::Boolean(true), Literal::Decimal(0, 9, 2), null(8), Literal::Date(0)},
      {Literal::Long(-6), Literal::Int(2147483647), Literal::String(""), Literal::Double(3), ts("1969-12-31T23:00:00"),
       Literal::Boolean(false), Literal::Decimal(99999, 9, 2), null(8), Literal::Date(40000)},
  };
  for (auto& row : rows) {
    // The struct column is filled below; AppendRow cannot take a struct value.
    std::vector<Literal> top(row.begin(), row.end());
    top[7] = Literal::Null(schema.FindField(8)->type);
    EXPECT_TRUE(batch.AppendRow(top));
  }
  // loc.lat: 1.5, null (struct null), 2.5, NaN, null (lat null).
  Column& lat = batch.columns[7].children[0];
  lat = Column(Type::Float());
  for (float v : {1.5f, 0.0f, 2.5f, std::nanf(""), 0.0f}) EXPECT_TRUE(lat.Append(Literal::Float(v)));
  lat.nulls = {0, 1, 0, 0, 1};
  batch.columns[7].nulls = {0, 1, 0, 0, 0};
  return batch;
}

std::string Rows(const std::string& text) {
  auto parsed = ParseFilter(text);
  if (!parsed) return "parse error: " + parsed.error().message;
  auto bound = Bind(*parsed, RowSchema());
  if (!bound) return "bind error: " + bound.error().message;
  auto selected = EvaluateRows(*bound, TestRows());
  if (!selected) return "error: " + selected.error().message;
  std::string out;
  for (uint8_t v : *selected) out += v ? '1' : '0';
  return out;
}

TEST(RowEvaluatorTest, ThreeValuedLogic) {
  EXPECT_EQ(Rows("x > 1"), "00110");
  EXPECT_EQ(Rows("NOT (x > 1)"), "10001");  // null stays unknown under NOT
  EXPECT_EQ(Rows("x <> 3"), "10011");
  EXPECT_EQ(Rows("x NOT IN (3, 4)"), "10001");
  EXPECT_EQ(Rows("NOT (x IN (3, 4))"), "10001");
  EXPECT_EQ(Rows("x IS NULL"), "01000");
  EXPECT_EQ(Rows("NOT (x IS NULL)"), "10111");
  EXPECT_EQ(Rows("x > 1 OR x IS NULL"), "01110");
  EXPECT_EQ(Rows("NOT (x > 1 AND name = 'abc')"), "10111");
  EXPECT_EQ(Rows("NOT (x > 3 OR y > 5)"), "00100");
  EXPECT_EQ(Rows("NOT NOT (x > 1)"), "00110");
  EXPECT_EQ(Rows("true"), "11111");
  EXPECT_EQ(Rows("NOT true"), "00000");
}

TEST(RowEvaluatorTest, Arithmetic) {
  EXPECT_EQ(Rows("x % 2 = 1"), "10100");
  EXPECT_EQ(Rows("x % 2 = 0"), "00011");  // -6 % 2 is 0
  EXPECT_EQ(Rows("x * 2 + 1 > 6"), "00110");
  EXPECT_EQ(Rows("x / 0 = 0 OR x / 0 <> 0"), "00000");  // division by zero gives null
  EXPECT_EQ(Rows("NOT (x / 0 = 0)"), "00000");
  EXPECT_EQ(Rows("y + 1 > 2147483647"), "00001");  // int arithmetic runs in long: no overflow
  EXPECT_EQ(Rows("x + y > 0"), "10011");
  EXPECT_EQ(Rows("score * 2 >= 1"), "10101");  // NaN * 2 is NaN, above every number
  EXPECT_EQ(Rows("(x - 4) * (x - 4) < 2"), "00110");
  EXPECT_EQ(Rows("-x > 0"), "00001");
}

TEST(RowEvaluatorTest, Types) {
  EXPECT_EQ(Rows("name = 'abc'"), "10000");
  EXPECT_EQ(Rows("name < 'b'"), "10011");
  EXPECT_EQ(Rows("name > 'b'"), "00100");  // UTF-8 bytes sort after ASCII
  EXPECT_EQ(Rows("name LIKE 'a%'"), "10010");
  EXPECT_EQ(Rows("name NOT LIKE 'a%'"), "00101");
  EXPECT_EQ(Rows("name LIKE '%c'"), "10010");
  EXPECT_EQ(Rows("name LIKE 'a\\%c'"), "00010");
  EXPECT_EQ(Rows("name LIKE '_t_'"), "00100");  // _ is one character, also a two-byte one
  EXPECT_EQ(Rows("name LIKE '%'"), "10111");
  EXPECT_EQ(Rows("score > 0"), "10101");  // NaN sorts above every number
  EXPECT_EQ(Rows("score < 1"), "10010");
  EXPECT_EQ(Rows("NOT (score < 1)"), "00101");
  EXPECT_EQ(Rows("score <> 3"), "10110");  // NaN <> 3 is true
  EXPECT_EQ(Rows("score = 0"), "00010");   // -0.0 = 0
  EXPECT_EQ(Rows("score IS NAN"), "00100");
  EXPECT_EQ(Rows("score IS NOT NAN"), "11011");
  EXPECT_EQ(Rows("NOT (score IS NAN)"), "11011");
  EXPECT_EQ(Rows("ts >= '2026-01-01'"), "00110");
  EXPECT_EQ(Rows("ts < '1970-01-01'"), "00001");
  EXPECT_EQ(Rows("flag"), "10010");
  EXPECT_EQ(Rows("NOT flag"), "00101");
  EXPECT_EQ(Rows("amount > 0"), "10001");
  EXPECT_EQ(Rows("amount = 1.5"), "10000");
  // Values with more digits than decimal(9,2) holds compare against every value and equal none.
  EXPECT_EQ(Rows("amount < 10000000"), "10111");
  EXPECT_EQ(Rows("amount = 10000000"), "00000");
  EXPECT_EQ(Rows("amount > -12345678.5"), "10111");
  EXPECT_EQ(Rows("amount <= 9223372036854775807"), "10111");
  EXPECT_EQ(Rows("d BETWEEN '1969-12-31' AND '1970-01-01'"), "00110");
  EXPECT_EQ(Rows("y < 10000000000"), "10111");   // beyond the int range: every int is smaller
  EXPECT_EQ(Rows("y = 10000000000"), "00000");
  EXPECT_EQ(Rows("loc.lat > 2"), "00110");
  EXPECT_EQ(Rows("loc.lat IS NULL"), "01001");
  EXPECT_EQ(Rows("loc IS NULL"), "01000");
  EXPECT_EQ(Rows("loc.lat IS NAN"), "00010");
}

// A comparison value scaled past 38 digits is clamped beyond every decimal, never overflowed.
TEST(RowEvaluatorTest, ComparisonValuesPastADecimalsDigitsDoNotOverflow) {
  const TypePtr wide = Type::Decimal(38, 30);
  auto pow10 = [](int n) {
    __int128 p = 1;
    for (int i = 0; i < n; ++i) p *= 10;
    return p;
  };
  const __int128 largest = pow10(38) - 1;  // 99999999.999...9 (38 nines)
  const Literal top = Literal::Decimal(largest, 38, 30);
  const Literal bottom = Literal::Decimal(-largest, 38, 30);
  for (int64_t v : {INT64_MAX, int64_t{100000000}}) {
    auto scaled = ConvertForComparison(Literal::Long(v), wide);
    ASSERT_TRUE(scaled);
    EXPECT_GT(CompareValues(*scaled, top), 0) << v;
    auto negative = ConvertForComparison(Literal::Long(-v), wide);
    ASSERT_TRUE(negative);
    EXPECT_LT(CompareValues(*negative, bottom), 0) << v;
  }
  auto fits = ConvertForComparison(Literal::Long(99999999), wide);
  ASSERT_TRUE(fits);
  EXPECT_LT(CompareValues(*fits, top), 0);
  EXPECT_EQ(CompareValues(*ConvertForComparison(Literal::Decimal(5, 2, 1), wide), Literal::Decimal(5 * pow10(29), 38, 30)), 0);
}

TEST(RowEvaluatorTest, LargeInLists) {
  std::string longs = "x IN (", names = "name IN (";
  for (int i = 100; i < 120; ++i) {
    longs += std::to_string(i) + ", ";
    names += "'n" + std::to_string(i) + "', ";
  }
  EXPECT_EQ(Rows(longs + "4, -6)"), "00011");
  EXPECT_EQ(Rows("NOT (" + longs + "4, -6))"), "10100");
  EXPECT_EQ(Rows(names + "'abc', '')"), "10001");
  EXPECT_EQ(Rows("NOT (" + names + "'abc', ''))"), "00110");
  std::string scores = "score NOT IN (";
  for (int i = 10; i < 30; ++i) scores += std::to_string(i) + ", ";
  EXPECT_EQ(Rows(scores + "3)"), "10110");  // NaN is not in any list
}

TEST(RowEvaluatorTest, Errors) {
  ColumnBatch partial(std::vector<NestedField>{{1, "x", Type::Long(), false, ""}});
  ASSERT_TRUE(partial.AppendRow({Literal::Long(1)}));
  auto bound = Bind(*ParseFilter("name = 'a'"), RowSchema());
  ASSERT_TRUE(bound);
  auto r = EvaluateRows(*bound, partial);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "column 'name' (field id 3) is not in the batch");
  EXPECT_FALSE(EvaluateRows(Equal("x", Literal::Long(1)), partial));  // unbound
}

// The fast column-at-a-time evaluator (which rewrites NOT away) agrees with the slow
// row-at-a-time three-valued evaluator on random data and filters.
TEST(RowEvaluatorTest, AgreesWithRowAtATimeEvaluation) {
  testing::RandomData rnd(42);
  Schema schema = testing::RandomSchema();
  int matched = 0, total = 0;
  for (int round = 0; round < 400; ++round) {
    ColumnBatch rows = rnd.Rows(30);
    for (int k = 0; k < 10; ++k) {
      auto bound = Bind(rnd.RandomExpression(4), schema);
      ASSERT_TRUE(bound) << bound.error().message;
      auto fast = EvaluateRows(*bound, rows);
      ASSERT_TRUE(fast) << fast.error().message;
      for (size_t r = 0; r < rows.num_rows; ++r) {
        std::vector<Literal> row = rows.Row(r);
        auto lookup = [&](int id) -> const Literal* { return &row[rows.ColumnIndexById(id)]; };
        bool slow = EvaluateRow(*bound, lookup) == Truth::kTrue;
        ASSERT_EQ((*fast)[r] != 0, slow) << ToString(*bound) << " row " << r;
        matched += slow;
        ++total;
      }
    }
  }
  EXPECT_GT(matched, total / 10);
  EXPECT_LT(matched, total - total / 10);
}

// Throughput of the common case; prints rows per second (run explicitly).
TEST(RowEvaluatorTest, DISABLED_Throughput) {
  Schema schema(0, {{1, "order_id", Type::Long(), true, ""}, {2, "country", Type::String(), true, ""}});
  ColumnBatch batch(schema);
  const size_t n = 1 << 20;
  const char* countries[] = {"DE", "FR", "US"};
  for (size_t i = 0; i < n; ++i) ASSERT_TRUE(batch.AppendRow({Literal::Long(static_cast<int64_t>(i)), Literal::String(countries[i % 3])}));
  for (const char* text : {"order_id > 500000", "country = 'DE'", "country = 'DE' AND order_id % 2 = 0"}) {
    auto bound = Bind(*ParseFilter(text), schema);
    auto start = std::chrono::steady_clock::now();
    size_t hits = 0;
    for (int rep = 0; rep < 20; ++rep) {
      auto sel = EvaluateRows(*bound, batch);
      for (uint8_t v : *sel) hits += v;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-40s %8.1f M rows/s (%zu hits)\n", text, 20.0 * n / seconds / 1e6, hits);
  }
}

}  // namespace
}  // namespace floe
