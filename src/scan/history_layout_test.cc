#include "scan/history_layout.h"

#include <gtest/gtest.h>

#include "meta/meta_test_util.h"

namespace floe {
namespace {

using Edges = std::vector<std::pair<size_t, size_t>>;

TableMetadata With(std::vector<Snapshot> snapshots, std::map<std::string, SnapshotRef> refs) {
  TableMetadata m = testing::NewSampleTable();
  m.snapshots = std::move(snapshots);
  m.refs = std::move(refs);
  return m;
}

TEST(HistoryLayout, LinearHistoryIsOneLane) {
  auto m = With({testing::MakeSnapshot(1, {}, 1, 10), testing::MakeSnapshot(2, 1, 2, 20),
                 testing::MakeSnapshot(3, 2, 3, 30)},
                {{"main", testing::Branch(3)}});
  auto rows = LayoutHistory(m);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].snapshot->snapshot_id, 3);
  EXPECT_EQ(rows[0].labels, std::vector<std::string>{"main"});
  for (const auto& r : rows) {
    EXPECT_EQ(r.lane, 0u);
    EXPECT_EQ(r.lanes, 1u);
  }
  EXPECT_EQ(rows[0].edges, (Edges{{0, 0}}));
  EXPECT_TRUE(rows[2].edges.empty()) << "the first snapshot has no parent";
}

TEST(HistoryLayout, SequenceNumbersOrderRowsNotTimestamps) {
  // Snapshot 2 was committed after 1 (higher sequence number) on a machine whose clock is behind.
  auto m = With({testing::MakeSnapshot(1, {}, 1, 50), testing::MakeSnapshot(2, 1, 2, 10)}, {});
  auto rows = LayoutHistory(m);
  EXPECT_EQ(rows[0].snapshot->snapshot_id, 2);
  EXPECT_EQ(rows[1].snapshot->snapshot_id, 1);
}

TEST(HistoryLayout, BranchesJoinAtTheirCommonAncestor) {
  // main: 1 <- 2 <- 4; dev: 1 <- 3 <- 5; tag v1 at 1.
  auto m = With({testing::MakeSnapshot(1, {}, 1, 10), testing::MakeSnapshot(2, 1, 2, 20),
                 testing::MakeSnapshot(3, 1, 3, 30), testing::MakeSnapshot(4, 2, 4, 40),
                 testing::MakeSnapshot(5, 3, 5, 50)},
                {{"main", testing::Branch(4)}, {"dev", testing::Branch(5)}, {"v1", SnapshotRef{1, RefType::kTag}}});
  auto rows = LayoutHistory(m);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].snapshot->snapshot_id, 5);  // dev's head, lane 0
  EXPECT_EQ(rows[0].labels, std::vector<std::string>{"dev"});
  EXPECT_EQ(rows[1].snapshot->snapshot_id, 4);  // main's head opens lane 1
  EXPECT_EQ(rows[1].lane, 1u);
  EXPECT_EQ(rows[1].lanes, 2u);
  EXPECT_EQ(rows[2].snapshot->snapshot_id, 3);
  EXPECT_EQ(rows[2].lane, 0u);
  // Snapshot 3's parent is 1, which lane 1 does not wait for yet (it waits for 2): no join.
  EXPECT_EQ(rows[2].edges, (Edges{{0, 0}, {1, 1}}));
  EXPECT_EQ(rows[3].snapshot->snapshot_id, 2);
  EXPECT_EQ(rows[3].lane, 1u);
  // Now both lanes wait for 1: lane 1 joins lane 0.
  EXPECT_EQ(rows[3].edges, (Edges{{0, 0}, {1, 0}}));
  EXPECT_EQ(rows[4].snapshot->snapshot_id, 1);
  EXPECT_EQ(rows[4].lanes, 1u);
  EXPECT_EQ(rows[4].labels, std::vector<std::string>{"tag: v1"});
}

TEST(HistoryLayout, LabelsPutMainFirstThenBranchesThenTags) {
  auto m = With({testing::MakeSnapshot(1, {}, 1, 10)},
                {{"a-tag", SnapshotRef{1, RefType::kTag}}, {"zeta", testing::Branch(1)}, {"main", testing::Branch(1)}});
  auto rows = LayoutHistory(m);
  EXPECT_EQ(rows[0].labels, (std::vector<std::string>{"main", "zeta", "tag: a-tag"}));
}

TEST(HistoryLayout, ASnapshotWhoseParentWasExpiredEndsItsLane) {
  // 2's parent (1) is gone; 3 is an unrelated root in the same document.
  auto m = With({testing::MakeSnapshot(2, 1, 2, 20), testing::MakeSnapshot(3, {}, 3, 30)}, {});
  auto rows = LayoutHistory(m);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].edges.empty());
  EXPECT_TRUE(rows[1].edges.empty());
  EXPECT_EQ(rows[1].lane, 0u) << "the ended lane's place is free again";
}

}  // namespace
}  // namespace floe
