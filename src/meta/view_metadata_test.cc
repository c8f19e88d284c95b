#include "meta/view_metadata.h"

#include <gtest/gtest.h>

#include "meta/meta_test_util.h"
#include "meta/view_builder.h"
#include "meta/view_json.h"

namespace floe {
namespace {

using testing::FixturesDir;
using testing::ReadText;

ViewVersion SqlVersion(int id, int64_t ts, std::string sql, std::string dialect = "spark", int schema_id = -1) {
  ViewVersion v;
  v.version_id = id;
  v.timestamp_ms = ts;
  v.schema_id = schema_id;
  v.summary = {{"engine-name", "floe"}};
  v.representations.push_back(ViewRepresentation{"sql", std::move(sql), std::move(dialect), ""});
  v.default_namespace = {"ns"};
  return v;
}

Schema OneColumn(int id = 0) { return Schema(id, {NestedField{1, "n", Type::Long(), false, ""}}); }

// A new view as a REST create does it: location, schema, version, make it current.
ViewMetadata NewView(const std::string& sql = "SELECT 1 AS n") {
  ViewMetadataBuilder b("0a4c5d4e-0000-4000-8000-000000000001");
  EXPECT_TRUE(b.ApplyAll({SetLocation{"s3://b/wh/ns/v"}, AddSchema{OneColumn(), std::nullopt},
                          AddViewVersion{SqlVersion(1, 1000, sql)}, SetCurrentViewVersion{-1}}));
  auto m = b.Build();
  EXPECT_TRUE(m) << m.error().ToString();
  return *m;
}

void ExpectError(const Result<ViewMetadata>& m, ErrorKind kind, const std::string& phrase) {
  ASSERT_FALSE(m) << "expected an error containing '" << phrase << "'";
  EXPECT_EQ(m.error().kind, kind) << m.error().ToString();
  EXPECT_NE(m.error().message.find(phrase), std::string::npos) << m.error().message;
}

TEST(ViewMetadataFixture, JavaWrittenDocumentReadsAndRoundTrips) {
  auto dir = FixturesDir();
  if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
  auto m = ParseViewMetadata(ReadText(dir / "metadata" / "ValidViewMetadata.json"));
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->view_uuid, "fa6506c3-7681-40c8-86dc-e36561f83385");
  EXPECT_EQ(m->location, "s3://bucket/test/location");
  EXPECT_EQ(m->current_version_id, 2);
  ASSERT_EQ(m->versions.size(), 2u);
  EXPECT_EQ(m->CurrentVersion().representations[0].sql, "select 1 id, 'abc' data");
  EXPECT_EQ(m->CurrentVersion().representations[0].dialect, "spark-sql");
  EXPECT_EQ(m->CurrentVersion().default_catalog, "some-catalog");
  EXPECT_EQ(m->CurrentSchema().fields().size(), 3u);
  ASSERT_EQ(m->version_log.size(), 2u);
  EXPECT_EQ(m->version_log[1].timestamp_ms, 5555);
  EXPECT_EQ(m->properties.at("comment"), "some-comment");

