#include "scan/delete_index.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace floe {
namespace {

TableMetadata TwoSpecs() {
  TableMetadata t;
  t.schemas.push_back(Schema(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "p", Type::String(), false, ""}}));
  t.partition_specs.push_back(PartitionSpec::Unpartitioned());
  t.partition_specs.push_back(PartitionSpec(1, {PartitionField{2, 1000, "p", Transform::Identity()}}));
  t.default_spec_id = 1;
  return t;
}

ManifestEntry Delete(FileContent content, int64_t seq, int spec_id, std::vector<Literal> partition, std::string path) {
  ManifestEntry e;
  e.status = EntryStatus::kAdded;
  e.sequence_number = seq;
  e.file.content = content;
  e.file.file_path = std::move(path);
  e.file.spec_id = spec_id;
  e.file.partition = std::move(partition);
  if (content == FileContent::kEqualityDeletes) e.file.equality_ids = {1};
  return e;
}

DataFile Data(int spec_id, std::vector<Literal> partition, std::string path = "/d.parquet") {
  DataFile f;
  f.file_path = std::move(path);
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  return f;
}

// Paths in order of sequence number; equal sequence numbers in name order (their order is not
// part of the contract).
std::vector<std::string> Paths(const std::vector<ManifestEntry>& v) {
  std::vector<std::pair<int64_t, std::string>> keyed;
  for (const auto& e : v) keyed.emplace_back(DataSequenceNumber(e), e.file.file_path);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::string> out;
  for (auto& [seq, path] : keyed) out.push_back(path);
  return out;
}

TEST(DeleteIndex, SequenceNumberRules) {
  auto index = DeleteIndex::Build(TwoSpecs(), {Delete(FileContent::kPositionDeletes, 5, 1, {Literal::String("a")}, "pos5"),
                                               Delete(FileContent::kEqualityDeletes, 5, 1, {Literal::String("a")}, "eq5")});
  ASSERT_TRUE(index);
  DataFile f = Data(1, {Literal::String("a")});
  EXPECT_EQ(Paths(index->ForDataFile(f, 4)), (std::vector<std::string>{"eq5", "pos5"}));
  EXPECT_EQ(Paths(index->ForDataFile(f, 5)), (std::vector<std::string>{"pos5"}));  // eq needs strictly lower
  EXPECT_TRUE(index->ForDataFile(f, 6).empty());
}

TEST(DeleteIndex, PartitionScoping) {
  auto index = DeleteIndex::Build(TwoSpecs(), {Delete(FileContent::kEqualityDeletes, 5, 1, {Literal::String("a")}, "eq-a"),
                                               Delete(FileContent::kEqualityDeletes, 5, 0, {}, "eq-global"),
                                               Delete(FileContent::kPositionDeletes, 5, 1, {Literal::Null(Type::String())}, "pos-null")});
  ASSERT_TRUE(index);
  EXPECT_EQ(Paths(index->ForDataFile(Data(1, {Literal::String("a")}), 1)), (std::vector<std::string>{"eq-a", "eq-global"}));
  EXPECT_EQ(Paths(index->ForDataFile(Data(1, {Literal::String("b")}), 1)), (std::vector<std::string>{"eq-global"}));
  // A null partition value is a partition of its own.
  EXPECT_EQ(Paths(index->ForDataFile(Data(1, {Literal::Null(Type::String())}), 1)),
            (std::vector<std::string>{"eq-global", "pos-null"}));
}

// Only equality deletes of an unpartitioned spec are global: a position delete file of the
// unpartitioned spec (no referenced file, bounds spanning several paths) applies only to that
// spec's data files, as the spec's scan-planning rules and Iceberg Java's DeleteFileIndex say.
TEST(DeleteIndex, UnpartitionedPositionDeletesStayInTheirSpec) {
  ManifestEntry pos = Delete(FileContent::kPositionDeletes, 5, 0, {}, "pos-unpartitioned");
  pos.file.lower_bounds[kDeleteFilePathFieldId] = "/data/a.parquet";
  pos.file.upper_bounds[kDeleteFilePathFieldId] = "/data/z.parquet";
  auto index = DeleteIndex::Build(TwoSpecs(), {pos, Delete(FileContent::kEqualityDeletes, 5, 0, {}, "eq-global")});
  ASSERT_TRUE(index);
  EXPECT_EQ(Paths(index->ForDataFile(Data(0, {}, "/data/m.parquet"), 1)),
            (std::vector<std::string>{"eq-global", "pos-unpartitioned"}));
  EXPECT_EQ(Paths(index->ForDataFile(Data(1, {Literal::String("a")}, "/data/m.parquet"), 1)),
            (std::vector<std::string>{"eq-global"}));
}

TEST(DeleteIndex, PositionDeleteNamingOneFileGoesOnlyToIt) {
  ManifestEntry pos = Delete(FileContent::kPositionDeletes, 3, 0, {}, "pos-one");
  pos.file.lower_bounds[kDeleteFilePathFieldId] = "/data/x.parquet";
  pos.file.upper_bounds[kDeleteFilePathFieldId] = "/data/x.parquet";
  auto index = DeleteIndex::Build(TwoSpecs(), {pos});
  ASSERT_TRUE(index);
  EXPECT_EQ(index->ForDataFile(Data(0, {}, "/data/x.parquet"), 1).size(), 1u);
  EXPECT_TRUE(index->ForDataFile(Data(0, {}, "/data/y.parquet"), 1).empty());
}

TEST(DeleteIndex, RejectsUnknownSpecAndEqualityDeleteWithoutIds) {
  EXPECT_FALSE(DeleteIndex::Build(TwoSpecs(), {Delete(FileContent::kEqualityDeletes, 1, 9, {}, "x")}));
  ManifestEntry no_ids = Delete(FileContent::kEqualityDeletes, 1, 0, {}, "y");
  no_ids.file.equality_ids.clear();
  auto r = DeleteIndex::Build(TwoSpecs(), {no_ids});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("y"), std::string::npos);
}

}  // namespace
}  // namespace floe
