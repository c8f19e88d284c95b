// A format 3 table partitioned and sorted by transforms floe does not compute (several source ids,
// a transform it does not know): its metadata parses, keeps every field, and writes back the same
// specs and sort orders (tests/data/TableMetadataV3MultiArgTransforms.json).
#include <gtest/gtest.h>

#include "meta/meta_test_util.h"
#include "meta/metadata_json.h"

namespace floe {
namespace {

TEST(MultiArgTransformJson, RoundTripsUnchanged) {
  const std::string text =
      testing::ReadText(std::filesystem::path(FLOE_SOURCE_DIR) / "tests" / "data" / "TableMetadataV3MultiArgTransforms.json");
  ASSERT_FALSE(text.empty());
  auto m = ParseTableMetadata(text);
  ASSERT_TRUE(m) << m.error().ToString();
  const PartitionSpec& spec = m->DefaultSpec();
  ASSERT_EQ(spec.fields().size(), 3u);
  EXPECT_TRUE(spec.fields()[0].evaluable());
  EXPECT_EQ(spec.fields()[1].source_ids, (std::vector<int>{1, 3}));
  EXPECT_EQ(spec.fields()[1].source_id, 1);
  EXPECT_EQ(spec.fields()[1].transform, Transform::Bucket(8));
  EXPECT_TRUE(spec.fields()[2].transform.is_unknown());
  EXPECT_FALSE(spec.CheckWritable());
  const SortOrder* order = m->SortOrderById(1);
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->fields()[0].source_ids, (std::vector<int>{1, 2}));
  EXPECT_EQ(order->fields()[0].transform.ToString(), "zorder");

  const std::string written = WriteTableMetadata(*m);
  const nlohmann::json in = nlohmann::json::parse(text), out = nlohmann::json::parse(written);
  EXPECT_EQ(out["partition-specs"], in["partition-specs"]);
  EXPECT_EQ(out["sort-orders"], in["sort-orders"]);
  EXPECT_EQ(out["default-sort-order-id"], 1);
  auto again = ParseTableMetadata(written);
  ASSERT_TRUE(again) << again.error().ToString();
  EXPECT_EQ(WriteTableMetadata(*again), written);
}

TEST(MultiArgTransformJson, EmptySourceIdsAreRefused) {
  std::string text =
      testing::ReadText(std::filesystem::path(FLOE_SOURCE_DIR) / "tests" / "data" / "TableMetadataV3MultiArgTransforms.json");
  const std::string from = "\"source-ids\": [1, 3]";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "\"source-ids\": []");
  auto m = ParseTableMetadata(text);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("'source-ids' is empty"), std::string::npos) << m.error().message;
  // A known transform written wrong stays an error rather than becoming an unknown transform.
  text.replace(text.find("\"source-ids\": []"), 16, "\"source-ids\": [1]");
  const std::string bucket = "\"bucket[8]\"";
  text.replace(text.find(bucket), bucket.size(), "\"bucket[x]\"");
  auto bad = ParseTableMetadata(text);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("bucket[x]"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace floe
