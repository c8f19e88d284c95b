// DuckDB's iceberg extension (1.4.4) writes a manifest list whose `partitions` array holds
// optional records ([null, record]) rather than records. Avro resolves that against a reader's
// record, and Java and PyIceberg read it; floe must too (tests/interop/shared_catalog_test.py
// found it when floe scanned a table DuckDB created through floe serve).
#include <gtest/gtest.h>

#include "avro/avro_file.h"
#include "avro/manifest_list.h"

namespace floe {
namespace {

constexpr const char* kDuckDbShapedSchema = R"({"type": "record", "name": "manifest_file", "fields": [
  {"name": "manifest_path", "type": "string", "field-id": 500},
  {"name": "manifest_length", "type": "long", "field-id": 501},
  {"name": "partition_spec_id", "type": "int", "field-id": 502},
  {"name": "added_snapshot_id", "type": "long", "field-id": 503},
  {"name": "partitions", "field-id": 507, "type": ["null", {"type": "array", "element-id": 508,
    "items": ["null", {"type": "record", "name": "element0", "fields": [
      {"name": "contains_null", "type": ["null", {"type": "boolean"}], "field-id": 509},
      {"name": "lower_bound", "type": ["null", {"type": "bytes"}], "field-id": 510},
      {"name": "upper_bound", "type": ["null", {"type": "bytes"}], "field-id": 511}]}]}]}]})";

std::string ManifestListWithOptionalSummaries() {
  avro::FileWriter writer(kDuckDbShapedSchema, {{"format-version", "2"}}, avro::Codec::kNull);
  avro::Encoder& e = writer.encoder();
  e.WriteString("/wh/t/metadata/m0.avro");
  e.WriteLong(4096);
  e.WriteInt(0);
  e.WriteLong(77);
  e.WriteUnionIndex(1);  // partitions present
  e.WriteLong(2);        // one block of two summaries
  e.WriteUnionIndex(1);  // a summary
  e.WriteUnionIndex(1);
  e.WriteBool(false);
  e.WriteUnionIndex(1);
  e.WriteBytes("a");
  e.WriteUnionIndex(1);
  e.WriteBytes("m");
  e.WriteUnionIndex(0);  // a null summary
  e.WriteLong(0);        // end of the array
  EXPECT_TRUE(writer.EndRecord());
  auto bytes = writer.Finish();
  EXPECT_TRUE(bytes) << bytes.error().message;
  return bytes ? *bytes : std::string();
}

TEST(ManifestListOptionalItems, ReadsSummariesWrittenAsOptionalRecords) {
  auto list = ReadManifestList(ManifestListWithOptionalSummaries(), "snap-duckdb.avro");
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->manifests.size(), 1u);
  const ManifestFile& m = list->manifests[0];
  EXPECT_EQ(m.manifest_path, "/wh/t/metadata/m0.avro");
  EXPECT_EQ(m.added_snapshot_id, 77);
  ASSERT_EQ(m.partitions.size(), 2u);  // positions are kept: one summary per partition field
  EXPECT_FALSE(m.partitions[0].contains_null);
  EXPECT_EQ(m.partitions[0].lower_bound, std::optional<std::string>("a"));
  EXPECT_EQ(m.partitions[0].upper_bound, std::optional<std::string>("m"));
  // A null summary tells nothing, so nothing may be pruned by it.
  EXPECT_TRUE(m.partitions[1].contains_null);
  EXPECT_FALSE(m.partitions[1].lower_bound.has_value());
  EXPECT_FALSE(m.partitions[1].upper_bound.has_value());
}

}  // namespace
}  // namespace floe
