// Merge-on-read writes after partition evolution: an upsert, delete or update must reach the
// rows of every spec's data files. An equality delete applies only within its own spec and
// partition (or everywhere from an unpartitioned spec), so one written under the new spec alone
// left the old spec's rows of the same key alive: a key twice in the table.
#include <gtest/gtest.h>

#include "table_files/manifest_io.h"
#include "rows/key_delete_plan.h"
#include "rows/partition_evolution_test_util.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using evolution_test::Evolution;
using evolution_test::Op;

class PartitionEvolutionDeletes : public ::testing::TestWithParam<std::tuple<Evolution, Op>> {};

TEST_P(PartitionEvolutionDeletes, EveryKeyOnceInFloesScan) {
  const auto& [evolution, op] = GetParam();
  txn_test::OrdersTable t;  // a throwaway catalog; the scenario creates its own table in it
  TableIdentifier id{{"sales"}, "evolved"};
  auto model = evolution_test::BuildScenario(t.catalog(), id, evolution, op);
  EXPECT_EQ(evolution_test::ScanLines(t.catalog(), id), evolution_test::ModelLines(model));
}

INSTANTIATE_TEST_SUITE_P(
    AllEvolutions, PartitionEvolutionDeletes,
    ::testing::Combine(::testing::ValuesIn(evolution_test::Evolutions()),
                       ::testing::Values(Op::kUpsert, Op::kDelete, Op::kUpdate)),
    [](const auto& info) {
      return std::get<0>(info.param).name + "_" + evolution_test::OpName(std::get<1>(info.param));
    });

// The reproduction, with the delete files' specs checked: the upsert's equality delete
// is global (under the old, unpartitioned spec), so it reaches the old file.
TEST(PartitionEvolutionDeletes, UpsertAfterAddingABucketWritesAGlobalEqualityDelete) {
  txn_test::OrdersTable t;
  TableIdentifier id{{"sales"}, "evolved"};
  evolution_test::Evolution evolution{"new_key_field", "", {}, {"bucket(2, id)"}};
  auto model = evolution_test::BuildScenario(t.catalog(), id, evolution, Op::kUpsert);
  EXPECT_EQ(evolution_test::ScanLines(t.catalog(), id), evolution_test::ModelLines(model));
  auto table = t.catalog().LoadTable(id);
  ASSERT_TRUE(table.has_value());
  auto manifests = ReadManifestList(*t.catalog().io(), table->metadata, *table->metadata.CurrentSnapshot());
  ASSERT_TRUE(manifests.has_value());
  int equality_files = 0;
  for (const auto& m : *manifests) {
    if (m.content != ManifestContent::kDeletes) continue;
    auto entries = ReadManifestEntries(*t.catalog().io(), table->metadata, m);
    ASSERT_TRUE(entries.has_value());
    for (const auto& e : *entries) {
      if (e.file.content != FileContent::kEqualityDeletes) continue;
      ++equality_files;
      EXPECT_EQ(e.file.spec_id, 0);
      EXPECT_TRUE(e.file.partition.empty());
    }
  }
  EXPECT_EQ(equality_files, 1);
}

// The spec forbids new position delete files in v3 tables: a merge-on-read delete on a table
// upgraded to v3 deletes by deletion vector instead.
TEST(PartitionEvolutionDeletes, PositionDeletesOnV3TablesAreDeletionVectors) {
  txn_test::OrdersTable t("", {{"write.delete.mode", "merge-on-read"}});
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), txn_test::Batch({{1, "DE", 100}, {2, "FR", 200}})).has_value());
  MetadataChange upgrade;
  upgrade.updates.push_back(UpgradeFormatVersion{3});
  ASSERT_TRUE(CommitMetadataChange(t.catalog(), t.id(), upgrade).has_value());
  auto deleted = DeleteWhere(t.catalog(), t.id(), txn_test::Where("order_id = 1"));
  ASSERT_TRUE(deleted.has_value()) << deleted.error().message;
  std::vector<txn_test::Order> expected = {{2, "FR", 200}};
  EXPECT_EQ(t.Rows(), expected);
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  ASSERT_TRUE(tasks.has_value());
  ASSERT_EQ(tasks->size(), 1u);
  ASSERT_EQ((*tasks)[0].deletes.size(), 1u);
  EXPECT_TRUE(IsDeletionVector((*tasks)[0].deletes[0].file));
}

TEST(KeyDeletePlan, PerSpecByWhetherTheKeyDeterminesThePartition) {
  auto schema = ParseSchemaText(evolution_test::kSchemaText);
  ASSERT_TRUE(schema.has_value());
  TableMetadata table;
  auto spec_of = [&](int spec_id, const std::string& text) {
    auto fields = ParsePartitionFields(text, *schema, PartitionSpec::kFirstFieldId);
    EXPECT_TRUE(fields.has_value());
    return PartitionSpec(spec_id, *fields);
  };
  table.partition_specs = {spec_of(0, "cat"), spec_of(1, "bucket(2, id)"), spec_of(2, "bucket(3, id), cat")};
  table.default_spec_id = 1;
  // Only the default spec holds data: equality deletes under it.
  auto plan = PlanKeyDeletes(table, {1}, {1});
  EXPECT_EQ(plan.equality_spec_ids, std::vector<int>{1});
  EXPECT_TRUE(plan.position_spec_ids.empty());
  // Old files partitioned by a non-key column: read and deleted by position.
  plan = PlanKeyDeletes(table, {1}, {0, 1, 2});
  EXPECT_EQ(plan.equality_spec_ids, std::vector<int>{1});
  EXPECT_EQ(plan.position_spec_ids, (std::set<int>{0, 2}));
  // A key of (id, cat) determines every spec's partition.
  plan = PlanKeyDeletes(table, {1, 2}, {0, 1, 2});
  EXPECT_EQ(plan.equality_spec_ids, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(plan.position_spec_ids.empty());
  // An unpartitioned spec with data: one global delete reaches every spec's files.
  table.partition_specs.push_back(spec_of(3, ""));
  plan = PlanKeyDeletes(table, {1}, {0, 3});
  EXPECT_EQ(plan.equality_spec_ids, std::vector<int>{3});
  EXPECT_TRUE(plan.position_spec_ids.empty());
}

}  // namespace
}  // namespace floe
