// An unfiltered plan decodes each entry straight into its place in a plan sized from the
// manifest list's file counts (scan_planner.cc). These tests check that such a plan is the one
// built manifest by manifest, also when the list's counts are wrong in either direction.
#include <gtest/gtest.h>

#include "avro/manifest_list.h"
#include "scan/scan_test_util.h"
#include "scan/table_scan.h"
#include "table_files/manifest_io.h"

namespace floe {
namespace {

using testing::TestTable;

Schema Rows() { return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "part", Type::Int(), false, ""}}); }

ColumnBatch RowsOf(int32_t part, int64_t first_id, int n) {
  ColumnBatch b(Rows());
  for (int i = 0; i < n; ++i) EXPECT_TRUE(b.AppendRow({Literal::Long(first_id + i), Literal::Int(part)}));
  return b;
}

// Everything planning puts in a task, as text.
std::string Describe(const FileScanTask& t) {
  const DataFile& f = t.file;
  std::string s = f.file_path + " rows=" + std::to_string(f.record_count) + " size=" + std::to_string(f.file_size_in_bytes) +
                  " seq=" + std::to_string(t.data_sequence_number) + " spec=" + std::to_string(f.spec_id) + " part=";
  for (const Literal& v : f.partition) s += v.ToString() + ",";
  for (const auto* m : {&f.column_sizes, &f.value_counts, &f.null_value_counts, &f.nan_value_counts}) {
    s += " {";
    for (const auto& [id, v] : *m) s += std::to_string(id) + ":" + std::to_string(v) + ",";
    s += "}";
  }
  for (const auto* m : {&f.lower_bounds, &f.upper_bounds}) {
    s += " {";
    for (const auto& [id, v] : *m) s += std::to_string(id) + ":" + std::to_string(v.size()) + "B,";
    s += "}";
  }
  s += " splits=" + std::to_string(f.split_offsets.size()) + " first_row_id=" + std::to_string(f.first_row_id.value_or(-1));
  s += " residual=" + std::string(t.residual->op() == Op::kTrue ? "true" : "other") + " deletes=";
  for (const ManifestEntry& d : t.deletes) s += d.file.file_path + ",";
  return s;
}

std::vector<std::string> Describe(const std::vector<FileScanTask>& tasks) {
  std::vector<std::string> out;
  for (const auto& t : tasks) out.push_back(Describe(t));
  return out;
}

std::vector<std::string> Plan(TestTable& t, ScanOptions o) {
  auto plan = PlanScan(t.io(), t.metadata(), o);
  EXPECT_TRUE(plan) << plan.error().ToString();
  return plan ? Describe(plan->tasks) : std::vector<std::string>{"<error>"};
}

// Three manifests of live data files (one with a removed file among them) and a delete file.
class PresizedPlan : public ::testing::Test {
 protected:
  PresizedPlan() : t_(Rows(), PartitionSpec(0, {PartitionField{2, 1000, "part", Transform::Identity()}})) {}
  void SetUp() override {
    std::vector<DataFile> first, second;
    for (int i = 0; i < 4; ++i) first.push_back(Write(1, i * 10, 3 + i));
    for (int i = 0; i < 3; ++i) second.push_back(Write(2, 100 + i * 10, 2));
    ASSERT_TRUE(t_.Commit(first));
    ASSERT_TRUE(t_.Commit(second));
    auto deletes = t_.WritePositionDeletes({{second[0].file_path, 1}}, {Literal::Int(2)});
    ASSERT_TRUE(deletes) << deletes.error().ToString();
    ASSERT_TRUE(t_.Commit({Write(3, 500, 5), *deletes}));
    ASSERT_TRUE(t_.Commit({}, {first[1].file_path}, "delete"));
    expected_ = Plan(t_, LimitlessOptions());
    ASSERT_EQ(expected_.size(), 7u);
  }
  DataFile Write(int32_t part, int64_t first_id, int n) {
    auto f = t_.WriteData(RowsOf(part, first_id, n), {Literal::Int(part)});
    EXPECT_TRUE(f) << f.error().ToString();
    return f ? *f : DataFile();
  }
  // A limit no table reaches: planned manifest by manifest, never sized up front.
  static ScanOptions LimitlessOptions() {
    ScanOptions o;
    o.limit = std::numeric_limits<int64_t>::max();
    return o;
  }
  // Rewrites the current snapshot's manifest list with each data manifest's added count
  // changed by `delta` (existing count first zeroed): a list that miscounts its files.
  void MiscountList(const std::vector<int>& delta) {
    TableMetadata& m = t_.mutable_metadata();
    Snapshot& s = m.snapshots.back();
    auto manifests = ReadManifestList(t_.io(), m, s);
    ASSERT_TRUE(manifests) << manifests.error().ToString();
    size_t k = 0;
    for (ManifestFile& mf : *manifests) {
      if (mf.content != ManifestContent::kData) continue;
      ASSERT_LT(k, delta.size());
      mf.added_files_count += mf.existing_files_count + delta[k++];
      mf.existing_files_count = 0;
    }
    ASSERT_EQ(k, delta.size());
    s.manifest_list += ".miscounted";
    ASSERT_TRUE(WriteManifestListFile(t_.io(), m, *manifests, s.snapshot_id, s.parent_snapshot_id, s.sequence_number,
                                      s.manifest_list));
  }
  TestTable t_;
  std::vector<std::string> expected_;
};

TEST_F(PresizedPlan, UnfilteredPlanIsTheOneBuiltManifestByManifest) {
  for (int threads : {1, 2, 3}) {
    ScanOptions o;
    o.planning_threads = threads;
    EXPECT_EQ(Plan(t_, o), expected_) << threads << " threads";
    o.include_column_stats = false;
    ScanOptions slow = LimitlessOptions();
    slow.include_column_stats = false;
    EXPECT_EQ(Plan(t_, o), Plan(t_, slow)) << threads << " threads, no stats";
  }
}

TEST_F(PresizedPlan, ListCountingTooFewFilesLosesNone) {
  MiscountList({-2, -1, 0});
  for (int threads : {1, 2}) {
    ScanOptions o;
    o.planning_threads = threads;
    EXPECT_EQ(Plan(t_, o), expected_) << threads << " threads";
  }
}

TEST_F(PresizedPlan, ListCountingTooManyFilesAddsNone) {
  MiscountList({3, 0, 7});
  for (int threads : {1, 2}) {
    ScanOptions o;
    o.planning_threads = threads;
    EXPECT_EQ(Plan(t_, o), expected_) << threads << " threads";
  }
}

TEST_F(PresizedPlan, ListCountingImplausiblyManyFilesIsNotTrustedToSizeThePlan) {
  MiscountList({2'000'000'000, 0, 0});  // sizing the plan from this would take a terabyte
  ScanOptions o;
  EXPECT_EQ(Plan(t_, o), expected_);
}

}  // namespace
}  // namespace floe
