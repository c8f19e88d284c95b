#include "meta/table_metadata.h"

#include <gtest/gtest.h>

#include "meta/meta_test_util.h"

namespace floe {
namespace {

using testing::Branch;
using testing::MakeSnapshot;
using testing::NewSampleTable;

// 10 <- 11 <- 12 on main; 13 (parent 11) on branch "dev"; log: 10@100, 11@200, 12@300.
TableMetadata History() {
  TableMetadata m = NewSampleTable();
  m.snapshots = {MakeSnapshot(10, {}, 1, 100), MakeSnapshot(11, 10, 2, 200), MakeSnapshot(12, 11, 3, 300),
                 MakeSnapshot(13, 11, 4, 250)};
  m.last_sequence_number = 4;
  m.current_snapshot_id = 12;
  m.refs["main"] = Branch(12);
  m.refs["dev"] = Branch(13);
  m.snapshot_log = {{100, 10}, {200, 11}, {300, 12}};
  return m;
}

TEST(TableMetadata, Lookups) {
  TableMetadata m = History();
  ASSERT_TRUE(m.Validate()) << m.Validate().error().ToString();
  EXPECT_EQ(m.SchemaById(0), &m.schemas[0]);
  EXPECT_EQ(m.SchemaById(5), nullptr);
  EXPECT_EQ(&m.CurrentSchema(), &m.schemas[0]);
  EXPECT_EQ(m.SpecById(0)->fields().size(), 1u);
  EXPECT_EQ(m.SpecById(1), nullptr);
  EXPECT_EQ(m.DefaultSpec().spec_id(), 0);
  EXPECT_TRUE(m.SortOrderById(0)->is_unsorted());
  EXPECT_EQ(m.SnapshotById(11)->timestamp_ms, 200);
  EXPECT_EQ(m.SnapshotById(99), nullptr);
  EXPECT_EQ(m.CurrentSnapshot()->snapshot_id, 12);
  EXPECT_EQ(m.SnapshotForRef("main")->snapshot_id, 12);
  EXPECT_EQ(m.SnapshotForRef("dev")->snapshot_id, 13);
  EXPECT_EQ(m.SnapshotForRef("nope"), nullptr);
}

TEST(TableMetadata, CurrentSnapshotPrefersMain) {
  TableMetadata m = History();
  m.refs.erase("main");
  EXPECT_EQ(m.CurrentSnapshot()->snapshot_id, 12);  // falls back to current-snapshot-id
  m.refs.clear();
  EXPECT_EQ(m.SnapshotForRef("main")->snapshot_id, 12);  // an old document's implicit main
  m.current_snapshot_id.reset();
  EXPECT_EQ(m.CurrentSnapshot(), nullptr);
  TableMetadata empty = NewSampleTable();
  EXPECT_EQ(empty.CurrentSnapshot(), nullptr);
  EXPECT_EQ(empty.SnapshotAsOf(1000000), nullptr);
}

TEST(TableMetadata, SnapshotAsOfFollowsTheLog) {
  TableMetadata m = History();
  EXPECT_EQ(m.SnapshotAsOf(99), nullptr);
  EXPECT_EQ(m.SnapshotAsOf(100)->snapshot_id, 10);
  EXPECT_EQ(m.SnapshotAsOf(199)->snapshot_id, 10);
  // 13 was made at 250 but never current on main: time travel does not see it.
  EXPECT_EQ(m.SnapshotAsOf(260)->snapshot_id, 11);
  EXPECT_EQ(m.SnapshotAsOf(5000)->snapshot_id, 12);
}

TEST(TableMetadata, Ancestry) {
  TableMetadata m = History();
  std::vector<int64_t> ids;
  for (const Snapshot* s : m.Ancestry(13)) ids.push_back(s->snapshot_id);
  EXPECT_EQ(ids, (std::vector<int64_t>{13, 11, 10}));
  // Expired history ends the walk.
  m.snapshots.erase(m.snapshots.begin());
  ids.clear();
  for (const Snapshot* s : m.Ancestry(12)) ids.push_back(s->snapshot_id);
  EXPECT_EQ(ids, (std::vector<int64_t>{12, 11}));
  EXPECT_TRUE(m.Ancestry(99).empty());
}

TEST(TableMetadata, Properties) {
  TableMetadata m = NewSampleTable();
  m.properties = {{"n", "7"}, {"bad", "7x"}, {"t", "TRUE"}, {"f", "false"}, {"s", "hello"}};
  EXPECT_EQ(m.Property("s", "d"), "hello");
  EXPECT_EQ(m.Property("missing", "d"), "d");
  EXPECT_EQ(m.CountProperty("n", 1).value_or(-1), 7);
  EXPECT_EQ(m.CountProperty("missing", 3).value_or(-1), 3);
  auto bad = m.CountProperty("bad", 1);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message, "table property bad='7x' is not valid: expected a non-negative whole number");
  EXPECT_TRUE(m.BooleanProperty("t", false).value_or(false));
  EXPECT_FALSE(m.BooleanProperty("f", true).value_or(true));
  EXPECT_TRUE(m.BooleanProperty("missing", true).value_or(false));
  auto not_boolean = m.BooleanProperty("s", true);
  ASSERT_FALSE(not_boolean.has_value());
  EXPECT_NE(not_boolean.error().message.find("s='hello'"), std::string::npos);
}

TEST(TableMetadata, ValidateNamesTheBrokenRule) {
  auto expect = [](TableMetadata m, const std::string& phrase) {
    Status st = m.Validate();
    ASSERT_FALSE(st) << phrase;
    EXPECT_NE(st.error().message.find(phrase), std::string::npos) << st.error().message;
  };
  TableMetadata m = History();
  m.current_schema_id = 4;
  expect(m, "current-schema-id=4");
  m = History();
  m.default_spec_id = 2;
  expect(m, "default-spec-id=2");
  m = History();
  m.default_sort_order_id = 2;
  expect(m, "default-sort-order-id=2");
  m = History();
  m.refs["x"] = Branch(77);
  expect(m, "ref 'x' points to snapshot 77");
  m = History();
  m.current_snapshot_id = 11;
  expect(m, "does not match the main branch");
  m = History();
  m.last_sequence_number = 3;
  expect(m, "greater than last-sequence-number 3");
  m = History();
  m.last_column_id = 2;
  expect(m, "above last-column-id 2");
  m = History();
  m.last_partition_id = 999;
  expect(m, "above last-partition-id 999");
  m = History();
  m.table_uuid.clear();
  expect(m, "table-uuid must exist in format v2");
  m.format_version = 1;
  EXPECT_TRUE(m.Validate());  // v1 documents may lack a uuid
}

}  // namespace
}  // namespace floe
