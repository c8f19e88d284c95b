#include "scan/metadata_tables.h"

#include <gtest/gtest.h>

#include "scan/scan_test_util.h"

namespace floe {
namespace {

using testing::TestTable;

Schema IdPartSchema() {
  return Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "part", Type::String(), false, ""}});
}

ColumnBatch IdPartRows(std::vector<std::pair<int64_t, std::string>> rows) {
  ColumnBatch b(IdPartSchema());
  for (auto& [id, p] : rows) EXPECT_TRUE(b.AppendRow({Literal::Long(id), Literal::String(p)}));
  return b;
}

class MetadataTablesTest : public ::testing::Test {
 protected:
  MetadataTablesTest() : t_(IdPartSchema(), PartitionSpec(0, {PartitionField{2, 1000, "part", Transform::Identity()}})) {}
  void SetUp() override {
    a_ = *t_.WriteData(IdPartRows({{1, "a"}, {2, "a"}}), {Literal::String("a")});
    b_ = *t_.WriteData(IdPartRows({{3, "b"}}), {Literal::String("b")});
    first_ = *t_.Commit({a_, b_});
    auto del = t_.WritePositionDeletes({{a_.file_path, 0}}, {Literal::String("a")});
    ASSERT_TRUE(del);
    ASSERT_TRUE(t_.Commit({*del}, {}, "delete"));
    ASSERT_TRUE(t_.Commit({}, {b_.file_path}, "delete"));  // b removed
  }
  MetadataTable Table(const std::string& name, ScanOptions o = {}) {
    auto t = ReadMetadataTable(t_.io(), t_.metadata(), name, o);
    EXPECT_TRUE(t) << t.error().ToString();
    return t ? *t : MetadataTable{};
  }
  TestTable t_;
  DataFile a_, b_;
  int64_t first_ = 0;
};

TEST_F(MetadataTablesTest, SnapshotsHistoryRefs) {
  MetadataTable s = Table("snapshots");
  ASSERT_EQ(s.rows.size(), 3u);
  EXPECT_EQ(s.At(0, "snapshot_id"), first_);
  EXPECT_TRUE(s.At(0, "parent_id").is_null());
  EXPECT_EQ(s.At(1, "parent_id"), first_);
  EXPECT_EQ(s.At(2, "operation"), "delete");
  MetadataTable h = Table("history");
  ASSERT_EQ(h.rows.size(), 3u);
  for (size_t r = 0; r < 3; ++r) EXPECT_EQ(h.At(r, "is_current_ancestor"), true);
  MetadataTable refs = Table("refs");
  ASSERT_EQ(refs.rows.size(), 1u);
  EXPECT_EQ(refs.At(0, "name"), "main");
  EXPECT_EQ(refs.At(0, "type"), "BRANCH");
}

TEST_F(MetadataTablesTest, FilesAndEntries) {
  MetadataTable files = Table("files");
  ASSERT_EQ(files.rows.size(), 2u);  // a and the delete file; b is gone
  MetadataTable data = Table("data_files");
  ASSERT_EQ(data.rows.size(), 1u);
  EXPECT_EQ(data.At(0, "file_path"), a_.file_path);
  EXPECT_EQ(data.At(0, "partition"), (nlohmann::json{{"part", "a"}}));
  EXPECT_EQ(data.At(0, "record_count"), 2);
  EXPECT_EQ(data.At(0, "readable_metrics")["id"]["lower_bound"], 1);
  EXPECT_EQ(data.At(0, "readable_metrics")["id"]["upper_bound"], 2);
  MetadataTable deletes = Table("delete_files");
  ASSERT_EQ(deletes.rows.size(), 1u);
  EXPECT_EQ(deletes.At(0, "content"), 1);
  // Entries of the current snapshot include the DELETED entry of b.
  MetadataTable entries = Table("entries");
  int deleted = 0;
  for (size_t r = 0; r < entries.rows.size(); ++r) deleted += entries.At(r, "status") == 2;
  EXPECT_EQ(deleted, 1);
  // The first snapshot still has b.
  ScanOptions at_first;
  at_first.snapshot_id = first_;
  EXPECT_EQ(Table("data_files", at_first).rows.size(), 2u);
}

TEST_F(MetadataTablesTest, PartitionsAndManifests) {
  MetadataTable p = Table("partitions");
  ASSERT_EQ(p.rows.size(), 1u);  // only partition a has live files
  EXPECT_EQ(p.At(0, "partition"), (nlohmann::json{{"part", "a"}}));
  EXPECT_EQ(p.At(0, "record_count"), 2);
  EXPECT_EQ(p.At(0, "file_count"), 1);
  EXPECT_EQ(p.At(0, "position_delete_file_count"), 1);
  EXPECT_EQ(p.At(0, "position_delete_record_count"), 1);
  MetadataTable m = Table("manifests");
  ASSERT_EQ(m.rows.size(), 2u);
  int deletes = 0;
  for (size_t r = 0; r < m.rows.size(); ++r) deletes += m.At(r, "content") == 1;
  EXPECT_EQ(deletes, 1);
  EXPECT_FALSE(ReadMetadataTable(t_.io(), t_.metadata(), "nope"));
}

}  // namespace
}  // namespace floe
