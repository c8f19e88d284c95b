// Merge-on-read on format 3 tables: deletes, updates and upserts by position write deletion
// vectors (one per data file, all of a commit in one Puffin file), a new vector carries its
// file's earlier deletes and replaces them in the same commit, and concurrent vectors for one
// data file never lose a delete.
#include <atomic>
#include <mutex>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "catalog/fault_injecting_catalog.h"
#include "commit/commit_operation.h"
#include "commit/metadata_commit.h"
#include "commit/operations.h"
#include "rows/merge_on_read.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"
#include "rows/upsert.h"
#include "scan/delete_loader.h"
#include "scan/table_scan.h"

namespace floe {
namespace deletion_vector_test {
namespace {

using txn_test::Batch;
using txn_test::OnFirstAttempt;
using txn_test::Order;
using txn_test::OrdersTable;
using txn_test::Where;

const std::map<std::string, std::string> kMergeOnRead = {{"write.delete.mode", "merge-on-read"},
                                                         {"write.update.mode", "merge-on-read"},
                                                         {"write.merge.mode", "merge-on-read"}};

std::vector<Order> FourOrders() { return {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 300}, {4, "FR", 400}}; }

std::map<std::string, std::string> With(std::map<std::string, std::string> a,
                                        const std::map<std::string, std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

std::vector<FileScanTask> Tasks(OrdersTable& t) {
  auto tasks = PlanFiles(*t.catalog().io(), t.Metadata(), ScanOptions{});
  EXPECT_TRUE(tasks.has_value()) << (tasks ? "" : tasks.error().message);
  return tasks ? *tasks : std::vector<FileScanTask>{};
}

// The live deletion vectors of the table, by the data file they reference.
std::map<std::string, DataFile> LiveVectors(OrdersTable& t) {
  std::map<std::string, DataFile> out;
  for (const auto& task : Tasks(t))
    for (const auto& d : task.deletes) {
      EXPECT_TRUE(IsDeletionVector(d.file)) << d.file.file_path << " is not a deletion vector";
      EXPECT_EQ(d.file.referenced_data_file.value_or(""), task.file.file_path);
      EXPECT_FALSE(out.count(task.file.file_path)) << "two vectors for " << task.file.file_path;
      out[task.file.file_path] = d.file;
    }
  return out;
}

std::string DataFileOf(OrdersTable& t, const std::string& country) {
  for (const auto& task : Tasks(t))
    if (task.file.partition.size() == 1 && task.file.partition[0] == Literal::String(country))
      return task.file.file_path;
  return "";
}

int64_t SummaryInt(const Snapshot& s, const std::string& key) {
  auto it = s.summary.find(key);
  return it == s.summary.end() ? 0 : std::stoll(it->second);
}

TEST(DeletionVectorWrites, OneVectorPerDataFileAllInOnePuffinFile) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto r = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2 OR order_id = 3"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows_deleted, 2);
  std::vector<Order> expected = {{1, "DE", 100}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);

  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 2u);
  const DataFile& de = vectors.at(DataFileOf(t, "DE"));
  const DataFile& fr = vectors.at(DataFileOf(t, "FR"));
  EXPECT_EQ(de.file_path, fr.file_path);  // one Puffin file for the commit
  EXPECT_NE(de.file_path.find("-deletes.puffin"), std::string::npos) << de.file_path;
  EXPECT_NE(de.content_offset, fr.content_offset);
  EXPECT_EQ(de.record_count, 1);
  EXPECT_EQ(de.file_format, FileFormat::kPuffin);
  EXPECT_EQ(de.partition, std::vector<Literal>{Literal::String("DE")});  // the data file's partition
  auto positions = ReadDeletionVector(*t.catalog().io(), de);
  ASSERT_TRUE(positions.has_value()) << positions.error().message;
  EXPECT_EQ(*positions, std::vector<int64_t>{1});  // order 2 is the second row of the DE file
  const TableMetadata m = t.Metadata();
  // Iceberg Java's summary keys: vectors are delete files, not position delete files.
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "added-delete-files"), 2);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "added-dvs"), 2);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "added-position-delete-files"), 0);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "added-position-deletes"), 2);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "added-files-size"), *de.content_size_in_bytes + *fr.content_size_in_bytes);
}

