#include "meta/metadata_builder.h"

#include <gtest/gtest.h>

#include "meta/meta_test_util.h"
#include "meta/metadata_json.h"
#include "meta/property_values.h"
#include "meta/table_properties.h"

namespace floe {
namespace {

using testing::Branch;
using testing::MakeSnapshot;
using testing::NewSampleTable;
using testing::SampleSchema;

constexpr const char* kBaseLocation = "s3://bucket/t/metadata/00000-a.metadata.json";

void ExpectInvalid(const Status& st, const std::string& phrase) {
  ASSERT_FALSE(st) << "expected an error containing '" << phrase << "'";
  EXPECT_EQ(st.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(st.error().message.find(phrase), std::string::npos) << st.error().message;
}

void ExpectInvalid(const Result<TableMetadata>& r, const std::string& phrase) {
  ASSERT_FALSE(r) << "expected an error containing '" << phrase << "'";
  ExpectInvalid(Status(std::unexpected(r.error())), phrase);
}

// Applies updates to `base` as a commit would, at time `now`.
Result<TableMetadata> Commit(const TableMetadata& base, const std::vector<TableUpdate>& updates, int64_t now,
                             const std::string& location = kBaseLocation) {
  return ApplyCommit(&base, location, {}, updates, now);
}

// ---- creating a table ----

TEST(NewTable, FreshIdsForSchemaSpecAndOrder) {
  // ids chosen by a user: deliberately not 1..n, with nesting.
  auto point = Type::Struct({NestedField{50, "x", Type::Double(), true, ""}, NestedField{51, "y", Type::Double(), true, ""}});
  auto tags = Type::List(NestedField{60, "element", Type::String(), false, ""});
  Schema schema(7,
                {NestedField{20, "id", Type::Long(), true, ""}, NestedField{30, "location", point, false, ""},
                 NestedField{40, "tags", tags, false, ""}, NestedField{45, "ts", Type::Timestamp(), false, ""}},
                {20});
  PartitionSpec spec(4, {PartitionField{45, 1500, "ts_day", Transform::Day()},
                         PartitionField{20, 1501, "id_bucket", Transform::Bucket(8)}});
  SortOrder order(9, {SortField{Transform::Identity(), 45, SortDirection::kDescending, NullOrder::kNullsLast}});
  auto updates = NewTableUpdates(schema, spec, order, "s3://b/t", {{"owner", "ana"}, {"format-version", "1"}});
  ASSERT_TRUE(updates) << updates.error().ToString();
  auto m = ApplyCommit(nullptr, "", {AssertCreate{}}, *updates, 5000);
  ASSERT_TRUE(m) << m.error().ToString();

  EXPECT_EQ(m->format_version, 1);  // from the reserved property, which is not stored
  EXPECT_EQ(m->properties, (std::map<std::string, std::string>{{"owner", "ana"}}));
  EXPECT_EQ(m->location, "s3://b/t");
  EXPECT_EQ(m->table_uuid.size(), 36u);
  EXPECT_EQ(m->last_updated_ms, 5000);
  EXPECT_TRUE(m->metadata_log.empty());
  const Schema& s = m->CurrentSchema();
  EXPECT_EQ(s.schema_id(), 0);
  // Top-level columns first (1..4), then nested fields in order.
  EXPECT_EQ(s.FindField("id")->id, 1);
  EXPECT_EQ(s.FindField("location")->id, 2);
  EXPECT_EQ(s.FindField("tags")->id, 3);
  EXPECT_EQ(s.FindField("ts")->id, 4);
  EXPECT_EQ(s.FindField("location.x")->id, 5);
  EXPECT_EQ(s.FindField("location.y")->id, 6);
  EXPECT_EQ(s.FindField("tags.element")->id, 7);
  EXPECT_EQ(s.identifier_field_ids(), (std::vector<int>{1}));
  EXPECT_EQ(m->last_column_id, 7);
  const PartitionSpec& p = m->DefaultSpec();
  EXPECT_EQ(p.spec_id(), 0);
  ASSERT_EQ(p.fields().size(), 2u);
  EXPECT_EQ(p.fields()[0].source_id, 4);
  EXPECT_EQ(p.fields()[0].field_id, 1000);
  EXPECT_EQ(p.fields()[1].source_id, 1);
  EXPECT_EQ(p.fields()[1].field_id, 1001);
  EXPECT_EQ(m->last_partition_id, 1001);
  EXPECT_EQ(m->default_sort_order_id, 1);
  EXPECT_EQ(m->SortOrderById(1)->fields()[0].source_id, 4);
}

TEST(NewTable, UnsortedOrderIsZeroAndCreateTwiceConflicts) {
  TableMetadata m = NewSampleTable();
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.default_sort_order_id, 0);
  EXPECT_TRUE(m.SortOrderById(0)->is_unsorted());
  EXPECT_EQ(m.current_schema_id, 0);
  EXPECT_EQ(m.last_sequence_number, 0);
  EXPECT_FALSE(m.current_snapshot_id);
  auto again = ApplyCommit(&m, kBaseLocation, {AssertCreate{}}, {SetLocation{"s3://x"}}, 2000);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kCommitConflict);
}

TEST(NewTable, BadInputsAreRefused) {
  EXPECT_FALSE(NewTableUpdates(SampleSchema(), PartitionSpec::Unpartitioned(), SortOrder::Unsorted(), "", {}));
  PartitionSpec on_missing(0, {PartitionField{99, 1000, "nope", Transform::Identity()}});
  auto u = NewTableUpdates(SampleSchema(), on_missing, SortOrder::Unsorted(), "s3://b/t", {});
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().message.find("99"), std::string::npos);
  EXPECT_FALSE(NewTableUpdates(SampleSchema(), PartitionSpec::Unpartitioned(), SortOrder::Unsorted(), "s3://b/t",
                               {{"format-version", "9"}}));
}

