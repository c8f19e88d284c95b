#include "meta/table_update.h"

#include <gtest/gtest.h>

#include "meta/meta_test_util.h"
#include "meta/metadata_json.h"

namespace floe {
namespace {

using testing::Branch;
using testing::MakeSnapshot;
using testing::NewSampleTable;

// A table with snapshots 10 <- 11, main at 11, and a tag at 10.
TableMetadata TableWithSnapshots() {
  TableMetadata m = NewSampleTable();
  m.snapshots = {MakeSnapshot(10, {}, 1, 2000), MakeSnapshot(11, 10, 2, 3000)};
  m.last_sequence_number = 2;
  m.current_snapshot_id = 11;
  m.refs["main"] = Branch(11);
  m.refs["v1"] = SnapshotRef{10, RefType::kTag, {}, {}, {}};
  return m;
}

// ---- JSON forms ----

std::vector<TableRequirement> AllRequirements() {
  return {AssertCreate{},
          AssertTableUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
          AssertRefSnapshotId{"main", 11},
          AssertRefSnapshotId{"new-branch", std::nullopt},
          AssertLastAssignedFieldId{3},
          AssertCurrentSchemaId{0},
          AssertLastAssignedPartitionId{1000},
          AssertDefaultSpecId{0},
          AssertDefaultSortOrderId{0}};
}

std::vector<TableUpdate> AllUpdates() {
  StatisticsFile stats;
  stats.snapshot_id = 11;
  stats.statistics_path = "s3://b/stats.puffin";
  stats.file_size_in_bytes = 100;
  stats.file_footer_size_in_bytes = 20;
  stats.blob_metadata = nlohmann::json::parse(R"([{"type":"ndv","snapshot-id":11,"sequence-number":2,"fields":[1]}])");
  std::vector<PartitionField> fields{PartitionField{1, 1001, "id_bucket", Transform::Bucket(16)}};
  return {AssignUuid{"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
          UpgradeFormatVersion{3},
          AddSchema{testing::SampleSchema(), 3},
          AddSchema{testing::SampleSchema(), std::nullopt},
          SetCurrentSchema{-1},
          AddPartitionSpec{PartitionSpec(1, fields)},
          SetDefaultSpec{1},
          AddSortOrder{SortOrder(1, {SortField{Transform::Identity(), 1, SortDirection::kDescending, NullOrder::kNullsLast}})},
          SetDefaultSortOrder{-1},
          AddSnapshot{MakeSnapshot(12, 11, 3, 4000)},
          SetSnapshotRef{"main", Branch(12)},
          SetSnapshotRef{"retained", SnapshotRef{11, RefType::kBranch, 5, 3600000, 86400000}},
          SetSnapshotRef{"tag1", SnapshotRef{11, RefType::kTag, {}, {}, 1000}},
          RemoveSnapshots{{10, 11}},
          RemoveSnapshotRef{"tag1"},
          SetLocation{"s3://bucket/moved"},
          SetProperties{{{"commit.retry.num-retries", "7"}, {"owner", "ana"}}},
          RemoveProperties{{"owner", "absent"}},
          SetStatistics{stats},
          RemoveStatistics{11},
          SetPartitionStatistics{PartitionStatisticsFile{11, "s3://b/p.parquet", 43}},
          RemovePartitionStatistics{11},
          RemovePartitionSpecs{{0}},
          RemoveSchemas{{0, 1}}};
}

TEST(TableUpdateJson, EveryRequirementRoundTrips) {
  for (const auto& r : AllRequirements()) {
    nlohmann::json j = RequirementToJson(r);
    EXPECT_EQ(j["type"], RequirementName(r));
    auto back = RequirementFromJson(j);
    ASSERT_TRUE(back) << back.error().ToString();
    EXPECT_EQ(RequirementToJson(*back), j);
  }
}

TEST(TableUpdateJson, RequirementFieldsAreTheRestSpecs) {
  nlohmann::json j = RequirementToJson(AssertRefSnapshotId{"main", 11});
  EXPECT_EQ(j, nlohmann::json::parse(R"({"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":11})"));
  // A null snapshot-id is written (the field is required) and means "must not exist".
  j = RequirementToJson(AssertRefSnapshotId{"b", std::nullopt});
  ASSERT_TRUE(j.contains("snapshot-id"));
  EXPECT_TRUE(j["snapshot-id"].is_null());
  EXPECT_EQ(RequirementToJson(AssertLastAssignedFieldId{3})["last-assigned-field-id"], 3);
  EXPECT_EQ(RequirementToJson(AssertLastAssignedPartitionId{1000})["last-assigned-partition-id"], 1000);
  EXPECT_EQ(RequirementToJson(AssertCurrentSchemaId{1})["current-schema-id"], 1);
  EXPECT_EQ(RequirementToJson(AssertDefaultSpecId{1})["default-spec-id"], 1);
  EXPECT_EQ(RequirementToJson(AssertDefaultSortOrderId{1})["default-sort-order-id"], 1);
  EXPECT_EQ(RequirementToJson(AssertTableUuid{"u"})["uuid"], "u");
  EXPECT_EQ(RequirementToJson(AssertCreate{}), nlohmann::json::parse(R"({"type":"assert-create"})"));
}

TEST(TableUpdateJson, EveryUpdateRoundTrips) {
  for (const auto& u : AllUpdates()) {
    nlohmann::json j = UpdateToJson(u);
    EXPECT_EQ(j["action"], UpdateName(u));
    auto back = UpdateFromJson(j);
    ASSERT_TRUE(back) << UpdateName(u) << ": " << back.error().ToString();
    EXPECT_EQ(UpdateToJson(*back), j) << UpdateName(u);
  }
}

TEST(TableUpdateJson, UpdateFieldsAreTheRestSpecs) {
  nlohmann::json j = UpdateToJson(SetSnapshotRef{"main", SnapshotRef{12, RefType::kBranch, 2, {}, 5000}});
  EXPECT_EQ(j, nlohmann::json::parse(R"({"action":"set-snapshot-ref","ref-name":"main","type":"branch",
      "snapshot-id":12,"min-snapshots-to-keep":2,"max-ref-age-ms":5000})"));
  EXPECT_EQ(UpdateToJson(SetProperties{{{"a", "1"}}}), nlohmann::json::parse(R"({"action":"set-properties","updates":{"a":"1"}})"));
  EXPECT_EQ(UpdateToJson(RemoveProperties{{"a"}}), nlohmann::json::parse(R"({"action":"remove-properties","removals":["a"]})"));
  EXPECT_EQ(UpdateToJson(SetCurrentSchema{-1})["schema-id"], -1);
  EXPECT_EQ(UpdateToJson(SetDefaultSpec{-1})["spec-id"], -1);
  EXPECT_EQ(UpdateToJson(SetDefaultSortOrder{-1})["sort-order-id"], -1);
  EXPECT_EQ(UpdateToJson(UpgradeFormatVersion{2})["format-version"], 2);
  EXPECT_EQ(UpdateToJson(RemoveSnapshots{{1, 2}})["snapshot-ids"], nlohmann::json::array({1, 2}));
  nlohmann::json snap = UpdateToJson(AddSnapshot{MakeSnapshot(12, 11, 3, 4000)});
  EXPECT_EQ(snap["action"], "add-snapshot");
  EXPECT_EQ(snap["snapshot"]["summary"]["operation"], "append");
  EXPECT_EQ(snap["snapshot"]["parent-snapshot-id"], 11);
  EXPECT_EQ(UpdateToJson(AddPartitionSpec{PartitionSpec::Unpartitioned()})["action"], "add-spec");
}

TEST(TableUpdateJson, ParsesWhatOtherClientsSend) {
  // As PyIceberg / Java send a create: spec without field ids or spec id, schema without id.
  auto spec = UpdateFromJson(nlohmann::json::parse(
      R"({"action":"add-spec","spec":{"fields":[{"name":"x","transform":"identity","source-id":1}]}})"));
  ASSERT_TRUE(spec) << spec.error().ToString();
  EXPECT_EQ(std::get<AddPartitionSpec>(*spec).spec.fields()[0].field_id, 1000);
  auto schema = UpdateFromJson(nlohmann::json::parse(
      R"({"action":"add-schema","schema":{"type":"struct","fields":[{"id":1,"name":"x","required":false,"type":"long"}]},"last-column-id":1})"));
  ASSERT_TRUE(schema) << schema.error().ToString();
  EXPECT_EQ(std::get<AddSchema>(*schema).last_column_id, 1);
  // set-statistics with the deprecated top-level snapshot-id.
  auto stats = UpdateFromJson(nlohmann::json::parse(
      R"({"action":"set-statistics","snapshot-id":5,"statistics":{"snapshot-id":5,"statistics-path":"p",
          "file-size-in-bytes":1,"file-footer-size-in-bytes":1,"blob-metadata":[]}})"));
  ASSERT_TRUE(stats) << stats.error().ToString();
  EXPECT_EQ(std::get<SetStatistics>(*stats).statistics.snapshot_id, 5);
}

void ExpectUpdateError(const std::string& text, const std::string& phrase) {
  auto u = UpdateFromJson(nlohmann::json::parse(text));
  ASSERT_FALSE(u) << text;
  EXPECT_EQ(u.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(u.error().message.find(phrase), std::string::npos) << u.error().message;
}

TEST(TableUpdateJson, BadUpdatesGiveClearErrors) {
  ExpectUpdateError(R"({"action":"add-view-version","view-version":{}})", "unknown table update action 'add-view-version'");
  ExpectUpdateError(R"({"updates":{}})", "missing required field 'action'");
  ExpectUpdateError(R"({"action":"set-properties"})", "missing required field 'updates'");
  ExpectUpdateError(R"({"action":"set-properties","updates":{"a":["x"]}})", "updates.a");
  ExpectUpdateError(R"({"action":"remove-properties","removals":"a"})", "'removals' must be an array");
  ExpectUpdateError(R"({"action":"set-current-schema","schema-id":"1"})", "'schema-id' must be an int");
  ExpectUpdateError(R"({"action":"set-snapshot-ref","ref-name":"b","type":"leaf","snapshot-id":1})", "unknown snapshot ref type 'leaf'");
  ExpectUpdateError(R"({"action":"set-snapshot-ref","ref-name":"b","type":"tag","snapshot-id":1,"min-snapshots-to-keep":2})", "tag");
  ExpectUpdateError(R"({"action":"add-snapshot","snapshot":{"snapshot-id":1}})", "timestamp-ms");
  ExpectUpdateError(R"({"action":"add-sort-order","sort-order":{"order-id":1,"fields":[{"transform":"identity","source-id":1,"direction":"up","null-order":"nulls-first"}]}})", "unknown sort direction 'up'");
  ExpectUpdateError(R"({"action":"add-spec","spec":{"fields":[{"name":"x","transform":"bucket[x]","source-id":1}]}})", "partition spec 0 field 0");
  ExpectUpdateError(R"([1])", "must be a JSON object");

  auto r = RequirementFromJson(nlohmann::json::parse(R"({"type":"assert-something"})"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("unknown table requirement type 'assert-something'"), std::string::npos);
  r = RequirementFromJson(nlohmann::json::parse(R"({"type":"assert-ref-snapshot-id","snapshot-id":1})"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("'ref'"), std::string::npos) << r.error().message;
}

// ---- CheckRequirement ----

void ExpectConflict(const TableRequirement& r, const TableMetadata* m, const std::string& message) {
  Status st = CheckRequirement(r, m);
  ASSERT_FALSE(st) << RequirementName(r) << " should fail";
  EXPECT_EQ(st.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(st.error().message, message);
}

TEST(CheckRequirement, AssertCreate) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertCreate{}, nullptr));
  ExpectConflict(AssertCreate{}, &m, "Requirement failed: table already exists");
}

TEST(CheckRequirement, AssertTableUuid) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertTableUuid{m.table_uuid}, &m));
  std::string upper = m.table_uuid;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_TRUE(CheckRequirement(AssertTableUuid{upper}, &m));  // uuids compare case-insensitively
  ExpectConflict(AssertTableUuid{"00000000-0000-0000-0000-000000000000"}, &m,
                 "Requirement failed: UUID does not match: expected 00000000-0000-0000-0000-000000000000 != " +
                     m.table_uuid);
  ExpectConflict(AssertTableUuid{m.table_uuid}, nullptr,
                 "Requirement failed: table does not exist (assert-table-uuid)");
}

