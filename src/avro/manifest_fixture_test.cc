// Reads every manifest and manifest list of the fixture tables (written by Spark and PyIceberg)
// and checks them against what the tables' metadata and expected rows imply.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "avro/avro_describe.h"
#include "avro/manifest_list.h"
#include "avro/manifest_reader.h"
#include "avro/test_util.h"
#include "meta/metadata_json.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using avro_test::FixturesDir;
using avro_test::ReadFileBytes;

class FixtureTables : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = FixturesDir();
    if (dir.empty()) GTEST_SKIP() << "skipped: no fixtures";
    root_ = dir + "/tables/duckdb-iceberg";
  }

  TableMetadata LoadMetadata(const std::string& metadata_file) {
    auto m = ParseTableMetadata(ReadFileBytes(root_ + "/data/persistent/" + metadata_file));
    EXPECT_TRUE(m.has_value()) << (m ? "" : m.error().ToString());
    return m ? *m : TableMetadata{};
  }

  // Paths inside the tables are relative to tables/duckdb-iceberg.
  std::string Bytes(const std::string& table_path) { return ReadFileBytes(root_ + "/" + table_path); }

  // Live (not DELETED) entries of the current snapshot, read through its manifest list, or its
  // manifests for a v1 snapshot without a list.
  std::vector<ManifestEntry> LiveEntries(const TableMetadata& table) {
    std::vector<ManifestEntry> out;
    const Snapshot* snap = table.CurrentSnapshot();
    EXPECT_NE(snap, nullptr);
    if (!snap) return out;
    std::vector<ManifestFile> manifests;
    if (!snap->manifest_list.empty()) {
      std::string bytes = Bytes(snap->manifest_list);
      auto list = ReadManifestList(bytes, snap->manifest_list);
      EXPECT_TRUE(list.has_value()) << (list ? "" : list.error().ToString());
      if (!list) return out;
      manifests = list->manifests;
    } else {
      for (const auto& path : snap->v1_manifests) {
        std::string bytes = Bytes(path);
        auto m = SummarizeManifest(bytes, path, snap->snapshot_id, &table);
        EXPECT_TRUE(m.has_value()) << (m ? "" : m.error().ToString());
        if (m) manifests.push_back(*m);
      }
    }
    for (const ManifestFile& mf : manifests) {
      std::string bytes = Bytes(mf.manifest_path);
      ManifestReadOptions options;
      options.manifest = &mf;
      options.table = &table;
      auto contents = ReadManifest(bytes, mf.manifest_path, options);
      EXPECT_TRUE(contents.has_value()) << (contents ? "" : contents.error().ToString());
      if (!contents) continue;
      EXPECT_EQ(contents->info.content, mf.content) << mf.manifest_path;
      for (auto& e : contents->entries) {
        if (e.status != EntryStatus::kDeleted) out.push_back(std::move(e));
      }
    }
    return out;
  }

  // Checks the current snapshot's summary totals against the entries read.
  void ExpectSummaryTotals(const TableMetadata& table, const std::vector<ManifestEntry>& live) {
    const Snapshot* snap = table.CurrentSnapshot();
    ASSERT_NE(snap, nullptr);
    int64_t records = 0, data_files = 0, delete_files = 0;
    for (const auto& e : live) {
      if (e.file.content == FileContent::kData) {
        ++data_files;
        records += e.file.record_count;
      } else {
        ++delete_files;
      }
    }
    EXPECT_EQ(std::to_string(records), snap->summary.at("total-records"));
    EXPECT_EQ(std::to_string(data_files), snap->summary.at("total-data-files"));
    EXPECT_EQ(std::to_string(delete_files), snap->summary.at("total-delete-files"));
  }

  std::string root_;
};