TEST(DeletionVectorWrites, ASecondDeleteMergesTheOldVectorAndRemovesIt) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());
  const DataFile first = LiveVectors(t).at(DataFileOf(t, "DE"));
  auto r = DeleteWhere(t.catalog(), t.id(), Where("order_id = 1"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->rows_deleted, 1);
  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 1u);
  const DataFile& second = vectors.at(DataFileOf(t, "DE"));
  EXPECT_NE(second.file_path, first.file_path);
  EXPECT_EQ(second.record_count, 2);
  auto positions = ReadDeletionVector(*t.catalog().io(), second);
  ASSERT_TRUE(positions.has_value()) << positions.error().message;
  EXPECT_EQ(*positions, (std::vector<int64_t>{0, 1}));
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "removed-delete-files"), 1);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "removed-dvs"), 1);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "added-dvs"), 1);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "total-delete-files"), 1);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "total-position-deletes"), 2);
  std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
  // The snapshot before still reads through the first vector.
  std::vector<Order> before = {{1, "DE", 100}, {3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(m.CurrentSnapshot()->parent_snapshot_id), before);
}

TEST(DeletionVectorWrites, UpdateWritesAVectorAndTheNewRows) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto r = UpdateWhere(t.catalog(), t.id(), Where("order_id = 3"), *ParseAssignments("amount_cents = 301"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  std::vector<Order> expected = {{1, "DE", 100}, {2, "DE", 200}, {3, "FR", 301}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->second.partition, std::vector<Literal>{Literal::String("FR")});
  EXPECT_EQ(vectors.begin()->second.record_count, 1);
}

// A key that does not decide the partition (order_id, partitioned by country): the upsert finds
// the old rows and deletes them by position, which on v3 is a vector.
TEST(DeletionVectorWrites, UpsertDeletesTheOldRowsByVector) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto r = Upsert(t.catalog(), t.id(), Batch({{2, "FR", 222}, {9, "PL", 900}}), {"order_id"});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  std::vector<Order> expected = {{1, "DE", 100}, {2, "FR", 222}, {3, "FR", 300}, {4, "FR", 400}, {9, "PL", 900}};
  EXPECT_EQ(t.Rows(), expected);
  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->first, DataFileOf(t, "DE"));
  ASSERT_TRUE(Upsert(t.catalog(), t.id(), Batch({{1, "DE", 111}}), {"order_id"}).has_value());
  expected[0] = {1, "DE", 111};
  EXPECT_EQ(t.Rows(), expected);
  vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->second.record_count, 2);  // the first upsert's position carried
}

// An upgraded table: the v2 position delete file of a data file still applies; the first vector
// for that file carries its positions and replaces it in the same commit.
TEST(DeletionVectorWrites, UpgradedTableCarriesV2PositionDeletesIntoTheVector) {
  OrdersTable t("country", kMergeOnRead, 2);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());
  MetadataChange upgrade;
  upgrade.updates.push_back(UpgradeFormatVersion{3});
  ASSERT_TRUE(CommitMetadataChange(t.catalog(), t.id(), upgrade).has_value());
  std::vector<Order> after_v2 = {{1, "DE", 100}, {3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), after_v2);  // the v2 file applies on v3

  auto r = DeleteWhere(t.catalog(), t.id(), Where("order_id = 1"));
  ASSERT_TRUE(r.has_value()) << r.error().message;
  std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
  auto vectors = LiveVectors(t);  // the v2 file is gone: only the vector applies
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->second.record_count, 2);
}

// A copy-on-write delete rewrites the data file: its vector goes with it, nothing dangles.
TEST(DeletionVectorWrites, CopyOnWriteRemovesTheRewrittenFilesVector) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2 OR order_id = 3")).has_value());
  RowWriteOptions cow;
  cow.mode = WriteMode::kCopyOnWrite;
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 1"), cow).has_value());
  std::vector<Order> expected = {{4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
  auto vectors = LiveVectors(t);  // DE's file and vector are gone; FR's vector stays
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->second.partition, std::vector<Literal>{Literal::String("FR")});
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "removed-delete-files"), 1);
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "total-delete-files"), 1);
}