TEST(CheckRequirement, AssertRefSnapshotId) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertRefSnapshotId{"main", 11}, &m));
  EXPECT_TRUE(CheckRequirement(AssertRefSnapshotId{"v1", 10}, &m));
  EXPECT_TRUE(CheckRequirement(AssertRefSnapshotId{"new", std::nullopt}, &m));
  ExpectConflict(AssertRefSnapshotId{"main", 10}, &m, "Requirement failed: branch main has changed: expected id 10 != 11");
  ExpectConflict(AssertRefSnapshotId{"v1", 11}, &m, "Requirement failed: tag v1 has changed: expected id 11 != 10");
  ExpectConflict(AssertRefSnapshotId{"main", std::nullopt}, &m, "Requirement failed: branch main was created concurrently");
  ExpectConflict(AssertRefSnapshotId{"dev", 11}, &m, "Requirement failed: branch or tag dev is missing, expected 11");
  // An empty table has no main: a first append asserts exactly that.
  TableMetadata empty = NewSampleTable();
  EXPECT_TRUE(CheckRequirement(AssertRefSnapshotId{"main", std::nullopt}, &empty));
}

TEST(CheckRequirement, AssertLastAssignedFieldId) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertLastAssignedFieldId{3}, &m));
  ExpectConflict(AssertLastAssignedFieldId{2}, &m, "Requirement failed: last assigned field id changed: expected id 2 != 3");
}

TEST(CheckRequirement, AssertCurrentSchemaId) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertCurrentSchemaId{0}, &m));
  ExpectConflict(AssertCurrentSchemaId{1}, &m, "Requirement failed: current schema changed: expected id 1 != 0");
}

TEST(CheckRequirement, AssertLastAssignedPartitionId) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertLastAssignedPartitionId{1000}, &m));
  ExpectConflict(AssertLastAssignedPartitionId{999}, &m,
                 "Requirement failed: last assigned partition id changed: expected id 999 != 1000");
}

TEST(CheckRequirement, AssertDefaultSpecId) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertDefaultSpecId{0}, &m));
  ExpectConflict(AssertDefaultSpecId{1}, &m, "Requirement failed: default partition spec changed: expected id 1 != 0");
}

TEST(CheckRequirement, AssertDefaultSortOrderId) {
  TableMetadata m = TableWithSnapshots();
  EXPECT_TRUE(CheckRequirement(AssertDefaultSortOrderId{0}, &m));
  ExpectConflict(AssertDefaultSortOrderId{1}, &m, "Requirement failed: default sort order changed: expected id 1 != 0");
}

}  // namespace
}  // namespace floe