TEST_F(FixtureTables, EqualityDeletesCurrentSnapshot) {
  TableMetadata table = LoadMetadata("equality_deletes/warehouse/mydb/mytable/metadata/v7.metadata.json");
  auto live = LiveEntries(table);
  ExpectSummaryTotals(table, live);
  std::multiset<std::vector<int>> equality_ids;
  for (const auto& e : live) {
    ASSERT_TRUE(e.sequence_number.has_value());
    ASSERT_TRUE(e.snapshot_id.has_value());
    if (e.file.content == FileContent::kEqualityDeletes) {
      equality_ids.insert(e.file.equality_ids);
      EXPECT_EQ(e.file.record_count, 1);
    }
    EXPECT_EQ(e.file.file_format, FileFormat::kParquet);
    EXPECT_TRUE(e.file.partition.empty());
  }
  // README: 4 equality delete files, ids [1], [2], [1,2].
  EXPECT_EQ(equality_ids.size(), 4u);
  EXPECT_EQ(equality_ids.count({1}), 1u);
  EXPECT_EQ(equality_ids.count({2}), 2u);
  EXPECT_EQ(equality_ids.count({1, 2}), 1u);
  // The data files hold ids 1..4 (sequence 1) and 5..6 (sequence 5): bounds say so.
  std::set<std::pair<int64_t, std::string>> data;
  for (const auto& e : live) {
    if (e.file.content != FileContent::kData) continue;
    auto lower = Literal::FromBinary(Type::Int(), e.file.lower_bounds.at(1));
    auto upper = Literal::FromBinary(Type::Int(), e.file.upper_bounds.at(1));
    ASSERT_TRUE(lower && upper);
    data.insert({*e.sequence_number, std::to_string(lower->AsInt()) + ".." + std::to_string(upper->AsInt())});
  }
  EXPECT_EQ(data, (std::set<std::pair<int64_t, std::string>>{{1, "1..4"}, {5, "5..6"}}));
}

TEST_F(FixtureTables, HivePartitionedSpecEvolution) {
  TableMetadata table = LoadMetadata("hive_partitioned_table/metadata/v4.metadata.json");
  auto live = LiveEntries(table);
  ExpectSummaryTotals(table, live);
  // Partition values carry the partition columns (they are not in the data files).
  std::set<std::string> tuples;
  for (const auto& e : live) {
    EXPECT_EQ(e.file.record_count, 1);
    // Entries were written with null sequence numbers: they inherit the manifest's.
    ASSERT_TRUE(e.sequence_number.has_value());
    EXPECT_EQ(*e.sequence_number, e.file.spec_id == 0 ? 1 : 2);
    EXPECT_EQ(e.file_sequence_number, e.sequence_number);
    std::string t;
    for (const auto& v : e.file.partition) t += (t.empty() ? "" : "/") + (v.is_null() ? "null" : v.ToString());
    tuples.insert(std::to_string(e.file.spec_id) + ":" + t);
  }
  EXPECT_EQ(tuples, (std::set<std::string>{"0:2024-01-01", "0:2024-01-02", "1:2024-01-03/click", "1:2024-01-03/view",
                                           "1:2024-01-04/purchase", "1:2024-01-04/view"}));
}

TEST_F(FixtureTables, LegacyV1WithoutManifestList) {
  TableMetadata table = LoadMetadata("iceberg_v1_deprecated/default/legacy_v1/metadata/v2.metadata.json");
  ASSERT_NE(table.CurrentSnapshot(), nullptr);
  EXPECT_TRUE(table.CurrentSnapshot()->manifest_list.empty());
  auto live = LiveEntries(table);
  ExpectSummaryTotals(table, live);
  std::map<std::string, int64_t> rows_by_category;
  for (const auto& e : live) {
    EXPECT_EQ(e.sequence_number, 0);
    EXPECT_EQ(e.file_sequence_number, 0);
    EXPECT_EQ(e.snapshot_id, table.current_snapshot_id);
    ASSERT_EQ(e.file.partition.size(), 1u);
    rows_by_category[e.file.partition[0].AsBytes()] += e.file.record_count;
  }
  EXPECT_EQ(rows_by_category, (std::map<std::string, int64_t>{{"alpha", 2}, {"beta", 1}}));
}

TEST_F(FixtureTables, PyIcebergTimestampPartition) {
  TableMetadata table =
      LoadMetadata("partition_timestamp/default.db/partition_timestamp/metadata/00001-0c9938a5-103e-4185-b46d-331368ae4db7.metadata.json");
  auto live = LiveEntries(table);
  ExpectSummaryTotals(table, live);
  std::set<std::string> values;
  for (const auto& e : live) {
    ASSERT_EQ(e.file.partition.size(), 1u);
    EXPECT_EQ(e.file.partition[0].type()->id(), TypeId::kTimestamp);
    values.insert(e.file.partition[0].ToString());
    EXPECT_FALSE(e.file.sort_order_id.has_value());
  }
  EXPECT_EQ(values.size(), 2u);
  // Microseconds 1684161045000000 and 1692695720000000 since the epoch.
  EXPECT_TRUE(values.count("2023-05-15T14:30:45.000000")) << *values.begin();
  EXPECT_TRUE(values.count("2023-08-22T09:15:20.000000"));
}