  const std::string written = WriteViewMetadata(*m);
  auto again = ParseViewMetadata(written);
  ASSERT_TRUE(again) << again.error().ToString();
  EXPECT_EQ(ViewMetadataToJson(*again), ViewMetadataToJson(*m));
  EXPECT_EQ(WriteViewMetadata(*again), written);
  // Iceberg Java's key order.
  EXPECT_EQ(written.find("{\"view-uuid\":"), 0u) << written;
  EXPECT_LT(written.find("\"format-version\""), written.find("\"location\""));
  EXPECT_LT(written.find("\"schemas\""), written.find("\"current-version-id\""));
  EXPECT_LT(written.find("\"versions\""), written.find("\"version-log\""));
}

class ViewDocument : public ::testing::Test {
 protected:
  nlohmann::json Valid() { return ViewMetadataToJson(NewView()); }
};

TEST_F(ViewDocument, MissingCurrentVersionIdIsNamed) {
  auto j = Valid();
  j.erase("current-version-id");
  ExpectError(ViewMetadataFromJson(j), ErrorKind::kCorrupt, "current-version-id");
}

TEST_F(ViewDocument, RepresentationWithoutDialectIsNamed) {
  auto j = Valid();
  j["versions"][0]["representations"][0].erase("dialect");
  ExpectError(ViewMetadataFromJson(j), ErrorKind::kCorrupt, "dialect");
}

TEST_F(ViewDocument, CurrentVersionMustExist) {
  auto j = Valid();
  j["current-version-id"] = 7;
  ExpectError(ViewMetadataFromJson(j), ErrorKind::kCorrupt, "current-version-id 7 names no version");
}

TEST_F(ViewDocument, VersionWithUnknownSchemaIsRefused) {
  auto j = Valid();
  j["versions"][0]["schema-id"] = 4;
  ExpectError(ViewMetadataFromJson(j), ErrorKind::kCorrupt, "schema-id 4");
}

TEST_F(ViewDocument, OtherFormatVersionIsNotSupported) {
  auto j = Valid();
  j["format-version"] = 2;
  ExpectError(ViewMetadataFromJson(j), ErrorKind::kNotSupported, "format-version 2");
}

TEST_F(ViewDocument, TableDocumentIsNotAView) {
  auto j = Valid();
  j["table-uuid"] = "x";
  ExpectError(ViewMetadataFromJson(j), ErrorKind::kCorrupt, "this is a table");
}

TEST_F(ViewDocument, NotJsonIsCorrupt) {
  ExpectError(ParseViewMetadata("{\"view-uuid\": "), ErrorKind::kCorrupt, "view metadata");
  ExpectError(ParseViewMetadata("[1, 2]"), ErrorKind::kCorrupt, "object");
}

TEST_F(ViewDocument, UnknownRepresentationTypeSurvivesARewrite) {
  auto j = Valid();
  j["versions"][0]["representations"].push_back({{"type", "substrait"}, {"plan", "AAAA"}});
  auto m = ViewMetadataFromJson(j);
  ASSERT_TRUE(m) << m.error().ToString();
  auto again = ParseViewMetadata(WriteViewMetadata(*m));
  ASSERT_TRUE(again) << again.error().ToString();
  ASSERT_EQ(again->versions[0].representations.size(), 2u);
  EXPECT_EQ(ViewMetadataToJson(*again)["versions"][0]["representations"][1]["plan"], "AAAA");
}

TEST(ViewBuilder, CreateRecordsVersionOneInTheLog) {
  ViewMetadata m = NewView();
  EXPECT_EQ(m.current_version_id, 1);
  EXPECT_EQ(m.CurrentVersion().schema_id, 0);  // -1: the schema added in the same commit
  ASSERT_EQ(m.version_log.size(), 1u);
  EXPECT_EQ(m.version_log[0].version_id, 1);
  EXPECT_EQ(m.version_log[0].timestamp_ms, 1000);
}

TEST(ViewBuilder, CreateWithoutCurrentVersionIsRefused) {
  ViewMetadataBuilder b("u");
  ASSERT_TRUE(b.ApplyAll({SetLocation{"/wh/v"}, AddSchema{OneColumn(), std::nullopt},
                          AddViewVersion{SqlVersion(1, 1, "SELECT 1 AS n")}}));
  ExpectError(b.Build(), ErrorKind::kInvalidArgument, "without specifying a current version");
}

TEST(ViewBuilder, ReplaceAddsAVersionAndAnIdenticalOneIsReused) {
  ViewMetadata v1 = NewView();
  ViewMetadataBuilder replace(v1);
  ASSERT_TRUE(replace.ApplyAll({AddSchema{OneColumn(0), std::nullopt},
                                AddViewVersion{SqlVersion(1, 2000, "SELECT 2 AS n")}, SetCurrentViewVersion{-1}}));
  auto v2 = replace.Build();
  ASSERT_TRUE(v2) << v2.error().ToString();
  EXPECT_EQ(v2->current_version_id, 2);  // the highest id + 1, whatever id the request carried
  EXPECT_EQ(v2->schemas.size(), 1u);      // the same schema is not added twice
  ASSERT_EQ(v2->version_log.size(), 2u);

  // Back to the first SQL: its version is reused, and the log records the switch.
  ViewMetadataBuilder back(*v2);
  ASSERT_TRUE(back.ApplyAll({AddViewVersion{SqlVersion(5, 3000, "SELECT 1 AS n", "spark", 0)},
                             SetCurrentViewVersion{-1}}));
  auto v3 = back.Build();
  ASSERT_TRUE(v3) << v3.error().ToString();
  EXPECT_EQ(v3->versions.size(), 2u);
  EXPECT_EQ(v3->current_version_id, 1);
  ASSERT_EQ(v3->version_log.size(), 3u);
  EXPECT_EQ(v3->version_log.back().version_id, 1);
}

TEST(ViewBuilder, DroppingADialectIsRefusedUnlessAllowed) {
  ViewMetadata v1 = NewView();
  auto replace = [&](const ViewMetadata& base) {
    ViewMetadataBuilder b(base);
    EXPECT_TRUE(b.ApplyAll({AddViewVersion{SqlVersion(2, 2000, "SELECT 2 AS n", "trino", 0)},
                            SetCurrentViewVersion{-1}}));
    return b.Build();
  };
  ExpectError(replace(v1), ErrorKind::kInvalidArgument, "loss of view dialects");
  v1.properties[kViewDropDialectAllowedProperty] = "true";
  EXPECT_TRUE(replace(v1));
}

TEST(ViewBuilder, HistorySizeBoundsVersionsAndLog) {
  ViewMetadata m = NewView();
  m.properties[kViewHistorySizeProperty] = "2";
  for (int i = 2; i <= 5; ++i) {
    ViewMetadataBuilder b(m);
    ASSERT_TRUE(b.ApplyAll({AddViewVersion{SqlVersion(i, 1000 * i, "SELECT " + std::to_string(i) + " AS n", "spark", 0)},
                            SetCurrentViewVersion{-1}}));
    auto next = b.Build();
    ASSERT_TRUE(next) << next.error().ToString();
    m = *next;
  }
  ASSERT_EQ(m.versions.size(), 2u);
  EXPECT_EQ(m.current_version_id, 5);
  EXPECT_TRUE(m.Version(4));
  ASSERT_EQ(m.version_log.size(), 2u);
  EXPECT_EQ(m.version_log[0].version_id, 4);
  EXPECT_EQ(m.version_log[1].version_id, 5);

  m.properties[kViewHistorySizeProperty] = "0";
  ViewMetadataBuilder b(m);
  ASSERT_TRUE(b.Apply(SetProperties{{{"k", "v"}}}));
  ExpectError(b.Build(), ErrorKind::kInvalidArgument, "version.history.num-entries must be a positive integer");
}

TEST(ViewBuilder, BadVersionsAreRefused) {
  ViewMetadata m = NewView();
  ViewMetadataBuilder unknown_schema(m);
  auto s = unknown_schema.Apply(AddViewVersion{SqlVersion(2, 1, "SELECT 3", "spark", 9)});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "Cannot add version with unknown schema: 9");

