// Transforms floe does not compute: an unknown transform (kept by name) and a known transform
// over several source columns (v3 `source-ids`). Tables using them are read, never written.
#include <gtest/gtest.h>

#include "types/partition_spec.h"
#include "types/sort_order.h"
#include "types/transform.h"

namespace floe {
namespace {

Schema Events() {
  return Schema(0, {{1, "id", Type::Long(), false, ""}, {2, "ts", Type::TimestampTz(), false, ""},
                    {3, "region", Type::String(), false, ""}});
}

TEST(UnknownTransform, IsKeptByNameAndNeverEvaluated) {
  EXPECT_FALSE(Transform::Parse("geohash[6]"));  // a user's text must name a transform floe knows
  Transform t = Transform::FromMetadata("geohash[6]");
  EXPECT_TRUE(t.is_unknown());
  EXPECT_EQ(t.ToString(), "geohash[6]");
  EXPECT_FALSE(t == Transform::FromMetadata("zorder"));
  EXPECT_TRUE(t == Transform::FromMetadata("geohash[6]"));
  EXPECT_EQ(Transform::FromMetadata("bucket[4]"), Transform::Bucket(4));  // known ones parse as before
  EXPECT_FALSE(t.PreservesOrder());
  EXPECT_TRUE(t.CanTransform(*Type::String()));
  EXPECT_EQ((*t.ResultType(Type::Long()))->id(), TypeId::kString);
  auto applied = t.Apply(Literal::String("u4pruy"));
  ASSERT_FALSE(applied);
  EXPECT_EQ(applied.error().kind, ErrorKind::kNotSupported);
  EXPECT_NE(applied.error().message.find("'geohash[6]'"), std::string::npos);
}

TEST(UnknownTransform, SpecsWithFieldsFloeCannotComputeAreReadOnly) {
  const Schema schema = Events();
  PartitionSpec known(0, {PartitionField{2, 1000, "ts_day", Transform::Day()}});
  EXPECT_TRUE(known.CheckWritable());

  PartitionSpec multi(1, {PartitionField{2, 1000, "ts_day", Transform::Day()},
                          PartitionField{1, 1001, "id_region_bucket", Transform::Bucket(8), {1, 3}}});
  EXPECT_TRUE(multi.fields()[0].evaluable());
  EXPECT_FALSE(multi.fields()[1].evaluable());
  ASSERT_TRUE(multi.Validate(schema));
  auto type = multi.PartitionType(schema);
  ASSERT_TRUE(type) << type.error().ToString();
  EXPECT_EQ((*type)->fields()[1].type->id(), TypeId::kInt);  // what bucket gives
  EXPECT_EQ(multi.ToString(schema), "day(ts), bucket[8](id, region)");
  auto refused = multi.CheckWritable();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kNotSupported);
  EXPECT_NE(refused.error().message.find("partition field 'id_region_bucket' is bucket[8](1, 3)"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("several columns"), std::string::npos);

  PartitionSpec unknown(2, {PartitionField{3, 1000, "region_geohash", Transform::FromMetadata("geohash[6]")}});
  ASSERT_TRUE(unknown.Validate(schema));
  EXPECT_EQ((*unknown.PartitionType(schema))->fields()[0].type->id(), TypeId::kString);
  auto no = unknown.CheckWritable();
  ASSERT_FALSE(no);
  EXPECT_NE(no.error().message.find("'region_geohash' is geohash[6](3)"), std::string::npos) << no.error().message;
  EXPECT_NE(no.error().message.find("unknown transform"), std::string::npos);

  // A source id the schema lacks is still an error, for every source.
  PartitionSpec missing(3, {PartitionField{1, 1000, "b", Transform::Bucket(8), {1, 9}}});
  auto bad = missing.Validate(schema);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("source column id 9"), std::string::npos);
  EXPECT_FALSE(multi.CompatibleWith(PartitionSpec(1, {multi.fields()[0], PartitionField{1, 1001, "id_region_bucket",
                                                                                         Transform::Bucket(8), {1, 2}}})));
}

TEST(UnknownTransform, SortOrdersWithFieldsFloeCannotComputeAreReadOnly) {
  const Schema schema = Events();
  SortOrder order(1, {SortField{Transform::FromMetadata("zorder"), 1, SortDirection::kAscending, NullOrder::kNullsFirst, {1, 2}},
                      SortField{Transform::Identity(), 3, SortDirection::kDescending, NullOrder::kNullsLast}});
  ASSERT_TRUE(order.Validate(schema));
  auto refused = order.CheckWritable();
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("sort order 1 field 0 is zorder(1, 2)"), std::string::npos) << refused.error().message;
  EXPECT_TRUE(SortOrder(2, {order.fields()[1]}).CheckWritable());
  EXPECT_FALSE(order.SameFields(SortOrder(1, {SortField{Transform::FromMetadata("zorder"), 1}, order.fields()[1]})));
}

}  // namespace
}  // namespace floe