// Every manifest list on disk: its counts agree with the manifests it lists, read with
// inheritance; every manifest also reads alone, without table metadata.
TEST_F(FixtureTables, EveryManifestListAgreesWithItsManifests) {
  int lists = 0, manifests = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root_ + "/data/persistent")) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".avro" || entry.path().string().find("/metadata/") == std::string::npos) continue;
    std::string bytes = ReadFileBytes(entry.path().string());
    if (name.rfind("snap-", 0) != 0) {
      auto alone = ReadManifest(bytes, entry.path().string());
      EXPECT_TRUE(alone.has_value()) << (alone ? "" : alone.error().ToString());
      if (alone) {
        EXPECT_FALSE(alone->entries.empty()) << name;
      }
      ++manifests;
      continue;
    }
    ++lists;
    auto list = ReadManifestList(bytes, entry.path().string());
    ASSERT_TRUE(list.has_value()) << list.error().ToString();
    ASSERT_FALSE(list->manifests.empty()) << name;
    for (const ManifestFile& mf : list->manifests) {
      std::string mbytes = Bytes(mf.manifest_path);
      ASSERT_FALSE(mbytes.empty()) << mf.manifest_path;
      EXPECT_EQ(mf.manifest_length, static_cast<int64_t>(mbytes.size())) << mf.manifest_path;
      ManifestReadOptions options;
      options.manifest = &mf;
      auto contents = ReadManifest(mbytes, mf.manifest_path, options);
      ASSERT_TRUE(contents.has_value()) << contents.error().ToString();
      int added = 0, existing = 0, deleted = 0;
      int64_t added_rows = 0;
      for (const auto& e : contents->entries) {
        EXPECT_EQ(e.snapshot_id.value_or(-1), mf.added_snapshot_id);
        if (list->format_version >= 2) {
          EXPECT_EQ(e.sequence_number.value_or(-1), mf.sequence_number);
        }
        added += e.status == EntryStatus::kAdded;
        existing += e.status == EntryStatus::kExisting;
        deleted += e.status == EntryStatus::kDeleted;
        if (e.status == EntryStatus::kAdded) added_rows += e.file.record_count;
        EXPECT_EQ(e.file.partition.size(), mf.partitions.size()) << mf.manifest_path;
      }
      EXPECT_EQ(added, mf.added_files_count) << mf.manifest_path;
      EXPECT_EQ(existing, mf.existing_files_count);
      EXPECT_EQ(deleted, mf.deleted_files_count);
      EXPECT_EQ(added_rows, mf.added_rows_count);
    }
  }
  EXPECT_EQ(lists, 11);  // equality_deletes 7, hive_partitioned_table 2, legacy_v1 1, partition_timestamp 1
  EXPECT_EQ(manifests, 10);
}

TEST_F(FixtureTables, DescribeDecodesPartitionsAndBounds) {
  std::string path = "data/persistent/hive_partitioned_table/metadata/8f7c6cdd-f7e6-4743-857e-021adfe0b999-m0.avro";
  auto j = DescribeAvroFile(Bytes(path), path, nullptr);
  ASSERT_TRUE(j.has_value()) << j.error().ToString();
  EXPECT_EQ((*j)["kind"], "manifest");
  std::set<std::string> dates;
  for (const auto& e : (*j)["entries"]) {
    dates.insert(e["data_file"]["partition"]["event_date"].get<std::string>());
    // Column 1 is event_date (a date), column 3 event_type (a string): bounds decode to values.
    EXPECT_EQ(e["data_file"]["lower_bounds"]["1"], e["data_file"]["partition"]["event_date"]);
    EXPECT_TRUE(e["data_file"]["lower_bounds"]["3"].is_string());
  }
  EXPECT_EQ(dates, (std::set<std::string>{"2024-01-01", "2024-01-02"}));

  TableMetadata table = LoadMetadata("hive_partitioned_table/metadata/v4.metadata.json");
  std::string list = "data/persistent/hive_partitioned_table/metadata/snap-5128628767169163501-1-fee93099-6425-4d83-bd7c-0aa646533090.avro";
  auto lj = DescribeAvroFile(Bytes(list), list, &table);
  ASSERT_TRUE(lj.has_value()) << lj.error().ToString();
  EXPECT_EQ((*lj)["kind"], "manifest-list");
  ASSERT_EQ((*lj)["manifests"].size(), 2u);
  const auto& spec1 = (*lj)["manifests"][0];
  EXPECT_EQ(spec1["partition_spec_id"], 1);
  EXPECT_EQ(spec1["partitions"][0]["lower_bound"], "2024-01-03");
  EXPECT_EQ(spec1["partitions"][0]["upper_bound"], "2024-01-04");
  EXPECT_EQ(spec1["partitions"][1]["lower_bound"], "click");
  EXPECT_EQ(spec1["partitions"][1]["upper_bound"], "view");
}

}  // namespace
}  // namespace floe