  ViewMetadataBuilder two_sparks(m);
  ViewVersion v = SqlVersion(2, 1, "SELECT 3", "spark", 0);
  v.representations.push_back(ViewRepresentation{"sql", "SELECT 4", "Spark", ""});
  s = two_sparks.Apply(AddViewVersion{v});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("multiple queries for dialect spark"), std::string::npos) << s.error().message;

  ViewMetadataBuilder unknown_current(m);
  s = unknown_current.Apply(SetCurrentViewVersion{42});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, "Cannot set current version to unknown version: 42");

  ViewMetadataBuilder reassign(m);
  s = reassign.Apply(AssignUuid{"another"});
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("Cannot reassign view uuid"), std::string::npos);
}

TEST(ViewUpdates, RestJsonFormsRoundTrip) {
  const char* texts[] = {
      R"({"action":"assign-uuid","uuid":"u-1"})",
      R"({"action":"upgrade-format-version","format-version":1})",
      R"({"action":"set-location","location":"s3://b/v"})",
      R"({"action":"set-properties","updates":{"a":"1"}})",
      R"({"action":"remove-properties","removals":["a"]})",
      R"({"action":"set-current-view-version","view-version-id":-1})",
      R"({"action":"add-view-version","view-version":{"version-id":1,"timestamp-ms":5,"schema-id":0,)"
      R"("summary":{"engine-name":"spark"},"default-namespace":["ns"],)"
      R"("representations":[{"type":"sql","sql":"SELECT 1","dialect":"spark"}]}})",
  };
  for (const char* text : texts) {
    auto j = nlohmann::json::parse(text);
    auto u = ViewUpdateFromJson(j);
    ASSERT_TRUE(u) << text << ": " << u.error().ToString();
    auto back = ViewUpdateToJson(*u);
    auto again = ViewUpdateFromJson(back);
    ASSERT_TRUE(again) << back.dump();
    EXPECT_EQ(ViewUpdateToJson(*again), back) << text;
    EXPECT_EQ(back["action"], j["action"]);
  }
  auto schema = ViewUpdateFromJson(nlohmann::json::parse(
      R"({"action":"add-schema","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"n","required":false,"type":"long"}]}})"));
  ASSERT_TRUE(schema) << schema.error().ToString();
  EXPECT_TRUE(std::holds_alternative<AddSchema>(*schema));
}

