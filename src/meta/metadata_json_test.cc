#include "meta/metadata_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "meta/meta_test_util.h"

namespace floe {
namespace {

using testing::FixturesDir;
using testing::ReadText;

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Parse -> write -> parse gives the same value (compared through the full JSON form, which
// carries every field) and writing is deterministic.
void ExpectRoundTrip(const TableMetadata& m) {
  std::string written = WriteTableMetadata(m);
  auto again = ParseTableMetadata(written);
  ASSERT_TRUE(again) << again.error().ToString() << "\n" << written;
  EXPECT_EQ(TableMetadataToJson(*again), TableMetadataToJson(m));
  EXPECT_EQ(WriteTableMetadata(*again), written);
}

class MetadataFixtures : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FixturesDir();
    if (dir_.empty()) GTEST_SKIP() << "skipped: no fixtures";
    dir_ /= "metadata";
  }
  Result<TableMetadata> Parse(const std::string& name) { return ParseTableMetadata(ReadText(dir_ / name)); }
  void ExpectError(const std::string& name, const std::string& phrase, ErrorKind kind = ErrorKind::kCorrupt) {
    auto m = Parse(name);
    ASSERT_FALSE(m) << name << " parsed but should fail with '" << phrase << "'";
    EXPECT_NE(Lower(m.error().message).find(Lower(phrase)), std::string::npos)
        << name << ": '" << m.error().message << "' does not contain '" << phrase << "'";
    EXPECT_EQ(m.error().kind, kind) << name;
  }
  std::filesystem::path dir_;
};

TEST_F(MetadataFixtures, V1Valid) {
  auto m = Parse("TableMetadataV1Valid.json");
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->format_version, 1);
  EXPECT_EQ(m->last_sequence_number, 0);
  ASSERT_EQ(m->schemas.size(), 1u);
  EXPECT_EQ(m->CurrentSchema().fields().size(), 3u);
  EXPECT_EQ(m->CurrentSchema().FindField(2)->doc, "comment");
  ASSERT_EQ(m->partition_specs.size(), 1u);
  EXPECT_EQ(m->default_spec_id, 0);
  ASSERT_EQ(m->DefaultSpec().fields().size(), 1u);
  EXPECT_EQ(m->DefaultSpec().fields()[0].field_id, 1000);
  EXPECT_EQ(m->DefaultSpec().fields()[0].transform, Transform::Identity());
  EXPECT_EQ(m->last_partition_id, 1000);  // derived from the spec in v1
  EXPECT_EQ(m->default_sort_order_id, 0);
  EXPECT_TRUE(m->SortOrderById(0)->is_unsorted());
  EXPECT_FALSE(m->current_snapshot_id);
  EXPECT_EQ(m->CurrentSnapshot(), nullptr);
  ExpectRoundTrip(*m);
  // v1 documents keep the legacy single fields for older readers.
  nlohmann::json written = nlohmann::json::parse(WriteTableMetadata(*m));
  EXPECT_TRUE(written.contains("schema"));
  EXPECT_EQ(written["partition-spec"], PartitionFieldsToJson(m->DefaultSpec()));
  EXPECT_FALSE(written.contains("last-sequence-number"));
}

TEST_F(MetadataFixtures, V2Valid) {
  auto m = Parse("TableMetadataV2Valid.json");
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->format_version, 2);
  EXPECT_EQ(m->table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m->last_sequence_number, 34);
  EXPECT_EQ(m->current_schema_id, 1);
  EXPECT_EQ(m->SchemaById(1)->identifier_field_ids(), (std::vector<int>{1, 2}));
  EXPECT_EQ(m->default_sort_order_id, 3);
  const SortOrder* order = m->SortOrderById(3);
  ASSERT_NE(order, nullptr);
  ASSERT_EQ(order->fields().size(), 2u);
  EXPECT_EQ(order->fields()[1].transform, Transform::Bucket(4));
  EXPECT_EQ(order->fields()[1].direction, SortDirection::kDescending);
  EXPECT_EQ(order->fields()[1].null_order, NullOrder::kNullsLast);
  ASSERT_EQ(m->snapshots.size(), 2u);
  ASSERT_NE(m->CurrentSnapshot(), nullptr);
  EXPECT_EQ(m->CurrentSnapshot()->snapshot_id, 3055729675574597004);
  EXPECT_EQ(m->CurrentSnapshot()->operation(), "append");
  EXPECT_EQ(m->CurrentSnapshot()->schema_id, 1);
  // No refs in the document: main is derived from current-snapshot-id.
  ASSERT_TRUE(m->refs.contains("main"));
  EXPECT_EQ(m->refs.at("main").snapshot_id, 3055729675574597004);
  EXPECT_EQ(m->snapshot_log.size(), 2u);
  ExpectRoundTrip(*m);
}

