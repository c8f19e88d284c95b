// Delete semantics over real files: Parquet data and delete files, Avro manifests, a table in
// memory. Each test states the spec rule it defends.
#include <gtest/gtest.h>

#include "scan/scan_test_util.h"
#include "scan/table_scan.h"

namespace floe {
namespace {

using testing::RowStrings;
using testing::TestTable;

Schema IdName() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "name", Type::String(), false, ""}});
}

ColumnBatch Rows(const Schema& schema, std::vector<std::pair<int64_t, std::string>> rows) {
  ColumnBatch b(schema);
  for (auto& [id, name] : rows) EXPECT_TRUE(b.AppendRow({Literal::Long(id), Literal::String(name)}));
  return b;
}

ColumnBatch Ids(std::vector<int64_t> ids) {
  ColumnBatch b(std::vector<NestedField>{NestedField{1, "id", Type::Long(), true, ""}});
  for (int64_t id : ids) EXPECT_TRUE(b.AppendRow({Literal::Long(id)}));
  return b;
}

std::vector<std::string> ReadAll(TestTable& t, ScanOptions options = {}) {
  auto rows = ReadTable(t.io(), t.metadata(), options);
  EXPECT_TRUE(rows) << rows.error().ToString();
  return rows ? RowStrings(*rows) : std::vector<std::string>{"<error>"};
}

TEST(DeleteSemantics, PositionDeleteAppliesToDataOfLowerOrEqualSequenceNumber) {
  TestTable t(IdName());
  auto a = t.WriteData(Rows(IdName(), {{0, "a0"}, {1, "a1"}, {2, "a2"}}));
  ASSERT_TRUE(a);
  ASSERT_TRUE(t.Commit({*a}));  // seq 1
  auto del_a = t.WritePositionDeletes({{a->file_path, 1}});
  ASSERT_TRUE(del_a);
  ASSERT_TRUE(t.Commit({*del_a}, {}, "delete"));  // seq 2 > 1: applies
  // A data file and a position delete against it in one commit (same sequence number): applies.
  auto b = t.WriteData(Rows(IdName(), {{10, "b0"}, {11, "b1"}}));
  ASSERT_TRUE(b);
  auto del_b = t.WritePositionDeletes({{b->file_path, 0}});
  ASSERT_TRUE(del_b);
  ASSERT_TRUE(t.Commit({*b, *del_b}, {}, "overwrite"));  // seq 3
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"0|a0", "11|b1", "2|a2"}));
}

TEST(DeleteSemantics, PositionDeleteOnlyRemovesRowsOfTheFileItNames) {
  TestTable t(IdName());
  auto a = t.WriteData(Rows(IdName(), {{0, "a0"}, {1, "a1"}}));
  auto b = t.WriteData(Rows(IdName(), {{10, "b0"}, {11, "b1"}}));
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(t.Commit({*a, *b}));
  // One delete file naming rows of both files, and a path that is in neither.
  auto del = t.WritePositionDeletes({{a->file_path, 0}, {b->file_path, 1}, {"/t/data/other.parquet", 0}});
  ASSERT_TRUE(del);
  ASSERT_TRUE(t.Commit({*del}, {}, "delete"));
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"10|b0", "1|a1"}));  // sorted as text
}

TEST(DeleteSemantics, EqualityDeleteAppliesOnlyToDataOfLowerSequenceNumber) {
  TestTable t(IdName());
  auto a = t.WriteData(Rows(IdName(), {{0, "a"}, {1, "a"}, {2, "a"}, {3, "a"}}));
  ASSERT_TRUE(a);
  ASSERT_TRUE(t.Commit({*a}));  // seq 1
  // Same commit: delete id in {2, 3} and insert a new row with id 2 (an upsert). The new row
  // has the delete's sequence number, so the delete must not remove it.
  auto del = t.WriteEqualityDeletes(Ids({2, 3}), {1});
  auto b = t.WriteData(Rows(IdName(), {{2, "b"}}));
  ASSERT_TRUE(del && b);
  ASSERT_TRUE(t.Commit({*b, *del}, {}, "overwrite"));  // seq 2
  // A later insert of a deleted key survives too.
  auto c = t.WriteData(Rows(IdName(), {{3, "c"}}));
  ASSERT_TRUE(c);
  ASSERT_TRUE(t.Commit({*c}));  // seq 3
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"0|a", "1|a", "2|b", "3|c"}));
}

TEST(DeleteSemantics, EqualityDeleteMatchesNullsAndMultipleColumns) {
  TestTable t(IdName());
  ColumnBatch data(IdName());
  ASSERT_TRUE(data.AppendRow({Literal::Long(1), Literal::String("x")}));
  ASSERT_TRUE(data.AppendRow({Literal::Long(1), Literal::Null(Type::String())}));
  ASSERT_TRUE(data.AppendRow({Literal::Long(2), Literal::String("x")}));
  auto a = t.WriteData(data);
  ASSERT_TRUE(a);
  ASSERT_TRUE(t.Commit({*a}));
  // Delete (id, name) = (1, NULL) and (2, 'y'): only the first row matches anything.
  ColumnBatch del_rows(IdName());
  ASSERT_TRUE(del_rows.AppendRow({Literal::Long(1), Literal::Null(Type::String())}));
  ASSERT_TRUE(del_rows.AppendRow({Literal::Long(2), Literal::String("y")}));
  auto del = t.WriteEqualityDeletes(del_rows, {1, 2});
  ASSERT_TRUE(del);
  ASSERT_TRUE(t.Commit({*del}, {}, "delete"));
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"1|x", "2|x"}));
}