TEST(NewTable, BuiltMetadataRoundTrips) {
  for (int v : {1, 2, 3}) {
    TableMetadata m = NewSampleTable(v);
    EXPECT_EQ(m.format_version, v);
    auto again = ParseTableMetadata(WriteTableMetadata(m));
    ASSERT_TRUE(again) << again.error().ToString();
    EXPECT_EQ(TableMetadataToJson(*again), TableMetadataToJson(m));
  }
}

// ---- snapshots, refs and the two logs ----

TEST(Builder, AppendMovesMainAndLogs) {
  TableMetadata base = NewSampleTable(2, 1000);
  auto m = Commit(base, {AddSnapshot{MakeSnapshot(10, {}, 1, 1500)}, SetSnapshotRef{"main", Branch(10)}}, 2000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->current_snapshot_id, 10);
  EXPECT_EQ(m->CurrentSnapshot()->snapshot_id, 10);
  EXPECT_EQ(m->last_sequence_number, 1);
  EXPECT_EQ(m->last_updated_ms, 2000);
  ASSERT_EQ(m->snapshot_log.size(), 1u);
  EXPECT_EQ(m->snapshot_log[0].snapshot_id, 10);
  EXPECT_EQ(m->snapshot_log[0].timestamp_ms, 1500);  // when the snapshot was made
  ASSERT_EQ(m->metadata_log.size(), 1u);
  EXPECT_EQ(m->metadata_log[0].metadata_file, kBaseLocation);
  EXPECT_EQ(m->metadata_log[0].timestamp_ms, 1000);  // the base's last-updated-ms
  auto again = ParseTableMetadata(WriteTableMetadata(*m));
  ASSERT_TRUE(again);
  EXPECT_EQ(TableMetadataToJson(*again), TableMetadataToJson(*m));
}

TEST(Builder, SequenceNumberMustAdvance) {
  TableMetadata base = *Commit(NewSampleTable(), {AddSnapshot{MakeSnapshot(10, {}, 5, 1500)}}, 2000);
  MetadataBuilder b = MetadataBuilder::From(base, kBaseLocation);
  ExpectInvalid(b.Apply(AddSnapshot{MakeSnapshot(11, 10, 5, 1600)}),
                "Cannot add snapshot with sequence number 5 older than last sequence number 5");
  // A snapshot without a parent (a replace transaction's) may reuse the sequence number.
  auto replaced = Commit(base, {AddSnapshot{MakeSnapshot(12, {}, 5, 1600)}}, 2100);
  ASSERT_TRUE(replaced) << replaced.error().ToString();
  EXPECT_EQ(replaced->last_sequence_number, 5);
  // The builder is spent: nothing is produced.
  EXPECT_FALSE(b.Build(3000));
  EXPECT_FALSE(b.Apply(SetProperties{{{"a", "b"}}}));
  // v1 tables have no sequence numbers.
  TableMetadata v1 = NewSampleTable(1);
  auto m = Commit(v1, {AddSnapshot{MakeSnapshot(10, {}, 0, 1500)}, AddSnapshot{MakeSnapshot(11, 10, 0, 1600)}}, 2000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->last_sequence_number, 0);
}