TEST_F(MetadataFixtures, V2ValidMinimal) {
  auto m = Parse("TableMetadataV2ValidMinimal.json");
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_TRUE(m->snapshots.empty());
  EXPECT_TRUE(m->snapshot_log.empty());
  EXPECT_TRUE(m->refs.empty());
  EXPECT_TRUE(m->properties.empty());
  ExpectRoundTrip(*m);
}

TEST_F(MetadataFixtures, V3) {
  auto minimal = Parse("TableMetadataV3ValidMinimal.json");
  ASSERT_TRUE(minimal) << minimal.error().ToString();
  EXPECT_EQ(minimal->format_version, 3);
  EXPECT_EQ(minimal->next_row_id, 0);
  ExpectRoundTrip(*minimal);
  auto full = Parse("TableMetadataV3Valid.iceberg-cpp.json");
  ASSERT_TRUE(full) << full.error().ToString();
  EXPECT_EQ(full->next_row_id, 0);
  EXPECT_EQ(full->snapshots.size(), 2u);
  ExpectRoundTrip(*full);
  EXPECT_TRUE(nlohmann::json::parse(WriteTableMetadata(*full)).contains("next-row-id"));
}

TEST_F(MetadataFixtures, Statistics) {
  auto m = Parse("TableMetadataStatisticsFiles.json");
  ASSERT_TRUE(m) << m.error().ToString();
  ASSERT_EQ(m->statistics.size(), 1u);
  const StatisticsFile& f = m->statistics[0];
  EXPECT_EQ(f.snapshot_id, 3055729675574597004);
  EXPECT_EQ(f.statistics_path, "s3://a/b/stats.puffin");
  EXPECT_EQ(f.file_size_in_bytes, 413);
  EXPECT_EQ(f.file_footer_size_in_bytes, 42);
  ASSERT_EQ(f.blob_metadata.size(), 1u);
  EXPECT_EQ(f.blob_metadata[0]["type"], "ndv");
  ExpectRoundTrip(*m);

  auto p = Parse("TableMetadataPartitionStatisticsFiles.json");
  ASSERT_TRUE(p) << p.error().ToString();
  ASSERT_EQ(p->partition_statistics.size(), 1u);
  EXPECT_EQ(p->partition_statistics[0].statistics_path, "s3://a/b/partition-stats.parquet");
  EXPECT_EQ(p->partition_statistics[0].file_size_in_bytes, 43);
  ExpectRoundTrip(*p);
}

TEST_F(MetadataFixtures, FailuresNameTheProblem) {
  ExpectError("TableMetadataUnsupportedVersion.json", "unsupported format version: 42", ErrorKind::kNotSupported);
  ExpectError("TableMetadataV2MissingPartitionSpecs.json", "partition-specs must exist in format v2");
  ExpectError("TableMetadataV2MissingLastPartitionId.json", "last-partition-id must exist in format v2");
  ExpectError("TableMetadataV2MissingSortOrder.json", "sort-orders must exist in format v2");
  ExpectError("TableMetadataV2MissingSchemas.json", "schemas must exist in format v2");
  ExpectError("TableMetadataV2CurrentSchemaNotFound.json", "cannot find schema with current-schema-id=2");
  ExpectError("TableMetadataV1MissingSchemaType.json", "cannot parse type");
  ExpectError("ValidViewMetadata.json", "view, not a table");
}

// Every fixture in the folder is covered by one of the tests above.
TEST_F(MetadataFixtures, EveryFixtureHasAnExpectation) {
  int valid = 0, invalid = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    std::string name = entry.path().filename().string();
    static const std::set<std::string> kValid = {
        "TableMetadataV1Valid.json", "TableMetadataV2Valid.json", "TableMetadataV2ValidMinimal.json",
        "TableMetadataV3ValidMinimal.json", "TableMetadataV3Valid.iceberg-cpp.json",
        "TableMetadataStatisticsFiles.json", "TableMetadataPartitionStatisticsFiles.json"};
    bool expect_valid = kValid.contains(name);
    auto m = ParseTableMetadata(ReadText(entry.path()));
    EXPECT_EQ(static_cast<bool>(m), expect_valid) << name << (m ? "" : ": " + m.error().message);
    (expect_valid ? valid : invalid)++;
  }
  EXPECT_EQ(valid, 7);
  EXPECT_EQ(invalid, 8);
}

