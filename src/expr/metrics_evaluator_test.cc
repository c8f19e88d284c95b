#include "expr/metrics_evaluator.h"

#include <gtest/gtest.h>

#include "expr/binder.h"
#include "expr/parser.h"
#include "expr/random_testing.h"
#include "expr/row_evaluator.h"

namespace floe {
namespace {

using testing::RandomData;
using testing::RandomSchema;

Expr BindRandom(const std::string& text) {
  auto parsed = ParseFilter(text);
  EXPECT_TRUE(parsed) << text << ": " << parsed.error().message;
  auto bound = Bind(*parsed, RandomSchema());
  EXPECT_TRUE(bound) << text << ": " << bound.error().message;
  return *bound;
}

// A file of 10 rows whose id runs from 10 to 20 with no nulls, and whose names run from
// "apple" to "banana" with 2 nulls.
FileMetrics SampleMetrics() {
  FileMetrics m;
  m.record_count = 10;
  m.value_counts = {{1, 10}, {3, 10}, {4, 10}};
  m.null_value_counts = {{1, 0}, {3, 2}, {4, 0}};
  m.nan_value_counts = {{4, 3}};
  m.SetBounds(1, Literal::Long(10), Literal::Long(20));
  m.SetBounds(3, Literal::String("apple"), Literal::String("banana"));
  m.SetBounds(4, Literal::Double(1.0), Literal::Double(2.0));
  return m;
}

TEST(MetricsEvaluatorTest, InclusiveUsesBoundsAndCounts) {
  FileMetrics m = SampleMetrics();
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id = 15"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id = 21"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id < 10"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id <= 10"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id > 20"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id IN (1, 2, 30)"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id IN (1, 12)"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id IS NULL"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("name IS NULL"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("name LIKE 'c%'"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("name LIKE 'b%'"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("name LIKE 'c%x'"), m));  // general LIKE: prefix 'c' still prunes
  EXPECT_TRUE(InclusiveMetrics(BindRandom("name LIKE '%x'"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id > 100 OR name = 'zebra'"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("NOT (id > 100)"), m));
  // NaN sorts above every number: NaN rows satisfy score > 5 but not score < 0.5.
  EXPECT_TRUE(InclusiveMetrics(BindRandom("score > 5"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("score < 0.5"), m));
  m.nan_value_counts[4] = 0;
  EXPECT_FALSE(InclusiveMetrics(BindRandom("score > 5"), m));
  m.nan_value_counts[4] = 3;
  EXPECT_TRUE(InclusiveMetrics(BindRandom("score IS NAN"), m));
  // Arithmetic is never judged: it never excludes a file.
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id % 2 = 0 AND id * 1000 < 0"), m));
}

TEST(MetricsEvaluatorTest, StrictNeedsEveryRow) {
  FileMetrics m = SampleMetrics();
  EXPECT_TRUE(StrictMetrics(BindRandom("id >= 10"), m));
  EXPECT_FALSE(StrictMetrics(BindRandom("id > 10"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("id <> 5"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("id NOT IN (1, 2, 21)"), m));
  EXPECT_FALSE(StrictMetrics(BindRandom("name >= 'a'"), m));  // two names are null
  EXPECT_TRUE(StrictMetrics(BindRandom("name IS NULL OR id > 0"), m));
  EXPECT_FALSE(StrictMetrics(BindRandom("score < 100"), m));  // NaN rows do not match
  EXPECT_TRUE(StrictMetrics(BindRandom("score > 0.5"), m));   // NaN rows do
  EXPECT_TRUE(StrictMetrics(BindRandom("score <> 100"), m));  // NaN != 100 holds
  EXPECT_FALSE(StrictMetrics(BindRandom("id % 1 = 0"), m));   // arithmetic never makes "all match"
  EXPECT_FALSE(StrictMetrics(BindRandom("NOT (id >= 10)"), m));
  FileMetrics empty;
  empty.record_count = 0;
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id = 1"), empty));
  EXPECT_TRUE(StrictMetrics(BindRandom("id = 1"), empty));
}

TEST(MetricsEvaluatorTest, MissingMetricsAreUnknown) {
  FileMetrics m;  // nothing known
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id = 1 AND name IS NULL AND score IS NAN"), m));
  EXPECT_FALSE(StrictMetrics(BindRandom("id IS NULL OR id IS NOT NULL"), m));
}

TEST(MetricsEvaluatorTest, TruncatedStringBounds) {
  // True values run from "abcdef" to "abczzz"; bounds truncated to 3 bytes: lower "abc"
  // (a prefix), upper "abd" (rounded up).
  FileMetrics m;
  m.record_count = 4;
  m.value_counts = {{3, 4}};
  m.null_value_counts = {{3, 0}};
  m.lower_bounds[3] = "abc";
  m.upper_bounds[3] = "abd";
  EXPECT_TRUE(InclusiveMetrics(BindRandom("name = 'abcdef'"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("name LIKE 'abcz%'"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("name LIKE 'abd%'"), m));  // the rounded-up bound admits 'abd...'
  EXPECT_FALSE(InclusiveMetrics(BindRandom("name LIKE 'abe%'"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("name LIKE 'abb%'"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("name LIKE 'ab%'"), m));
  EXPECT_FALSE(StrictMetrics(BindRandom("name LIKE 'abc%'"), m));  // upper "abd" does not start with it
  EXPECT_FALSE(StrictMetrics(BindRandom("name = 'abc'"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("name NOT LIKE 'ab%'"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("name NOT LIKE 'b%'"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("name < 'abe'"), m));
}

TEST(MetricsEvaluatorTest, BoundsWrittenBeforeATypePromotion) {
  // id was an int and score a float when the file was written: 4-byte bounds.
  FileMetrics m;
  m.record_count = 3;
  m.value_counts = {{1, 3}, {4, 3}};
  m.null_value_counts = {{1, 0}, {4, 0}};
  m.nan_value_counts = {{4, 0}};
  m.SetBounds(1, Literal::Int(5), Literal::Int(9));
  m.SetBounds(4, Literal::Float(0.5f), Literal::Float(1.5f));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("id > 9"), m));
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id > 8"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("id BETWEEN 5 AND 9"), m));
  EXPECT_FALSE(InclusiveMetrics(BindRandom("score < 0.5"), m));
  EXPECT_TRUE(StrictMetrics(BindRandom("score < 1.75"), m));
  // A corrupt bound is ignored rather than trusted.
  m.lower_bounds[1] = "xyz";
  EXPECT_TRUE(InclusiveMetrics(BindRandom("id < 5"), m));
}

// The property the scan and delete paths rely on, checked against brute force.
void CheckAgainstRows(int truncate_to, uint32_t seed) {
  RandomData rnd(seed);
  Schema schema = RandomSchema();
  int excluded = 0, all_matched = 0, checks = 0;
  for (int file = 0; file < 600; ++file) {
    ColumnBatch rows = rnd.Rows(8);
    FileMetrics metrics = testing::MetricsOf(rows, &rnd, truncate_to);
    for (int e = 0; e < 25; ++e) {
      Expr unbound = rnd.RandomExpression(3);
      auto bound = Bind(unbound, schema);
      ASSERT_TRUE(bound) << ToString(unbound) << ": " << bound.error().message;
      auto selected = EvaluateRows(*bound, rows);
      ASSERT_TRUE(selected) << selected.error().message;
      bool any = std::any_of(selected->begin(), selected->end(), [](uint8_t v) { return v != 0; });
      bool all = std::all_of(selected->begin(), selected->end(), [](uint8_t v) { return v != 0; });
      bool might = InclusiveMetrics(*bound, metrics);
      bool must = StrictMetrics(*bound, metrics);
      ++checks;
      if (any) {
        ASSERT_TRUE(might) << "inclusive excluded a matching file: " << ToString(*bound) << " file " << file;
      }
      if (must) {
        ASSERT_TRUE(all) << "strict said all match, but a row does not: " << ToString(*bound) << " file " << file;
      }
      excluded += !might;
      all_matched += must && rows.num_rows > 0;
    }
  }
  // The evaluators must also be useful, not only safe.
  EXPECT_GT(excluded, checks / 20);
  EXPECT_GT(all_matched, checks / 50);
}

TEST(MetricsEvaluatorTest, NeverWrongAgainstBruteForce) { CheckAgainstRows(0, 7); }
TEST(MetricsEvaluatorTest, NeverWrongWithTruncatedStringBounds) {
  CheckAgainstRows(1, 11);
  CheckAgainstRows(2, 12);
}

}  // namespace
}  // namespace floe