TEST(Builder, SnapshotAndRefValidation) {
  TableMetadata base = NewSampleTable();
  ExpectInvalid(Commit(base, {SetSnapshotRef{"main", Branch(42)}}, 2000),
                "Cannot set main to unknown snapshot: 42");
  ExpectInvalid(Commit(base, {AddSnapshot{MakeSnapshot(10, {}, 1, 1)}, AddSnapshot{MakeSnapshot(10, {}, 2, 1)}}, 2000),
                "Snapshot already exists for id: 10");
  ExpectInvalid(Commit(base, {AddSnapshot{MakeSnapshot(10, {}, 1, 1)},
                              SetSnapshotRef{"main", SnapshotRef{10, RefType::kTag, {}, {}, {}}}},
                       2000),
                "main must be a branch");
}

TEST(Builder, RollbackLogsTheCommitTime) {
  TableMetadata m = *Commit(NewSampleTable(), {AddSnapshot{MakeSnapshot(10, {}, 1, 1500)}, SetSnapshotRef{"main", Branch(10)}}, 2000);
  m = *Commit(m, {AddSnapshot{MakeSnapshot(11, 10, 2, 2500)}, SetSnapshotRef{"main", Branch(11)}}, 3000);
  auto rolled = Commit(m, {SetSnapshotRef{"main", Branch(10)}}, 4000);
  ASSERT_TRUE(rolled) << rolled.error().ToString();
  EXPECT_EQ(rolled->current_snapshot_id, 10);
  ASSERT_EQ(rolled->snapshot_log.size(), 3u);
  EXPECT_EQ(rolled->snapshot_log[2].snapshot_id, 10);
  EXPECT_EQ(rolled->snapshot_log[2].timestamp_ms, 4000);
  EXPECT_EQ(rolled->SnapshotAsOf(2600)->snapshot_id, 11);
  EXPECT_EQ(rolled->SnapshotAsOf(4000)->snapshot_id, 10);
  // Setting main where it already is changes nothing: the base comes back as it was.
  auto same = Commit(*rolled, {SetSnapshotRef{"main", Branch(10)}}, 5000);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->last_updated_ms, rolled->last_updated_ms);
  EXPECT_EQ(same->metadata_log.size(), rolled->metadata_log.size());
}

TEST(Builder, IntermediateMainOfOneCommitIsNotLogged) {
  auto m = Commit(NewSampleTable(), {AddSnapshot{MakeSnapshot(10, {}, 1, 1500)}, SetSnapshotRef{"main", Branch(10)},
                                     AddSnapshot{MakeSnapshot(11, 10, 2, 1600)}, SetSnapshotRef{"main", Branch(11)}},
                  2000);
  ASSERT_TRUE(m) << m.error().ToString();
  ASSERT_EQ(m->snapshot_log.size(), 1u);
  EXPECT_EQ(m->snapshot_log[0].snapshot_id, 11);
}

TEST(Builder, MetadataLogIsBounded) {
  TableMetadata m = NewSampleTable(2, 100);
  m = *Commit(m, {SetProperties{{{props::kMetadataPreviousVersionsMax, "3"}}}}, 200, "v0.json");
  for (int i = 1; i <= 5; ++i)
    m = *Commit(m, {SetProperties{{{"counter", std::to_string(i)}}}}, 200 + 100 * i, "v" + std::to_string(i) + ".json");
  ASSERT_EQ(m.metadata_log.size(), 3u);
  EXPECT_EQ(m.metadata_log[0].metadata_file, "v3.json");
  EXPECT_EQ(m.metadata_log[1].metadata_file, "v4.json");
  EXPECT_EQ(m.metadata_log[2].metadata_file, "v5.json");
  EXPECT_EQ(m.metadata_log[2].timestamp_ms, 600);  // v5's last-updated-ms
  // The default bound is 100.
  TableMetadata d = NewSampleTable();
  for (int i = 0; i < 105; ++i)
    d = *Commit(d, {SetProperties{{{"counter", std::to_string(i)}}}}, 2000 + i, "m" + std::to_string(i));
  EXPECT_EQ(d.metadata_log.size(), 100u);
  EXPECT_EQ(d.metadata_log.front().metadata_file, "m5");
}

