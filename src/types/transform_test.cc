#include "types/transform.h"

#include <gtest/gtest.h>

#include "types/partition_spec.h"
#include "types/temporal.h"
#include "util/murmur3.h"

namespace floe {
namespace {

Literal ParseAs(const TypePtr& type, const std::string& text) {
  auto v = Literal::String(text).CastTo(type);
  EXPECT_TRUE(v.has_value()) << text;
  return *v;
}

// The spec's appendix B: hash values for each type.
TEST(BucketHash, MatchesTheSpecsWorkedExamples) {
  EXPECT_EQ(*BucketHash(Literal::Int(34)), 2017239379);
  EXPECT_EQ(*BucketHash(Literal::Long(34)), 2017239379);
  EXPECT_EQ(*BucketHash(ParseAs(Type::Decimal(9, 2), "14.20")), -500754589);
  EXPECT_EQ(*BucketHash(ParseAs(Type::Date(), "2017-11-16")), -653330422);
  EXPECT_EQ(*BucketHash(ParseAs(Type::Time(), "22:31:08")), -662762989);
  EXPECT_EQ(*BucketHash(ParseAs(Type::Timestamp(), "2017-11-16T22:31:08")), -2047944441);
  EXPECT_EQ(*BucketHash(ParseAs(Type::TimestampTz(), "2017-11-16T14:31:08-08:00")), -2047944441);
  EXPECT_EQ(*BucketHash(ParseAs(Type::TimestampNs(), "2017-11-16T22:31:08")), -2047944441);
  EXPECT_EQ(*BucketHash(ParseAs(Type::TimestampTzNs(), "2017-11-16T14:31:08-08:00")), -2047944441);
  EXPECT_EQ(*BucketHash(Literal::String("iceberg")), 1210000089);
  EXPECT_EQ(*BucketHash(ParseAs(Type::Uuid(), "f79c3e09-677c-4bbd-a479-3f349cb785e7")), 1488055340);
  std::string bytes("\x00\x01\x02\x03", 4);
  EXPECT_EQ(*BucketHash(Literal(Type::Fixed(4), bytes)), -188683207);
  EXPECT_EQ(*BucketHash(Literal::Binary(bytes)), -188683207);
}

TEST(BucketTransform, AppliesModuloToThePositiveHash) {
  EXPECT_EQ(Transform::Bucket(100).Apply(Literal::Int(34))->AsInt(), 79);
  EXPECT_EQ(Transform::Bucket(100).Apply(Literal::Long(34))->AsInt(), 79);
  EXPECT_EQ(Transform::Bucket(100).Apply(ParseAs(Type::Decimal(9, 2), "14.20"))->AsInt(), 59);
  EXPECT_TRUE(Transform::Bucket(16).Apply(Literal::Null(Type::Int()))->is_null());
  EXPECT_FALSE(Transform::Bucket(16).CanTransform(*Type::Double()));
}

// The spec's truncate examples.
TEST(TruncateTransform, MatchesTheSpec) {
  EXPECT_EQ(Transform::Truncate(10).Apply(Literal::Int(1))->AsInt(), 0);
  EXPECT_EQ(Transform::Truncate(10).Apply(Literal::Int(-1))->AsInt(), -10);
  EXPECT_EQ(Transform::Truncate(10).Apply(Literal::Long(1))->AsLong(), 0);
  EXPECT_EQ(Transform::Truncate(10).Apply(Literal::Long(-1))->AsLong(), -10);
  EXPECT_EQ(Transform::Truncate(50).Apply(ParseAs(Type::Decimal(9, 2), "10.65"))->ToString(), "10.50");
  EXPECT_EQ(Transform::Truncate(3).Apply(Literal::String("iceberg"))->AsBytes(), "ice");
  // Code points, not bytes: three characters of multi-byte UTF-8.
  EXPECT_EQ(Transform::Truncate(2).Apply(Literal::String("\xC3\xA9t\xC3\xA9"))->AsBytes(), "\xC3\xA9t");
  EXPECT_EQ(Transform::Truncate(2).Apply(Literal::Binary("abc"))->AsBytes(), "ab");
}

TEST(TimeTransforms, CountUnitsFromTheEpochAndFloorBeforeIt) {
  Literal ts = ParseAs(Type::Timestamp(), "2017-12-01T10:12:55.038194");
  EXPECT_EQ(Transform::Year().Apply(ts)->AsInt(), 47);
  EXPECT_EQ(Transform::Month().Apply(ts)->AsInt(), 47 * 12 + 11);
  EXPECT_EQ(Transform::Day().Apply(ts)->ToString(), "2017-12-01");
  EXPECT_EQ(Transform::Hour().Apply(ts)->AsInt(), 420034);
  Literal before = ParseAs(Type::Timestamp(), "1969-12-31T23:59:58.999999");
  EXPECT_EQ(Transform::Hour().Apply(before)->AsInt(), -1);
  EXPECT_EQ(Transform::Day().Apply(before)->AsInt(), -1);
  EXPECT_EQ(Transform::Month().Apply(before)->AsInt(), -1);
  EXPECT_EQ(Transform::Year().Apply(before)->AsInt(), -1);
  Literal date = ParseAs(Type::Date(), "1969-12-31");
  EXPECT_EQ(Transform::Day().Apply(date)->ToString(), "1969-12-31");
  EXPECT_FALSE(Transform::Hour().CanTransform(*Type::Date()));
  Literal ns = ParseAs(Type::TimestampNs(), "2017-12-01T10:12:55.038194123");
  EXPECT_EQ(Transform::Hour().Apply(ns)->AsInt(), 420034);
}

TEST(VoidAndIdentity, BehaveAsNamed) {
  EXPECT_TRUE(Transform::Void().Apply(Literal::Int(5))->is_null());
  EXPECT_EQ(Transform::Identity().Apply(Literal::String("DE"))->AsBytes(), "DE");
}

TEST(TransformText, RoundTrips) {
  for (std::string text : {"identity", "bucket[16]", "truncate[4]", "year", "month", "day", "hour", "void"}) {
    auto t = Transform::Parse(text);
    ASSERT_TRUE(t.has_value()) << text;
    EXPECT_EQ(t->ToString(), text);
  }
  EXPECT_FALSE(Transform::Parse("bucket[0]").has_value());
  EXPECT_FALSE(Transform::Parse("bucket[x]").has_value());
  EXPECT_FALSE(Transform::Parse("weekday").has_value());
}

Schema OrdersSchema() {
  return Schema(0, {{1, "order_id", Type::Long(), true, ""},
                    {2, "country", Type::String(), false, ""},
                    {3, "amount_cents", Type::Long(), false, ""},
                    {4, "ts", Type::Timestamp(), false, ""}});
}

TEST(PartitionText, ParsesUserSpellings) {
  Schema schema = OrdersSchema();
  auto fields = ParsePartitionFields("country, day(ts), bucket(16, order_id), truncate(4, country)", schema, 1000);
  ASSERT_TRUE(fields.has_value()) << fields.error().message;
  ASSERT_EQ(fields->size(), 4u);
  EXPECT_EQ((*fields)[0].name, "country");
  EXPECT_EQ((*fields)[1].name, "ts_day");
  EXPECT_EQ((*fields)[1].field_id, 1001);
  EXPECT_EQ((*fields)[2].transform, Transform::Bucket(16));
  EXPECT_EQ((*fields)[3].name, "country_trunc");
  PartitionSpec spec(0, *fields);
  EXPECT_EQ(spec.ToString(schema), "country, day(ts), bucket(16, order_id), truncate(4, country)");
  auto type = spec.PartitionType(schema);
  ASSERT_TRUE(type.has_value());
  EXPECT_EQ((*type)->fields()[1].type->id(), TypeId::kDate);
}

TEST(PartitionText, RefusesMissingColumnsAndBadTransforms) {
  Schema schema = OrdersSchema();
  auto missing = ParsePartitionFields("region", schema, 1000);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("no column named 'region'"), std::string::npos);
  auto bad = ParsePartitionFields("hour(country)", schema, 1000);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("cannot be applied"), std::string::npos);
  EXPECT_FALSE(ParsePartitionFields("bucket(0, order_id)", schema, 1000).has_value());
  EXPECT_FALSE(ParsePartitionFields("day(ts", schema, 1000).has_value());
}

TEST(Murmur3, EmptyInputHashesToZero) { EXPECT_EQ(Murmur3Hash32(""), 0); }

}  // namespace
}  // namespace floe