// B deletes another row of the same data file inside A's commit: A's retry merges B's vector
// into its own (both deletes survive, one vector for the file), at either isolation, without
// redoing the delete.
void ConcurrentVectorsForOneFile(const std::string& isolation) {
  OrdersTable t("country", With(kMergeOnRead, {{"write.delete.isolation-level", isolation}}), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap =
      OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value()); });
  auto a = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2"), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->rebases, 0);
  EXPECT_EQ(a->vector_merges, 1);
  std::vector<Order> expected = {{3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->second.record_count, 2);
}

TEST(DeletionVectorConflicts, SerializableMergesAnotherRowsVector) { ConcurrentVectorsForOneFile("serializable"); }
TEST(DeletionVectorConflicts, SnapshotMergesAnotherRowsVector) { ConcurrentVectorsForOneFile("snapshot"); }

// With an old vector in place, both writers replace it: the later sees its vector removed and
// merges the earlier's vector, which carries the old one, and removes it.
TEST(DeletionVectorConflicts, BothReplacingOneOldVectorKeepEveryDelete) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch({{1, "DE", 1}, {2, "DE", 2}, {3, "DE", 3}, {4, "DE", 4}})).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 4")).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap =
      OnFirstAttempt([&] { ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1")).has_value()); });
  auto a = DeleteWhere(t.catalog(), t.id(), Where("order_id = 2"), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->vector_merges, 1);
  EXPECT_EQ(a->rebases, 0);
  std::vector<Order> expected = {{3, "DE", 3}};
  EXPECT_EQ(t.Rows(), expected);
  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(vectors.begin()->second.record_count, 3);
}

// Counts the reads of each kind of file a writer makes: data files (Parquet) and Puffin files.
class CountingFileIO : public FileIO {
 public:
  explicit CountingFileIO(std::shared_ptr<FileIO> base) : base_(std::move(base)) {}
  Result<std::unique_ptr<InputFile>> NewInputFile(std::string_view path) override {
    Count(path);
    return base_->NewInputFile(path);
  }
  Result<std::string> ReadAll(std::string_view path) override {
    Count(path);
    return base_->ReadAll(path);
  }
  Result<std::string> ReadRange(std::string_view path, int64_t offset, int64_t length) override {
    Count(path);
    return base_->ReadRange(path, offset, length);
  }
  Result<int64_t> Size(std::string_view path) override { return base_->Size(path); }
  Result<bool> Exists(std::string_view path) override { return base_->Exists(path); }
  Status CreateIfAbsent(std::string_view path, std::string_view data) override {
    return base_->CreateIfAbsent(path, data);
  }
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override {
    return base_->NewOutputFile(path);
  }
  Status CreateUnreferenced(std::string_view path, std::string_view data) override {
    return base_->CreateUnreferenced(path, data);
  }
  Result<std::unique_ptr<OutputFile>> NewUnreferencedOutputFile(std::string_view path) override {
    return base_->NewUnreferencedOutputFile(path);
  }
  Result<std::vector<FileInfo>> ListPrefix(std::string_view prefix) override { return base_->ListPrefix(prefix); }
  Status Delete(std::string_view path) override { return base_->Delete(path); }
  std::string ResolvedPath(std::string_view path) const override { return base_->ResolvedPath(path); }

  void Reset() {
    parquet_ = puffin_ = 0;
    std::lock_guard lock(mu_);
    reads_.clear();
  }
  int parquet_reads() const { return parquet_; }
  int puffin_reads() const { return puffin_; }

 private:
  void Count(std::string_view path) {
    if (path.ends_with(".parquet")) ++parquet_;
    if (path.ends_with(".puffin")) ++puffin_;
    std::lock_guard lock(mu_);
    if (path.ends_with(".parquet") || path.ends_with(".puffin")) reads_ += std::string(path) + "\n";
  }
  mutable std::mutex mu_;
  std::string reads_;

 public:
  std::string reads() const {
    std::lock_guard lock(mu_);
    return reads_;
  }

 private:
  std::shared_ptr<FileIO> base_;
  std::atomic<int> parquet_{0}, puffin_{0};
};

std::vector<std::string> PuffinFiles(OrdersTable& t) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(t.dir()))
    if (e.path().string().ends_with(".puffin")) out.push_back(e.path().string());
  return out;
}