TEST(Builder, RemoveSnapshotsTakesRefsStatsAndOldHistory) {
  TableMetadata m = *Commit(NewSampleTable(), {AddSnapshot{MakeSnapshot(10, {}, 1, 1500)}, SetSnapshotRef{"main", Branch(10)}}, 2000);
  m = *Commit(m, {AddSnapshot{MakeSnapshot(11, 10, 2, 2500)}, SetSnapshotRef{"main", Branch(11)},
                  SetSnapshotRef{"old", SnapshotRef{10, RefType::kTag, {}, {}, {}}},
                  SetStatistics{StatisticsFile{10, "s.puffin", 1, 1, {}, nlohmann::json::array()}},
                  SetPartitionStatistics{PartitionStatisticsFile{10, "p.parquet", 1}}},
              3000);
  auto expired = Commit(m, {RemoveSnapshots{{10}}}, 4000);
  ASSERT_TRUE(expired) << expired.error().ToString();
  EXPECT_EQ(expired->snapshots.size(), 1u);
  EXPECT_FALSE(expired->refs.contains("old"));
  EXPECT_TRUE(expired->statistics.empty());
  EXPECT_TRUE(expired->partition_statistics.empty());
  ASSERT_EQ(expired->snapshot_log.size(), 1u);
  EXPECT_EQ(expired->snapshot_log[0].snapshot_id, 11);
  EXPECT_EQ(expired->current_snapshot_id, 11);
  // Removing what main points at leaves no current snapshot.
  auto emptied = Commit(*expired, {RemoveSnapshots{{11}}}, 5000);
  ASSERT_TRUE(emptied) << emptied.error().ToString();
  EXPECT_FALSE(emptied->current_snapshot_id);
  EXPECT_TRUE(emptied->refs.empty());
  EXPECT_EQ(emptied->CurrentSnapshot(), nullptr);
  // remove-snapshot-ref main likewise.
  auto unref = Commit(*expired, {RemoveSnapshotRef{"main"}}, 5000);
  ASSERT_TRUE(unref);
  EXPECT_FALSE(unref->current_snapshot_id);
  EXPECT_EQ(unref->snapshots.size(), 1u);
}

// ---- schemas, specs, sort orders ----

TEST(Builder, SchemaEvolution) {
  TableMetadata base = NewSampleTable();
  Schema wider(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""},
                   NestedField{3, "ts", Type::TimestampTz(), false, ""}, NestedField{4, "extra", Type::Int(), false, ""}},
               {1});
  auto m = Commit(base, {AddSchema{wider, std::nullopt}, SetCurrentSchema{-1}}, 2000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->current_schema_id, 1);
  EXPECT_EQ(m->last_column_id, 4);
  // Dropping a column: a new schema, but last-column-id never goes back.
  Schema narrower(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{3, "ts", Type::TimestampTz(), false, ""}}, {1});
  auto n = Commit(*m, {AddSchema{narrower, std::nullopt}, SetCurrentSchema{-1}}, 3000);
  ASSERT_TRUE(n) << n.error().ToString();
  EXPECT_EQ(n->current_schema_id, 2);
  EXPECT_EQ(n->last_column_id, 4);
  // Re-adding a schema the table already has reuses its id.
  auto back = Commit(*n, {AddSchema{wider, std::nullopt}, SetCurrentSchema{-1}}, 4000);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->schemas.size(), 3u);
  EXPECT_EQ(back->current_schema_id, 1);

  ExpectInvalid(Commit(base, {SetCurrentSchema{7}}, 2000),
                "Cannot set current schema to unknown schema: 7");
  ExpectInvalid(Commit(base, {SetCurrentSchema{-1}}, 2000), "no schema has been added");
  // A last-column-id below the table's (Iceberg Java 1.11 sends the schema's highest id, lower
  // after a drop of the last column) never lowers the table's.
  auto stale_last = Commit(base, {AddSchema{wider, 2}}, 2000);
  ASSERT_TRUE(stale_last) << stale_last.error().ToString();
  EXPECT_EQ(stale_last->last_column_id, std::max(base.last_column_id, wider.HighestFieldId()));
  Schema bad_identifier(0, {NestedField{1, "id", Type::Long(), false, ""}}, {1});
  ExpectInvalid(Commit(base, {AddSchema{bad_identifier, std::nullopt}}, 2000),
                "must be required");
  ExpectInvalid(Commit(base, {RemoveSchemas{{0}}}, 2000), "Cannot remove current schema: 0");
}