// Metadata written by Spark, PyIceberg and DuckDB tables parses and round-trips.
TEST(MetadataJson, TableFixturesRoundTrip) {
  auto dir = FixturesDir();
  if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "tables")) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".metadata.json")) continue;
    SCOPED_TRACE(entry.path().string());
    auto m = ParseTableMetadata(ReadText(entry.path()));
    ASSERT_TRUE(m) << m.error().ToString();
    ExpectRoundTrip(*m);
    ++count;
  }
  EXPECT_GE(count, 10);
}

TEST(MetadataJson, LegacyV1TableFromSpark) {
  auto dir = FixturesDir();
  if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
  auto m = ParseTableMetadata(ReadText(
      dir / "tables/duckdb-iceberg/data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata/v2.metadata.json"));
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->format_version, 1);
  ASSERT_NE(m->CurrentSnapshot(), nullptr);
  EXPECT_EQ(m->CurrentSnapshot()->sequence_number, 0);
}

TEST(MetadataJson, NestedTypesRoundTrip) {
  auto point = Type::Struct({NestedField{5, "x", Type::Double(), true, ""}, NestedField{6, "y", Type::Double(), true, ""}});
  auto tags = Type::List(NestedField{7, "element", Type::String(), false, ""});
  auto attrs = Type::Map(NestedField{8, "key", Type::String(), true, ""},
                         NestedField{9, "value", Type::Decimal(9, 2), true, ""});
  Schema schema(3,
                {NestedField{1, "id", Type::Long(), true, "the key"}, NestedField{2, "location", point, false, ""},
                 NestedField{3, "tags", tags, true, ""}, NestedField{4, "attrs", attrs, false, ""},
                 NestedField{10, "f", Type::Fixed(16), false, ""}, NestedField{11, "u", Type::Uuid(), false, ""},
                 NestedField{12, "tns", Type::TimestampTzNs(), false, ""}},
                {1});
  nlohmann::json j = SchemaToJson(schema);
  EXPECT_EQ(j["schema-id"], 3);
  EXPECT_EQ(j["identifier-field-ids"], nlohmann::json::array({1}));
  EXPECT_EQ(j["fields"][0]["doc"], "the key");
  EXPECT_EQ(j["fields"][2]["type"]["element-id"], 7);
  EXPECT_EQ(j["fields"][2]["type"]["element-required"], false);
  EXPECT_EQ(j["fields"][3]["type"]["key-id"], 8);
  EXPECT_EQ(j["fields"][3]["type"]["value-id"], 9);
  EXPECT_EQ(j["fields"][3]["type"]["value-required"], true);
  EXPECT_EQ(j["fields"][3]["type"]["value"], "decimal(9, 2)");
  EXPECT_EQ(j["fields"][4]["type"], "fixed[16]");
  auto back = SchemaFromJson(j);
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(back->schema_id(), 3);
  EXPECT_TRUE(back->SameStructure(schema));
}

TEST(MetadataJson, TypeErrors) {
  EXPECT_NE(TypeFromJson("variantx").error().message.find("Cannot parse type"), std::string::npos);
  EXPECT_NE(TypeFromJson(nlohmann::json{{"type", "list"}, {"element", "int"}}).error().message.find("element-id"),
            std::string::npos);
  EXPECT_NE(TypeFromJson(42).error().message.find("Cannot parse type"), std::string::npos);
  // v3 defaults are kept and written back as they came.
  auto t = TypeFromJson(nlohmann::json::parse(
      R"({"type":"struct","fields":[{"id":1,"name":"a","required":false,"type":"int","initial-default":3,"write-default":4}]})"));
  ASSERT_TRUE(t) << t.error().ToString();
  EXPECT_EQ(t.value()->fields()[0].name, "a");
  EXPECT_EQ(t.value()->fields()[0].initial_default, "3");
  EXPECT_EQ(t.value()->fields()[0].write_default, "4");
  EXPECT_EQ(TypeToJson(**t)["fields"][0]["initial-default"], 3);
  EXPECT_EQ(TypeToJson(**t)["fields"][0]["write-default"], 4);
  // A default that is no value of the field's type is refused, naming the field.
  auto bad = TypeFromJson(nlohmann::json::parse(
      R"({"type":"struct","fields":[{"id":1,"name":"when","required":false,"type":"date","initial-default":"soon"}]})"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("field 'when': initial-default \"soon\" is not a date"), std::string::npos)
      << bad.error().message;
}

TEST(MetadataJson, V1PartitionSpecWithoutFieldIds) {
  auto spec = PartitionSpecFromJson(nlohmann::json::parse(
      R"([{"name":"a","transform":"identity","source-id":1},{"name":"b","transform":"bucket[16]","source-id":2}])"));
  ASSERT_TRUE(spec) << spec.error().ToString();
  EXPECT_EQ(spec->fields()[0].field_id, 1000);
  EXPECT_EQ(spec->fields()[1].field_id, 1001);
  EXPECT_EQ(spec->fields()[1].transform, Transform::Bucket(16));
}

TEST(MetadataJson, V1SnapshotWithManifestsList) {
  auto s = SnapshotFromJson(nlohmann::json::parse(
      R"({"snapshot-id":5,"timestamp-ms":10,"manifests":["a.avro","b.avro"]})"));
  ASSERT_TRUE(s) << s.error().ToString();
  EXPECT_TRUE(s->manifest_list.empty());
  EXPECT_EQ(s->v1_manifests, (std::vector<std::string>{"a.avro", "b.avro"}));
  EXPECT_EQ(s->sequence_number, 0);
  auto back = SnapshotFromJson(SnapshotToJson(*s));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->v1_manifests, s->v1_manifests);
  auto missing = SnapshotFromJson(nlohmann::json::parse(R"({"snapshot-id":5,"timestamp-ms":10})"));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("manifest-list"), std::string::npos);
  EXPECT_NE(missing.error().message.find("snapshot 5"), std::string::npos);
}