// The retry after losing to another vector for the same data file reads that vector (one
// ranged read of its Puffin file) and no data row: the rows A deletes are not read again. A's
// first Puffin file, superseded by the merged one, is deleted. At snapshot isolation nothing
// else is read; at serializable the key-aware validation reads the rows B deleted (B's vector
// and those rows of its data file, once) to tell whether B deleted rows A's filter matches.
void MergedRetryReadsNoDataRows(const std::string& isolation) {
  OrdersTable t("country", With(kMergeOnRead, {{"write.delete.isolation-level", isolation}}), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto counting = std::make_shared<CountingFileIO>(t.catalog().io());
  FaultInjectingCatalog a_catalog(t.Open());
  a_catalog.HandOutFileIO(counting);
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt([&] {
    ASSERT_TRUE(DeleteWhere(*b, t.id(), Where("order_id = 1 OR order_id = 3")).has_value());
    counting->Reset();  // A has read its rows and written its vector; B has landed
  });
  auto a = DeleteWhere(a_catalog, t.id(), Where("order_id = 2 OR order_id = 4"), a_options);
  ASSERT_TRUE(a.has_value()) << a.error().message;
  EXPECT_EQ(a->vector_merges, 1);
  EXPECT_EQ(a->rebases, 0);
  EXPECT_EQ(a->rows_deleted, 2);
  const bool judged = isolation == "serializable";
  EXPECT_EQ(counting->parquet_reads(), judged ? 2 : 0) << "the retry re-read data files:\n" << counting->reads();
  EXPECT_EQ(counting->puffin_reads(), judged ? 4 : 2) << "one ranged read per vector of B's (DE and FR):\n"
                                                      << counting->reads();
  EXPECT_TRUE(t.Rows().empty());
  auto vectors = LiveVectors(t);
  ASSERT_EQ(vectors.size(), 2u);
  for (const auto& [data, dv] : vectors) EXPECT_EQ(dv.record_count, 2) << data;
  EXPECT_EQ(vectors.begin()->second.file_path, std::next(vectors.begin())->second.file_path) << "one Puffin file";
  EXPECT_EQ(PuffinFiles(t).size(), 2u) << "B's file and A's merged one; A's first is gone";
  const TableMetadata m = t.Metadata();
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "removed-delete-files"), 2);  // B's vectors
  EXPECT_EQ(SummaryInt(*m.CurrentSnapshot(), "total-delete-files"), 2);
}

TEST(DeletionVectorConflicts, MergedRetryReadsNoDataRowsAtSnapshotIsolation) { MergedRetryReadsNoDataRows("snapshot"); }
TEST(DeletionVectorConflicts, MergedRetryReadsOnlyTheJudgedRowsAtSerializable) {
  MergedRetryReadsNoDataRows("serializable");
}

// Two updates of one row: the later is refused naming B's vector, never leaving two versions.
TEST(DeletionVectorConflicts, UpdatesOfOneRowRefusedNamingTheVector) {
  OrdersTable t("country", With(kMergeOnRead, {{"write.update.isolation-level", "serializable"}}), 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  auto b = t.Open();
  RowWriteOptions a_options;
  a_options.commit.before_swap = OnFirstAttempt(
      [&] { ASSERT_TRUE(UpdateWhere(*b, t.id(), Where("order_id = 2"), *ParseAssignments("amount_cents = 1")).has_value()); });
  auto a = UpdateWhere(t.catalog(), t.id(), Where("order_id = 2"), *ParseAssignments("amount_cents = 2"), a_options);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().kind, ErrorKind::kValidationFailed);
  EXPECT_NE(a.error().message.find("-deletes.puffin"), std::string::npos) << a.error().message;
  std::vector<Order> expected = {{1, "DE", 100}, {2, "DE", 1}, {3, "FR", 300}, {4, "FR", 400}};
  EXPECT_EQ(t.Rows(), expected);
}