TEST(Builder, PartitionSpecEvolution) {
  TableMetadata base = NewSampleTable();
  PartitionSpec by_id(0, {PartitionField{3, 1000, "ts_day", Transform::Day()},
                          PartitionField{1, 1001, "id_bucket", Transform::Bucket(16)}});
  auto m = Commit(base, {AddPartitionSpec{by_id}, SetDefaultSpec{-1}}, 2000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->default_spec_id, 1);
  EXPECT_EQ(m->last_partition_id, 1001);
  // Re-adding the original spec reuses id 0.
  PartitionSpec original(5, base.DefaultSpec().fields());
  auto again = Commit(*m, {AddPartitionSpec{original}, SetDefaultSpec{-1}}, 3000);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->partition_specs.size(), 2u);
  EXPECT_EQ(again->default_spec_id, 0);
  EXPECT_EQ(again->last_partition_id, 1001);

  PartitionSpec on_missing(0, {PartitionField{42, 1002, "x", Transform::Identity()}});
  ExpectInvalid(Commit(base, {AddPartitionSpec{on_missing}}, 2000), "source column id 42");
  PartitionSpec bad_transform(0, {PartitionField{2, 1001, "data_day", Transform::Day()}});
  ExpectInvalid(Commit(base, {AddPartitionSpec{bad_transform}}, 2000), "day");
  ExpectInvalid(Commit(base, {SetDefaultSpec{3}}, 2000),
                "Cannot set default partition spec to unknown spec: 3");
  ExpectInvalid(Commit(base, {RemovePartitionSpecs{{0}}}, 2000),
                "Cannot remove the default partition spec");
  // v1 needs partition field ids 1000, 1001, ... in order.
  PartitionSpec gap(0, {PartitionField{1, 1005, "id", Transform::Identity()}});
  ExpectInvalid(Commit(NewSampleTable(1), {AddPartitionSpec{gap}}, 2000), "sequential IDs");
}

TEST(Builder, SortOrders) {
  TableMetadata base = NewSampleTable();
  SortOrder by_ts(0, {SortField{Transform::Identity(), 3, SortDirection::kDescending, NullOrder::kNullsLast}});
  auto m = Commit(base, {AddSortOrder{by_ts}, SetDefaultSortOrder{-1}}, 2000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->default_sort_order_id, 1);
  auto same = Commit(*m, {AddSortOrder{by_ts}}, 3000);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->sort_orders.size(), 2u);
  auto unsorted = Commit(*m, {AddSortOrder{SortOrder::Unsorted()}, SetDefaultSortOrder{-1}}, 3000);
  ASSERT_TRUE(unsorted);
  EXPECT_EQ(unsorted->default_sort_order_id, 0);
  SortOrder on_missing(0, {SortField{Transform::Identity(), 77, SortDirection::kAscending, NullOrder::kNullsFirst}});
  ExpectInvalid(Commit(base, {AddSortOrder{on_missing}}, 2000), "77");
  ExpectInvalid(Commit(base, {SetDefaultSortOrder{4}}, 2000),
                "Cannot set default sort order to unknown order: 4");
}

TEST(Builder, SpecReuseIgnoresFieldIds) {
  TableMetadata base = NewSampleTable();
  // The table's spec 0 again, numbered differently: Iceberg reuses spec 0.
  PartitionSpec renumbered(0, {PartitionField{3, 1007, "ts_day", Transform::Day()}});
  auto m = Commit(base, {AddPartitionSpec{renumbered}, SetDefaultSpec{-1}}, 2000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->partition_specs.size(), 1u);
  EXPECT_EQ(m->last_partition_id, 1000);
}

TEST(Builder, DefaultSpecMustFitTheCurrentSchema) {
  TableMetadata base = NewSampleTable();  // partitioned by day(ts), ts is field 3
  Schema without_ts(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "data", Type::String(), false, ""}}, {1});
  auto m = Commit(base, {AddSchema{without_ts, std::nullopt}, SetCurrentSchema{-1}}, 2000);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("Cannot find source column 3"), std::string::npos) << m.error().message;
  // Once the spec no longer uses ts (a void field may keep it), the drop is fine.
  PartitionSpec voided(0, {PartitionField{3, 1000, "ts_day", Transform::Void()}});
  auto ok = Commit(base, {AddPartitionSpec{voided}, SetDefaultSpec{-1}, AddSchema{without_ts, std::nullopt}, SetCurrentSchema{-1}}, 2000);
  ASSERT_TRUE(ok) << ok.error().ToString();
  EXPECT_EQ(ok->current_schema_id, 1);
}

TEST(Builder, LastUpdatedNeverRunsBackwards) {
  TableMetadata base = NewSampleTable(2, 10000);
  // This writer's clock is behind the one that wrote the base.
  auto m = Commit(base, {SetProperties{{{"a", "b"}}}}, 4000);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->last_updated_ms, 10000);
  // A snapshot stamped later than the committer's clock.
  auto s = Commit(*m, {AddSnapshot{MakeSnapshot(10, {}, 1, 20000)}, SetSnapshotRef{"main", Branch(10)}}, 15000);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->last_updated_ms, 20000);
}