Schema IdPart() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "part", Type::String(), false, ""}});
}

ColumnBatch PartRows(std::vector<std::pair<int64_t, std::string>> rows) { return Rows(IdPart(), std::move(rows)); }

TEST(DeleteSemantics, DeletesAreScopedToTheirPartition) {
  PartitionSpec by_part(0, {PartitionField{2, 1000, "part", Transform::Identity()}});
  TestTable t(IdPart(), by_part);
  auto a = t.WriteData(PartRows({{1, "a"}, {2, "a"}}), {Literal::String("a")});
  auto b = t.WriteData(PartRows({{1, "b"}, {2, "b"}}), {Literal::String("b")});
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(t.Commit({*a, *b}));
  // id = 1 deleted in partition a only.
  auto eq = t.WriteEqualityDeletes(Ids({1}), {1}, {Literal::String("a")});
  ASSERT_TRUE(eq);
  ASSERT_TRUE(t.Commit({*eq}, {}, "delete"));
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"1|b", "2|a", "2|b"}));
  // A position delete in partition b.
  auto pos = t.WritePositionDeletes({{b->file_path, 1}}, {Literal::String("b")});
  ASSERT_TRUE(pos);
  ASSERT_TRUE(t.Commit({*pos}, {}, "delete"));
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"1|b", "2|a"}));
}

TEST(DeleteSemantics, EqualityDeleteOfUnpartitionedSpecAppliesEverywhereButOtherSpecsDoNot) {
  // Spec 0 unpartitioned, spec 1 identity(part), spec 2 identity(part) again under another
  // partition field id: the same tuple ('a') under another spec is another partition.
  TestTable t(IdPart());
  t.EvolveSpec(PartitionSpec(1, {PartitionField{2, 1000, "part", Transform::Identity()}}));
  auto a = t.WriteData(PartRows({{1, "a"}, {2, "a"}, {3, "a"}}), {Literal::String("a")}, 1);
  auto b = t.WriteData(PartRows({{1, "b"}, {2, "b"}, {3, "b"}}), {Literal::String("b")}, 1);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(t.Commit({*a, *b}));
  t.EvolveSpec(PartitionSpec(2, {PartitionField{2, 1001, "part2", Transform::Identity()}}));
  auto global = t.WriteEqualityDeletes(Ids({1}), {1}, {}, 0);
  auto other_spec = t.WriteEqualityDeletes(Ids({2}), {1}, {Literal::String("a")}, 2);
  ASSERT_TRUE(global && other_spec);
  ASSERT_TRUE(t.Commit({*global, *other_spec}, {}, "delete"));
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"2|a", "2|b", "3|a", "3|b"}));
}

TEST(DeleteSemantics, BothKindsTogetherOnOneFile) {
  TestTable t(IdName());
  auto a = t.WriteData(Rows(IdName(), {{0, "x"}, {1, "x"}, {2, "y"}, {3, "y"}, {4, "z"}}));
  ASSERT_TRUE(a);
  ASSERT_TRUE(t.Commit({*a}));
  auto pos = t.WritePositionDeletes({{a->file_path, 0}, {a->file_path, 4}});
  ColumnBatch names(std::vector<NestedField>{NestedField{2, "name", Type::String(), false, ""}});
  ASSERT_TRUE(names.AppendRow({Literal::String("y")}));
  auto eq = t.WriteEqualityDeletes(names, {2});
  ASSERT_TRUE(pos && eq);
  ASSERT_TRUE(t.Commit({*pos, *eq}, {}, "delete"));
  EXPECT_EQ(ReadAll(t), (std::vector<std::string>{"1|x"}));
  // The equality column is read for the delete even when the projection leaves it out.
  ScanOptions only_id;
  only_id.columns = {"id"};
  EXPECT_EQ(ReadAll(t, only_id), (std::vector<std::string>{"1"}));
}

TEST(DeleteSemantics, TasksCarryOnlyTheDeletesThatApply) {
  PartitionSpec by_part(0, {PartitionField{2, 1000, "part", Transform::Identity()}});
  TestTable t(IdPart(), by_part);
  auto a = t.WriteData(PartRows({{1, "a"}}), {Literal::String("a")});
  auto b = t.WriteData(PartRows({{1, "b"}}), {Literal::String("b")});
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(t.Commit({*a, *b}));
  auto eq = t.WriteEqualityDeletes(Ids({1}), {1}, {Literal::String("a")});
  ASSERT_TRUE(eq);
  ASSERT_TRUE(t.Commit({*eq}, {}, "delete"));
  auto tasks = PlanFiles(t.io(), t.metadata(), {});
  ASSERT_TRUE(tasks) << tasks.error().ToString();
  ASSERT_EQ(tasks->size(), 2u);
  for (const auto& task : *tasks) {
    EXPECT_EQ(task.data_sequence_number, 1);
    EXPECT_EQ(task.deletes.size(), task.file.file_path == a->file_path ? 1u : 0u) << task.file.file_path;
  }
}

}  // namespace
}  // namespace floe