// A v3 table takes no new position delete file, and a v2 table no vector: refused before
// anything is written, the table unchanged.
TEST(DeletionVectorWrites, PositionDeleteFilesRefusedOnV3AndVectorsOnV2) {
  for (int version : {2, 3}) {
    OrdersTable t("", kMergeOnRead, version);
    ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
    const TableMetadata before = t.Metadata();
    DataFile del;
    del.content = FileContent::kPositionDeletes;
    del.file_path = before.location + "/data/x-deletes." + (version == 3 ? "parquet" : "puffin");
    del.file_format = version == 3 ? FileFormat::kParquet : FileFormat::kPuffin;
    del.record_count = 1;
    del.referenced_data_file = Tasks(t).at(0).file.file_path;
    if (version == 2) {
      del.content_offset = 4;
      del.content_size_in_bytes = 40;
    }
    FilesOperation operation(RowDelta({}, {del}, before.current_snapshot_id, True(), IsolationLevel::kSerializable, {}));
    auto r = CommitOperation(t.catalog(), t.id(), operation, CommitOptions{});
    ASSERT_FALSE(r.has_value()) << "v" << version;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(r.error().message.find(del.file_path), std::string::npos) << r.error().message;
    EXPECT_EQ(t.Metadata().current_snapshot_id, before.current_snapshot_id);
  }
}

// A Puffin file damaged after the commit: the scan fails naming the file, never reads rows back.
void DamageAndScan(const std::function<void(const std::string& local, const DataFile& dv)>& damage,
                   const std::string& expected_message) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());
  const DataFile dv = LiveVectors(t).begin()->second;
  std::string local = dv.file_path;
  if (local.rfind("file://", 0) == 0) local = local.substr(7);
  damage(local, dv);
  auto read = ReadTable(*t.catalog().io(), t.Metadata(), ScanOptions{});
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind, ErrorKind::kCorrupt) << read.error().message;
  EXPECT_NE(read.error().message.find(dv.file_path), std::string::npos) << read.error().message;
  EXPECT_NE(read.error().message.find(expected_message), std::string::npos) << read.error().message;
}

void FlipByte(const std::string& path, int64_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(f.good()) << path;
  f.seekg(offset);
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x5a);
  f.seekp(offset);
  f.write(&c, 1);
}

TEST(DeletionVectorReads, WrongMagicIsCorruptNamingTheFile) {
  DamageAndScan([](const std::string& local, const DataFile& dv) { FlipByte(local, *dv.content_offset + 4); },
                "magic");
}

TEST(DeletionVectorReads, WrongChecksumIsCorruptNamingTheFile) {
  DamageAndScan(
      [](const std::string& local, const DataFile& dv) {
        FlipByte(local, *dv.content_offset + *dv.content_size_in_bytes - 1);
      },
      "checksum");
}

TEST(DeletionVectorReads, BlobPastTheFilesEndIsCorruptNamingTheFile) {
  DamageAndScan(
      [](const std::string& local, const DataFile& dv) {
        std::filesystem::resize_file(local, *dv.content_offset + *dv.content_size_in_bytes - 2);
      },
      "lie outside the file");
}

// A manifest entry that disagrees with its blob: another count, or positions past the data
// file's rows. Corrupt, naming the Puffin file and the data file.
TEST(DeletionVectorReads, EntryDisagreeingWithItsBlobIsCorrupt) {
  OrdersTable t("country", kMergeOnRead, 3);
  ASSERT_TRUE(AppendBatch(t.catalog(), t.id(), Batch(FourOrders())).has_value());
  ASSERT_TRUE(DeleteWhere(t.catalog(), t.id(), Where("order_id = 2")).has_value());
  auto tasks = Tasks(t);
  FileScanTask task;
  for (const auto& candidate : tasks)
    if (!candidate.deletes.empty()) task = candidate;
  ASSERT_EQ(task.deletes.size(), 1u);
  DataFile miscounted = task.deletes[0].file;
  miscounted.record_count = 5;
  auto read = ReadDeletionVector(*t.catalog().io(), miscounted);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(read.error().message.find("record_count says 5"), std::string::npos) << read.error().message;
  EXPECT_NE(read.error().message.find(task.file.file_path), std::string::npos) << read.error().message;

  task.file.record_count = 1;  // the vector deletes position 1 of a file said to hold one row
  auto loaded = LoadTaskDeletes(*t.catalog().io(), t.Metadata(), task, nullptr);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(loaded.error().message.find("past the data file's 1 rows"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find(task.deletes[0].file.file_path), std::string::npos) << loaded.error().message;
}

}  // namespace
}  // namespace deletion_vector_test
}  // namespace floe