TEST(Builder, LogEntriesOfExpiredSnapshotsOnlyClearedWhenRemoving) {
  // A document whose log names a snapshot that is already gone (written by another engine).
  TableMetadata m = *Commit(NewSampleTable(), {AddSnapshot{MakeSnapshot(10, {}, 1, 1500)}, SetSnapshotRef{"main", Branch(10)},
                                               AddSnapshot{MakeSnapshot(11, 10, 2, 1600)}}, 2000);
  m.snapshot_log.insert(m.snapshot_log.begin(), SnapshotLogEntry{1000, 9});
  auto kept = Commit(m, {SetProperties{{{"a", "b"}}}}, 3000);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->snapshot_log.size(), 2u);
  auto removed = Commit(m, {RemoveSnapshots{{11}}}, 3000);
  ASSERT_TRUE(removed);
  ASSERT_EQ(removed->snapshot_log.size(), 1u);
  EXPECT_EQ(removed->snapshot_log[0].snapshot_id, 10);
}

// ---- table-level updates ----

TEST(Builder, FormatVersionUuidLocationProperties) {
  TableMetadata v1 = NewSampleTable(1);
  auto up = Commit(v1, {UpgradeFormatVersion{2}}, 2000);
  ASSERT_TRUE(up) << up.error().ToString();
  EXPECT_EQ(up->format_version, 2);
  ExpectInvalid(Commit(*up, {UpgradeFormatVersion{1}}, 3000), "Cannot downgrade v2 table to v1");
  ExpectInvalid(Commit(*up, {UpgradeFormatVersion{4}}, 3000), "unsupported format version: v4");
  auto v3 = Commit(*up, {UpgradeFormatVersion{3}}, 3000);
  ASSERT_TRUE(v3);
  EXPECT_EQ(v3->next_row_id, 0);

  TableMetadata m = NewSampleTable();
  EXPECT_TRUE(Commit(m, {AssignUuid{m.table_uuid}}, 2000));
  ExpectInvalid(Commit(m, {AssignUuid{"00000000-0000-0000-0000-000000000000"}}, 2000),
                "Cannot reassign uuid");
  auto moved = Commit(m, {SetLocation{"s3://other"}, SetProperties{{{"a", "1"}, {"b", "2"}}}, RemoveProperties{{"a", "zz"}}}, 2000);
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->location, "s3://other");
  EXPECT_EQ(moved->properties, (std::map<std::string, std::string>{{"b", "2"}}));
}

TEST(Builder, RowLineageInV3) {
  TableMetadata m = NewSampleTable(3);
  Snapshot s = MakeSnapshot(10, {}, 1, 1500);
  ExpectInvalid(Commit(m, {AddSnapshot{s}}, 2000), "first-row-id");
  s.first_row_id = 0;
  s.added_rows = 25;
  auto next = Commit(m, {AddSnapshot{s}, SetSnapshotRef{"main", Branch(10)}}, 2000);
  ASSERT_TRUE(next) << next.error().ToString();
  EXPECT_EQ(next->next_row_id, 25);
  Snapshot behind = MakeSnapshot(11, 10, 2, 1600);
  behind.first_row_id = 20;
  behind.added_rows = 1;
  ExpectInvalid(Commit(*next, {AddSnapshot{behind}}, 3000), "behind table next-row-id: 20 < 25");
  Snapshot no_count = MakeSnapshot(12, 10, 2, 1600);
  no_count.first_row_id = 25;
  ExpectInvalid(Commit(*next, {AddSnapshot{no_count}}, 3000), "added-rows is null");
  no_count.added_rows = -1;
  ExpectInvalid(Commit(*next, {AddSnapshot{no_count}}, 3000), "added-rows is negative");
}

TEST(ApplyCommit, RequirementsGateTheUpdates) {
  TableMetadata m = *Commit(NewSampleTable(), {AddSnapshot{MakeSnapshot(10, {}, 1, 1500)}, SetSnapshotRef{"main", Branch(10)}}, 2000);
  std::vector<TableUpdate> append{AddSnapshot{MakeSnapshot(11, 10, 2, 2500)}, SetSnapshotRef{"main", Branch(11)}};
  auto stale = ApplyCommit(&m, kBaseLocation, {AssertRefSnapshotId{"main", std::nullopt}}, append, 3000);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitConflict);
  EXPECT_EQ(stale.error().message, "Requirement failed: branch main was created concurrently");
  auto ok = ApplyCommit(&m, kBaseLocation, {AssertTableUuid{m.table_uuid}, AssertRefSnapshotId{"main", 10}}, append, 3000);
  ASSERT_TRUE(ok) << ok.error().ToString();
  EXPECT_EQ(ok->current_snapshot_id, 11);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// A create and an append as a REST client puts them on the wire, parsed and applied.
