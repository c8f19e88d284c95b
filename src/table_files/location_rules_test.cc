// Invariant 8's rules: a location is accepted inside its scope or an allowed prefix, compared by
// whole normalized segments, and a refusal names the field and both locations.
#include "table_files/location_rules.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

LocationRules Rules(std::vector<std::string> allowed = {}) {
  auto rules = LocationRules::Create("s3://wh/base", allowed);
  EXPECT_TRUE(rules) << rules.error().ToString();
  return std::move(*rules);
}

TEST(LocationRules, ALocationMustLieInItsScopeOrAnAllowedPrefix) {
  const LocationRules rules = Rules({"s3://shared/ok"});
  const NormalLocation ns = rules.NamespaceDefault({"db", "sub"});
  EXPECT_EQ(ns.ToString(), "s3://wh/base/db/sub");
  EXPECT_TRUE(rules.CheckWithin("location", "s3a://wh/base/db/sub/t", {ns}, "the namespace"));
  EXPECT_TRUE(rules.CheckWithin("location", "s3://shared/ok/x", {ns}, "the namespace"));
  auto sibling = rules.CheckWithin("location", "s3://wh/base/db/subway/t", {ns}, "the namespace");
  ASSERT_FALSE(sibling);
  EXPECT_EQ(sibling.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(sibling.error().message.find("location 's3://wh/base/db/subway/t'"), std::string::npos)
      << sibling.error().message;
  EXPECT_NE(sibling.error().message.find("the namespace s3://wh/base/db/sub"), std::string::npos)
      << sibling.error().message;
  auto dots = rules.CheckWithin("location", "s3://wh/base/db/sub/../../x", {ns}, "the namespace");
  ASSERT_FALSE(dots);
  EXPECT_NE(dots.error().message.find("'..'"), std::string::npos) << dots.error().message;
}

TEST(LocationRules, BadWarehouseOrPrefixIsRefused) {
  EXPECT_FALSE(LocationRules::Create("", {}));
  auto everything = LocationRules::Create("/w", {"/"});
  ASSERT_FALSE(everything);
  EXPECT_NE(everything.error().message.find("--allow-location"), std::string::npos);
}

TEST(LocationRules, EveryPathACommitSetsLiesInTheTable) {
  const LocationRules rules = Rules();
  Snapshot inside;
  inside.manifest_list = "s3://wh/base/db/t/metadata/snap-1.avro";
  EXPECT_TRUE(rules.CheckUpdatePaths({AddSnapshot{inside}, SetProperties{{{"write.data.path", "s3://wh/base/db/t/d"}}}},
                                     "s3://wh/base/db/t"));
  Snapshot outside = inside;
  outside.manifest_list = "s3://other/snap-1.avro";
  auto list = rules.CheckUpdatePaths({AddSnapshot{outside}}, "s3://wh/base/db/t");
  ASSERT_FALSE(list);
  EXPECT_NE(list.error().message.find("manifest-list"), std::string::npos) << list.error().message;
  Snapshot v1 = inside;
  v1.manifest_list.clear();
  v1.v1_manifests = {"s3://wh/base/db/t/m.avro", "s3://wh/base/db/t2/m.avro"};
  auto manifests = rules.CheckUpdatePaths({AddSnapshot{v1}}, "s3://wh/base/db/t");
  ASSERT_FALSE(manifests);
  EXPECT_NE(manifests.error().message.find("s3://wh/base/db/t2/m.avro"), std::string::npos);
  auto property = rules.CheckUpdatePaths({SetProperties{{{"write.metadata.path", "s3://wh/elsewhere"}}}},
                                         "s3://wh/base/db/t");
  ASSERT_FALSE(property);
  EXPECT_NE(property.error().message.find("property write.metadata.path"), std::string::npos);
  // Other properties are not locations.
  EXPECT_TRUE(rules.CheckUpdatePaths({SetProperties{{{"comment", "s3://anywhere"}}}}, "s3://wh/base/db/t"));
}

}  // namespace
}  // namespace floe