TEST(MetadataJson, RefsAndCurrentSnapshotMustAgree) {
  TableMetadata m = testing::NewSampleTable();
  m.snapshots.push_back(testing::MakeSnapshot(10, {}, 1, 2000));
  m.last_sequence_number = 1;
  m.current_snapshot_id = 10;
  m.refs["main"] = testing::Branch(10);
  m.refs["audit"] = SnapshotRef{10, RefType::kTag, {}, {}, 86400000};
  ExpectRoundTrip(m);
  nlohmann::json j = TableMetadataToJson(m);
  EXPECT_EQ(j["refs"]["audit"]["type"], "tag");
  EXPECT_EQ(j["refs"]["audit"]["max-ref-age-ms"], 86400000);

  j["refs"]["main"]["snapshot-id"] = 11;
  auto bad = TableMetadataFromJson(j);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("ref 'main'"), std::string::npos) << bad.error().message;

  j = TableMetadataToJson(m);
  j["current-snapshot-id"] = 99;
  bad = TableMetadataFromJson(j);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("99"), std::string::npos) << bad.error().message;

  // current-snapshot-id null or -1 both mean "none".
  j = TableMetadataToJson(testing::NewSampleTable());
  j["current-snapshot-id"] = nullptr;
  auto none = TableMetadataFromJson(j);
  ASSERT_TRUE(none) << none.error().ToString();
  EXPECT_FALSE(none->current_snapshot_id);
}

TEST(MetadataJson, MissingAndMistypedFieldsAreNamed) {
  nlohmann::json j = TableMetadataToJson(testing::NewSampleTable());
  j.erase("location");
  auto m = TableMetadataFromJson(j);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(m.error().message.find("'location'"), std::string::npos) << m.error().message;

  j = TableMetadataToJson(testing::NewSampleTable());
  j["last-column-id"] = "three";
  m = TableMetadataFromJson(j);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("last-column-id"), std::string::npos) << m.error().message;

  j = TableMetadataToJson(testing::NewSampleTable());
  j.erase("table-uuid");
  m = TableMetadataFromJson(j);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("table-uuid must exist in format v2"), std::string::npos) << m.error().message;

  j = TableMetadataToJson(testing::NewSampleTable());
  j["schemas"][0]["fields"][1]["id"] = 1;  // duplicate field id
  m = TableMetadataFromJson(j);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("duplicate field id 1"), std::string::npos) << m.error().message;

  auto text = ParseTableMetadata("{\"format-version\": 2,");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(ParseTableMetadata("[1, 2]"));
}

TEST(MetadataJson, NormalizeIsParseThenWrite) {
  TableMetadata m = testing::NewSampleTable();
  std::string written = WriteTableMetadata(m);
  auto normalized = NormalizeMetadataJson(TableMetadataToJson(m).dump());
  ASSERT_TRUE(normalized) << normalized.error().ToString();
  EXPECT_EQ(*normalized, written);
  // Iceberg's key order, not alphabetical.
  EXPECT_LT(written.find("\"format-version\""), written.find("\"table-uuid\""));
  EXPECT_LT(written.find("\"table-uuid\""), written.find("\"location\""));
  EXPECT_FALSE(NormalizeMetadataJson("{}"));
}

}  // namespace
}  // namespace floe