TEST(ApplyCommit, RestClientRequestsFromJson) {
  auto create = nlohmann::json::parse(R"({
    "requirements": [{"type": "assert-create"}],
    "updates": [
      {"action": "assign-uuid", "uuid": "2b0f3c4e-5d6a-4b7c-8d9e-0f1a2b3c4d5e"},
      {"action": "upgrade-format-version", "format-version": 2},
      {"action": "add-schema", "last-column-id": 2, "schema": {"type": "struct", "schema-id": 0,
        "identifier-field-ids": [], "fields": [
          {"id": 1, "name": "id", "required": false, "type": "long"},
          {"id": 2, "name": "name", "required": false, "type": "string"}]}},
      {"action": "set-current-schema", "schema-id": -1},
      {"action": "add-spec", "spec": {"spec-id": 0, "fields": [
          {"source-id": 1, "field-id": 1000, "transform": "bucket[4]", "name": "id_bucket"}]}},
      {"action": "set-default-spec", "spec-id": -1},
      {"action": "add-sort-order", "sort-order": {"order-id": 0, "fields": []}},
      {"action": "set-default-sort-order", "sort-order-id": -1},
      {"action": "set-location", "location": "file:///warehouse/db/t"},
      {"action": "set-properties", "updates": {"write.format.default": "parquet"}}
    ]})");
  std::vector<TableRequirement> requirements;
  for (const auto& r : create["requirements"]) requirements.push_back(*RequirementFromJson(r));
  std::vector<TableUpdate> updates;
  for (const auto& u : create["updates"]) {
    auto parsed = UpdateFromJson(u);
    ASSERT_TRUE(parsed) << parsed.error().ToString();
    updates.push_back(*parsed);
  }
  auto m = ApplyCommit(nullptr, "", requirements, updates, 1000);
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->table_uuid, "2b0f3c4e-5d6a-4b7c-8d9e-0f1a2b3c4d5e");
  EXPECT_EQ(m->DefaultSpec().fields()[0].transform, Transform::Bucket(4));
  EXPECT_EQ(m->last_partition_id, 1000);
  EXPECT_EQ(m->Property("write.format.default", ""), "parquet");

  auto append = nlohmann::json::parse(R"({
    "requirements": [{"type": "assert-table-uuid", "uuid": "2b0f3c4e-5d6a-4b7c-8d9e-0f1a2b3c4d5e"},
                     {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": null}],
    "updates": [
      {"action": "add-snapshot", "snapshot": {"snapshot-id": 77, "sequence-number": 1, "timestamp-ms": 1500,
        "manifest-list": "file:///warehouse/db/t/metadata/snap-77.avro",
        "summary": {"operation": "append", "added-records": "3"}, "schema-id": 0}},
      {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch", "snapshot-id": 77}
    ]})");
  requirements.clear();
  updates.clear();
  for (const auto& r : append["requirements"]) requirements.push_back(*RequirementFromJson(r));
  for (const auto& u : append["updates"]) updates.push_back(*UpdateFromJson(u));
  auto next = ApplyCommit(&*m, "file:///warehouse/db/t/metadata/00000-x.metadata.json", requirements, updates, 2000);
  ASSERT_TRUE(next) << next.error().ToString();
  EXPECT_EQ(next->CurrentSnapshot()->snapshot_id, 77);
  EXPECT_EQ(next->CurrentSnapshot()->summary.at("added-records"), "3");
  EXPECT_EQ(next->last_sequence_number, 1);
  // The same append again: main now exists, so the requirement fails.
  auto again = ApplyCommit(&*next, "v2.json", requirements, updates, 3000);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kCommitConflict);
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// Values of properties floe reads are checked when set; everything else is kept as given.
TEST(Builder, PropertiesFloeReadsMustHoldValuesItCanRead) {
  const std::vector<std::pair<std::string, std::string>> good = {
      {"commit.retry.num-retries", "0"},           {"commit.manifest.target-size-bytes", "8388608"},
      {"write.target-file-size-bytes", "134217728"}, {"commit.manifest.merge.enabled", "FALSE"},
      {"write.delete.isolation-level", "snapshot"}, {"write.update.mode", "merge-on-read"},
      {"owner", "anything at all"},                  {"write.format.default", "parquet"}};
  for (const auto& [k, v] : good) EXPECT_TRUE(CheckPropertyValue(k, v).has_value()) << k << "=" << v;

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"commit.retry.min-wait-ms", "-1"},          {"commit.manifest.min-count-to-merge", "many"},
      {"write.target-file-size-bytes", "128MB"},   {"commit.manifest.merge.enabled", "yes"},
      {"write.merge.isolation-level", "read-committed"}, {"write.delete.mode", "merge_on_read"}};
  for (const auto& [k, v] : bad) {
    auto checked = CheckPropertyValue(k, v);
    ASSERT_FALSE(checked.has_value()) << k << "=" << v;
    EXPECT_NE(checked.error().message.find(k + "='" + v + "'"), std::string::npos) << checked.error().message;
  }

  // Through the builder: the whole update is refused and nothing of it applies.
  const TableMetadata base = NewSampleTable(2);
  auto refused = ApplyCommit(&base, kBaseLocation, {},
                             {SetProperties{{{"owner", "ana"}, {"write.update.isolation-level", "strict"}}}}, 2000);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(refused.error().message.find("write.update.isolation-level='strict'"), std::string::npos);
  auto applied = ApplyCommit(&base, kBaseLocation, {}, {SetProperties{{{"write.update.isolation-level", "snapshot"}}}}, 2000);
  ASSERT_TRUE(applied.has_value()) << applied.error().message;
  EXPECT_EQ(applied->properties.at("write.update.isolation-level"), "snapshot");
}