TEST(ViewUpdates, TableActionsAndBadFormsAreRefusedByName) {
  auto snapshot = ViewUpdateFromJson(nlohmann::json::parse(R"({"action":"set-default-spec","spec-id":0})"));
  ASSERT_FALSE(snapshot);
  EXPECT_NE(snapshot.error().message.find("set-default-spec does not apply to a view"), std::string::npos)
      << snapshot.error().message;
  auto no_version = ViewUpdateFromJson(nlohmann::json::parse(R"({"action":"add-view-version"})"));
  ASSERT_FALSE(no_version);
  EXPECT_NE(no_version.error().message.find("view-version"), std::string::npos) << no_version.error().message;
  auto no_dialect = ViewUpdateFromJson(nlohmann::json::parse(
      R"({"action":"add-view-version","view-version":{"version-id":1,"timestamp-ms":5,"schema-id":0,)"
      R"("summary":{},"default-namespace":[],"representations":[{"type":"sql","sql":"SELECT 1"}]}})"));
  ASSERT_FALSE(no_dialect);
  EXPECT_NE(no_dialect.error().message.find("dialect"), std::string::npos) << no_dialect.error().message;
  auto requirement = ViewRequirementFromJson(nlohmann::json::parse(R"({"type":"assert-current-schema-id"})"));
  ASSERT_FALSE(requirement);
  EXPECT_NE(requirement.error().message.find("assert-view-uuid"), std::string::npos);
}

TEST(ViewUpdates, UuidRequirementIsAConflictWhenTheViewWasReplaced) {
  ViewMetadata m = NewView();
  auto r = ViewRequirementFromJson(nlohmann::json::parse(R"({"type":"assert-view-uuid","uuid":"other"})"));
  ASSERT_TRUE(r);
  auto s = CheckViewRequirement(*r, &m);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(s.error().message.find("Requirement failed: view UUID does not match"), std::string::npos);
  EXPECT_TRUE(CheckViewRequirement(AssertViewUuid{"0A4C5D4E-0000-4000-8000-000000000001"}, &m));
  EXPECT_FALSE(CheckViewRequirement(AssertViewUuid{"x"}, nullptr));
}

}  // namespace
}  // namespace floe
