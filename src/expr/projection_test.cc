#include "expr/projection.h"

#include <gtest/gtest.h>

#include "expr/binder.h"
#include "expr/metrics_evaluator.h"
#include "expr/parser.h"
#include "expr/random_testing.h"
#include "expr/row_evaluator.h"
#include "expr/value_ops.h"

namespace floe {
namespace {

using testing::RandomData;
using testing::RandomSchema;

Expr BindForProjection(const std::string& text, const Schema& schema = RandomSchema()) {
  auto parsed = ParseFilter(text);
  EXPECT_TRUE(parsed) << text << ": " << parsed.error().message;
  auto bound = Bind(*parsed, schema);
  EXPECT_TRUE(bound) << text << ": " << bound.error().message;
  return *bound;
}

PartitionSpec SpecOf(std::vector<PartitionField> fields) { return PartitionSpec(1, std::move(fields)); }

std::string Inclusive(const std::string& text, const PartitionSpec& spec) {
  auto p = ProjectInclusive(BindForProjection(text), spec);
  EXPECT_TRUE(p);
  return ToString(*p);
}

std::string Strict(const std::string& text, const PartitionSpec& spec) {
  auto p = ProjectStrict(BindForProjection(text), spec);
  EXPECT_TRUE(p);
  return ToString(*p);
}

TEST(ProjectionTest, DayOfTimestamp) {
  PartitionSpec spec = SpecOf({{testing::kTs, 1000, "ts_day", Transform::Day()}});
  EXPECT_EQ(Inclusive("ts >= '2026-01-02T10:00'", spec), "ref(name=\"ts_day\") >= \"2026-01-02\"");
  EXPECT_EQ(Inclusive("ts > '2026-01-02T23:59:59.999999'", spec), "ref(name=\"ts_day\") >= \"2026-01-03\"");
  EXPECT_EQ(Inclusive("ts < '2026-01-02T00:00'", spec), "ref(name=\"ts_day\") <= \"2026-01-01\"");
  EXPECT_EQ(Strict("ts >= '2026-01-02T10:00'", spec), "ref(name=\"ts_day\") > \"2026-01-02\"");
  EXPECT_EQ(Strict("ts >= '2026-01-02T00:00'", spec), "ref(name=\"ts_day\") > \"2026-01-01\"");
  EXPECT_EQ(Strict("ts < '2026-01-02T00:00'", spec), "ref(name=\"ts_day\") < \"2026-01-02\"");
  // Before the epoch days still round down.
  EXPECT_EQ(Inclusive("ts = '1969-12-31T23:00'", spec), "ref(name=\"ts_day\") == \"1969-12-31\"");
  EXPECT_EQ(Inclusive("id = 5", spec), "true");
  EXPECT_EQ(Strict("id = 5", spec), "false");
}

TEST(ProjectionTest, BucketOnlyForEqualityAndIn) {
  PartitionSpec spec = SpecOf({{testing::kId, 1000, "id_bucket", Transform::Bucket(16)}});
  int32_t b = Transform::Bucket(16).Apply(Literal::Long(34))->AsInt();
  EXPECT_EQ(Inclusive("id = 34", spec), "ref(name=\"id_bucket\") == " + std::to_string(b));
  EXPECT_EQ(Inclusive("id > 34", spec), "true");
  EXPECT_EQ(Strict("id <> 34", spec), "ref(name=\"id_bucket\") != " + std::to_string(b));
  EXPECT_EQ(Strict("id = 34", spec), "false");
}

TEST(ProjectionTest, TruncateStrings) {
  PartitionSpec spec = SpecOf({{testing::kName, 1000, "name_trunc", Transform::Truncate(3)}});
  EXPECT_EQ(Inclusive("name LIKE 'ab%'", spec), "ref(name=\"name_trunc\") startsWith \"ab\"");
  EXPECT_EQ(Inclusive("name LIKE 'abcdef%'", spec), "ref(name=\"name_trunc\") == \"abc\"");
  EXPECT_EQ(Strict("name LIKE 'abcdef%'", spec), "false");
  EXPECT_EQ(Strict("name NOT LIKE 'abcdef%'", spec), "ref(name=\"name_trunc\") != \"abc\"");
  EXPECT_EQ(Inclusive("name < 'abcd'", spec), "ref(name=\"name_trunc\") <= \"abc\"");
  EXPECT_EQ(Strict("name < 'abcd'", spec), "ref(name=\"name_trunc\") < \"abc\"");
}

TEST(ProjectionTest, IdentityResidual) {
  Schema schema(0, {{1, "country", Type::String(), false, ""}, {2, "x", Type::Long(), false, ""}});
  PartitionSpec spec = SpecOf({{1, 1000, "country", Transform::Identity()}});
  Expr filter = BindForProjection("country = 'DE' AND x > 1", schema);
  auto de = Residual(filter, spec, {Literal::String("DE")});
  ASSERT_TRUE(de);
  EXPECT_EQ(ToString(*de), "ref(name=\"x\") > 1");
  auto fr = Residual(filter, spec, {Literal::String("FR")});
  ASSERT_TRUE(fr);
  EXPECT_EQ(ToString(*fr), "false");
  auto either = Residual(BindForProjection("country = 'DE' OR x > 1", schema), spec, {Literal::String("DE")});
  EXPECT_EQ(ToString(*either), "true");
  EXPECT_FALSE(Residual(filter, spec, {}));  // tuple of the wrong size
}

TEST(ProjectionTest, SeveralFieldsOnOneSource) {
  PartitionSpec spec = SpecOf({{testing::kTs, 1000, "ts_day", Transform::Day()},
                               {testing::kTs, 1001, "ts_hour", Transform::Hour()}});
  std::string inclusive = Inclusive("ts >= '2026-01-02T10:30'", spec);
  EXPECT_NE(inclusive.find("ts_day"), std::string::npos);
  EXPECT_NE(inclusive.find("ts_hour"), std::string::npos);
  EXPECT_NE(inclusive.find(" and "), std::string::npos);
  EXPECT_NE(Strict("ts >= '2026-01-02T10:30'", spec).find(" or "), std::string::npos);
}

// Every transform applied to every column it accepts.
std::vector<PartitionField> AllFields() {
  std::vector<PartitionField> out;
  Schema schema = RandomSchema();
  std::vector<Transform> transforms = {Transform::Identity(), Transform::Bucket(3), Transform::Truncate(1),
                                       Transform::Truncate(2), Transform::Truncate(7), Transform::Year(),
                                       Transform::Month(),     Transform::Day(),       Transform::Hour(),
                                       Transform::Void()};
  int id = 1000;
  for (const auto& f : schema.fields())
    for (const auto& t : transforms)
      if (t.CanTransform(*f.type)) out.push_back({f.id, id++, f.name + "_" + t.ToString(), t});
  return out;
}

TEST(ProjectionTest, NeverWrongAgainstBruteForce) {
  RandomData rnd(99);
  Schema schema = RandomSchema();
  std::vector<PartitionField> all = AllFields();
  for (const PartitionField& field : all) {
    PartitionSpec spec = SpecOf({field});
    int inclusive_pruned = 0, strict_accepted = 0, residual_decided = 0;
    for (int round = 0; round < 250; ++round) {
      ColumnBatch rows = rnd.Rows(12);
      Expr bound = *Bind(rnd.RandomExpression(3), schema);
      auto inclusive = ProjectInclusive(bound, spec);
      auto strict = ProjectStrict(bound, spec);
      ASSERT_TRUE(inclusive && strict);
      auto selected = EvaluateRows(bound, rows);
      ASSERT_TRUE(selected);
      int column = rows.ColumnIndexById(field.source_id);
      for (size_t r = 0; r < rows.num_rows; ++r) {
        auto tuple = spec.PartitionOf({rows.columns[column].Get(r)});
        ASSERT_TRUE(tuple) << tuple.error().message;
        bool matches = (*selected)[r] != 0;
        bool in = EvaluatePartition(*inclusive, spec, *tuple);
        bool all = EvaluatePartition(*strict, spec, *tuple);
        if (matches) {
          ASSERT_TRUE(in) << field.name << ": inclusive " << ToString(*inclusive) << " rejects partition "
                          << (*tuple)[0].ToString() << " of a row matching " << ToString(bound);
        }
        if (all) {
          ASSERT_TRUE(matches) << field.name << ": strict " << ToString(*strict) << " accepts partition "
                               << (*tuple)[0].ToString() << " of a row not matching " << ToString(bound);
        }
        inclusive_pruned += !in;
        strict_accepted += all;
        // The residual for this row's partition decides the row exactly like the full filter.
        auto residual = Residual(bound, spec, *tuple);
        ASSERT_TRUE(residual);
        std::vector<Literal> row = rows.Row(r);
        auto lookup = [&](int id) -> const Literal* {
          int c = rows.ColumnIndexById(id);
          return c < 0 ? nullptr : &row[c];
        };
        ASSERT_EQ(EvaluateRow(*residual, lookup) == Truth::kTrue, matches)
            << field.name << ": residual " << ToString(*residual) << " of " << ToString(bound) << " on partition "
            << (*tuple)[0].ToString();
        residual_decided += (*residual)->op() == Op::kTrue || (*residual)->op() == Op::kFalse;
      }
    }
    // Projections through anything but void must also be useful.
    if (field.transform.kind() != TransformKind::kVoid) {
      EXPECT_GT(inclusive_pruned, 0) << field.name;
      EXPECT_GT(strict_accepted, 0) << field.name;
      EXPECT_GT(residual_decided, 0) << field.name;
    }
  }
}

TEST(ProjectionTest, ProjectionsAreBoundToPartitionFields) {
  PartitionSpec spec = SpecOf({{testing::kDay, 1000, "day_month", Transform::Month()}});
  auto p = ProjectInclusive(BindForProjection("day >= '2026-02-10' AND day < '2026-03-01'"), spec);
  ASSERT_TRUE(p);
  EXPECT_TRUE((*p)->is_bound());
  EXPECT_EQ(ReferencedFieldIds(*p), std::vector<int>{1000});
  // month 2026-02 is 673 months after 1970-01.
  EXPECT_EQ(ToString(*p), "(ref(name=\"day_month\") >= 673 and ref(name=\"day_month\") <= 673)");
  EXPECT_TRUE(EvaluatePartition(*p, spec, {Literal::Int(673)}));
  EXPECT_FALSE(EvaluatePartition(*p, spec, {Literal::Int(674)}));
  EXPECT_FALSE(EvaluatePartition(*p, spec, {Literal::Null(Type::Int())}));
}

// Manifest pruning as metrics_evaluator.h describes it: partition field summaries as metrics.
TEST(ProjectionTest, PartitionSummariesPruneThroughInclusiveMetrics) {
  PartitionSpec spec = SpecOf({{testing::kTs, 1000, "ts_day", Transform::Day()}});
  auto projected = ProjectInclusive(BindForProjection("ts >= '2026-01-10T08:00' AND ts < '2026-01-11'"), spec);
  ASSERT_TRUE(projected);
  FileMetrics summary;  // a manifest whose files cover 2026-01-01 .. 2026-01-09, no null days
  summary.null_value_counts[1000] = 0;
  summary.SetBounds(1000, Literal::Date(DaysFromCivil(2026, 1, 1)), Literal::Date(DaysFromCivil(2026, 1, 9)));
  EXPECT_FALSE(InclusiveMetrics(*projected, summary));
  summary.SetBounds(1000, Literal::Date(DaysFromCivil(2026, 1, 1)), Literal::Date(DaysFromCivil(2026, 1, 10)));
  EXPECT_TRUE(InclusiveMetrics(*projected, summary));
}

}  // namespace
}  // namespace floe