// Field defaults are format 3: a v2 table refuses a schema carrying one, a v3 table keeps it
// (also through the updates that create a table, which give fields fresh ids).
TEST(MetadataBuilder, FieldDefaultsNeedFormatThree) {
  NestedField level{2, "level", Type::Int(), false, ""};
  level.initial_default = "3";
  level.write_default = "4";
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, level});
  for (int version : {2, 3}) {
    auto b = MetadataBuilder::ForNewTable(version);
    auto updates = NewTableUpdates(schema, PartitionSpec::Unpartitioned(), SortOrder::Unsorted(), "/t", {}, version);
    ASSERT_TRUE(updates) << updates.error().ToString();
    ASSERT_TRUE(b.ApplyAll(*updates));
    auto m = b.Build(1000);
    if (version == 2) {
      ASSERT_FALSE(m);
      EXPECT_NE(m.error().message.find("Invalid initial default for level: non-null default (3) is not supported until v3"),
                std::string::npos)
          << m.error().message;
      continue;
    }
    ASSERT_TRUE(m) << m.error().ToString();
    const NestedField* kept = m->CurrentSchema().FindField("level");
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(kept->initial_default, "3");
    EXPECT_EQ(kept->write_default, "4");
  }
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// The format 3 types: a v1/v2 table refuses a schema holding one (nested too), naming the field
// and the type; a v3 table keeps them, parameters included.
TEST(MetadataBuilder, FormatThreeTypesNeedFormatThree) {
  NestedField point{5, "where", Type::Geography("srid:4326", "karney"), false, ""};
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "at", Type::TimestampNs(), false, ""},
                    NestedField{3, "doc", Type::Variant(), false, ""}, NestedField{4, "gone", Type::Unknown(), false, ""},
                    NestedField{6, "inner", Type::Struct({point}), false, ""}});
  for (int version : {1, 2, 3}) {
    auto b = MetadataBuilder::ForNewTable(version);
    auto updates = NewTableUpdates(schema, PartitionSpec::Unpartitioned(), SortOrder::Unsorted(), "/t", {}, version);
    ASSERT_TRUE(updates) << updates.error().ToString();
    ASSERT_TRUE(b.ApplyAll(*updates));
    auto m = b.Build(1000);
    if (version < 3) {
      ASSERT_FALSE(m);
      EXPECT_NE(m.error().message.find("Invalid type for at: timestamp_ns is not supported until v3"), std::string::npos)
          << m.error().message;
      continue;
    }
    ASSERT_TRUE(m) << m.error().ToString();
    const Schema& kept = m->CurrentSchema();
    EXPECT_EQ(kept.FindField("doc")->type->id(), TypeId::kVariant);
    EXPECT_EQ(kept.FindField("gone")->type->id(), TypeId::kUnknown);
    EXPECT_EQ(kept.FindField("inner.where")->type->ToString(), "geography(srid:4326, karney)");
  }
  // Only the nested geography: still refused, naming it.
  Schema nested(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{6, "inner", Type::Struct({point}), false, ""}});
  auto b = MetadataBuilder::ForNewTable(2);
  auto updates = NewTableUpdates(nested, PartitionSpec::Unpartitioned(), SortOrder::Unsorted(), "/t", {}, 2);
  ASSERT_TRUE(updates);
  ASSERT_TRUE(b.ApplyAll(*updates));
  auto m = b.Build(1000);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("Invalid type for where: geography(srid:4326, karney) is not supported until v3"),
            std::string::npos)
      << m.error().message;
}

}  // namespace
}  // namespace floe
