// DataWriter: rows split by the partition spec into Parquet files that are rolled at
// write.target-file-size-bytes, also in the middle of one large batch; every row is written
// once, each file holds only its partition's rows and says so, and Abort leaves nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "io/memory_file_io.h"
#include "meta/metadata_json.h"
#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "write/data_writer.h"
#include "write/equality_delete_writer.h"

namespace floe {
namespace {

TableMetadata Table(const std::string& partition_by, const std::map<std::string, std::string>& properties = {}) {
  TableMetadata m;
  m.location = "/mem/wh/t";
  auto schema = ParseSchemaText("id long not null, country string, note string");
  EXPECT_TRUE(schema.has_value());
  m.schemas = {Schema(0, schema->fields())};
  m.current_schema_id = 0;
  auto fields = ParsePartitionFields(partition_by, m.schemas[0], PartitionSpec::kFirstFieldId);
  EXPECT_TRUE(fields.has_value());
  m.partition_specs = {PartitionSpec(0, *fields)};
  m.sort_orders = {SortOrder::Unsorted()};
  m.last_column_id = 3;
  m.properties = properties;
  return m;
}

const char* kCountries[] = {"DE", "FR", "IT"};

// Rows [from, from + count): country by id, and a note that does not compress away.
ColumnBatch Rows(int64_t from, int64_t count) {
  auto schema = ParseSchemaText("id long not null, country string, note string");
  ColumnBatch batch(*schema);
  for (int64_t id = from; id < from + count; ++id) {
    auto st = batch.AppendRow({Literal::Long(id), Literal::String(kCountries[id % 3]),
                               Literal::String("note " + std::to_string(id * 7919 % 100003))});
    EXPECT_TRUE(st.has_value());
  }
  return batch;
}

// Every file's rows, checked against the partition it claims: id -> country.
std::map<int64_t, std::string> ReadFiles(MemoryFileIO& io, const TableMetadata& table,
                                         const std::vector<DataFile>& files) {
  std::map<int64_t, std::string> rows;
  for (const DataFile& f : files) {
    auto bytes = io.ReadAll(f.file_path);
    EXPECT_TRUE(bytes.has_value()) << f.file_path;
    if (!bytes) continue;
    EXPECT_EQ(f.file_size_in_bytes, static_cast<int64_t>(bytes->size())) << f.file_path;
    auto file = parquet::ParquetFile::Open(std::make_shared<parquet::BufferSource>(*bytes, f.file_path));
    EXPECT_TRUE(file.has_value()) << (file ? "" : file.error().message);
    if (!file) continue;
    EXPECT_EQ((*file)->num_rows(), f.record_count) << f.file_path;
    for (int rg = 0; rg < (*file)->num_row_groups(); ++rg) {
      auto batch = (*file)->ReadRowGroup(rg, table.CurrentSchema());
      EXPECT_TRUE(batch.has_value());
      if (!batch) continue;
      for (size_t r = 0; r < batch->num_rows; ++r) {
        auto row = batch->Row(r);
        const std::string country = row[1].AsBytes();
        if (!f.partition.empty()) {
          EXPECT_EQ(country, f.partition[0].AsBytes()) << f.file_path;
        }
        EXPECT_TRUE(rows.emplace(row[0].AsLong(), country).second) << "row " << row[0].AsLong() << " written twice";
      }
    }
  }
  return rows;
}

TEST(DataWriter, OneFilePerPartitionUnderItsFolder) {
  MemoryFileIO io;
  const TableMetadata table = Table("country");
  DataWriter writer(io, table);
  ASSERT_TRUE(writer.Write(Rows(0, 300)).has_value());
  ASSERT_TRUE(writer.Write(Rows(300, 300)).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  ASSERT_EQ(files->size(), 3u);
  std::set<std::string> partitions;
  for (const DataFile& f : *files) {
    ASSERT_EQ(f.partition.size(), 1u);
    const std::string country = f.partition[0].AsBytes();
    partitions.insert(country);
    EXPECT_NE(f.file_path.find("/mem/wh/t/data/country=" + country + "/"), std::string::npos) << f.file_path;
    EXPECT_EQ(f.record_count, 200);
    EXPECT_EQ(f.content, FileContent::kData);
  }
  EXPECT_EQ(partitions, (std::set<std::string>{"DE", "FR", "IT"}));
  EXPECT_EQ(ReadFiles(io, table, *files).size(), 600u);
  EXPECT_EQ(writer.stats().rows, 600);
  EXPECT_EQ(writer.stats().files, 3);
}

TEST(DataWriter, FilesRollAtTheTargetSizeAlsoWithinOneBatch) {
  MemoryFileIO io;
  // Small enough that one batch of 60,000 rows makes several files per partition.
  const int64_t target = 64 * 1024;
  const TableMetadata table = Table("country", {{"write.target-file-size-bytes", std::to_string(target)}});
  DataWriter writer(io, table);
  ASSERT_TRUE(writer.Write(Rows(0, 60000)).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  std::map<std::string, int> per_partition;
  int64_t largest = 0, rows = 0;
  for (const DataFile& f : *files) {
    ++per_partition[f.partition[0].AsBytes()];
    largest = std::max(largest, f.file_size_in_bytes);
    rows += f.record_count;
  }
  for (const char* country : kCountries) EXPECT_GE(per_partition[country], 3) << country;
  // A size check every 1,024 rows or more often near the target: a file passes it by little.
  EXPECT_LT(largest, target * 3 / 2);
  EXPECT_EQ(rows, 60000);
  const auto read = ReadFiles(io, table, *files);
  ASSERT_EQ(read.size(), 60000u);
  EXPECT_EQ(read.begin()->first, 0);
  EXPECT_EQ(read.rbegin()->first, 59999);
}

TEST(DataWriter, TheDefaultTargetKeepsOneFilePerPartition) {
  MemoryFileIO io;
  const TableMetadata table = Table("");
  DataWriter writer(io, table);
  for (int64_t from = 0; from < 50000; from += 10000) ASSERT_TRUE(writer.Write(Rows(from, 10000)).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_TRUE((*files)[0].partition.empty());
  EXPECT_EQ(ReadFiles(io, table, *files).size(), 50000u);
}

TEST(DataWriter, AbortLeavesNoFile) {
  // Mid-write: whatever the writing threads had closed or still had open is gone.
  MemoryFileIO io;
  const TableMetadata table = Table("country", {{"write.target-file-size-bytes", "16384"}});
  DataWriter writer(io, table);
  ASSERT_TRUE(writer.Write(Rows(0, 20000)).has_value());
  ASSERT_TRUE(writer.Write(Rows(20000, 20000)).has_value());
  writer.Abort();
  auto listed = io.ListPrefix("/mem/wh/t/data/");
  ASSERT_TRUE(listed.has_value());
  EXPECT_TRUE(listed->empty()) << listed->size() << " files left, the first " << listed->front().path;
  EXPECT_TRUE(writer.written_paths().empty());
}

TEST(DataWriter, AbortAfterFinishDeletesEveryFile) {
  MemoryFileIO io;
  const TableMetadata table = Table("country", {{"write.target-file-size-bytes", "16384"}});
  DataWriter writer(io, table);
  ASSERT_TRUE(writer.Write(Rows(0, 20000)).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  ASSERT_GT(files->size(), 3u);  // rolled within each partition
  ASSERT_EQ(writer.written_paths().size(), files->size());
  for (size_t i = 0; i < files->size(); ++i) EXPECT_EQ(writer.written_paths()[i], (*files)[i].file_path);
  writer.Abort();
  for (const DataFile& f : *files) EXPECT_FALSE(io.Exists(f.file_path).value_or(true)) << f.file_path;
  auto listed = io.ListPrefix("/mem/wh/t/data/");
  ASSERT_TRUE(listed.has_value());
  EXPECT_TRUE(listed->empty()) << listed->size() << " files left, the first " << listed->front().path;
}

TEST(DataWriter, AMissingRequiredColumnIsNamed) {
  MemoryFileIO io;
  const TableMetadata table = Table("country");
  auto schema = ParseSchemaText("country string");
  ColumnBatch batch(*schema);
  ASSERT_TRUE(batch.AppendRow({Literal::String("DE")}).has_value());
  DataWriter writer(io, table);
  auto written = writer.Write(batch);
  ASSERT_FALSE(written.has_value());
  EXPECT_NE(written.error().message.find("'id'"), std::string::npos) << written.error().message;
}

// A MemoryFileIO whose writes to one partition's files are slow, so that partition's writing
// lags behind the others'.
class SlowPartitionIO : public MemoryFileIO {
 public:
  explicit SlowPartitionIO(std::string slow) : slow_(std::move(slow)) {}
  Result<std::unique_ptr<OutputFile>> NewOutputFile(std::string_view path) override {
    FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> file, MemoryFileIO::NewOutputFile(path));
    if (slow_.empty() || path.find(slow_) == std::string_view::npos) return file;
    return std::unique_ptr<OutputFile>(new Slow(std::move(file)));
  }

 private:
  struct Slow : OutputFile {
    explicit Slow(std::unique_ptr<OutputFile> f) : file(std::move(f)) {}
    const std::string& path() const override { return file->path(); }
    Status Write(std::string_view data) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      return file->Write(data);
    }
    int64_t Position() const override { return file->Position(); }
    Status Close() override {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      return file->Close();
    }
    void Abort() override { file->Abort(); }
    std::unique_ptr<OutputFile> file;
  };
  std::string slow_;
};

struct WrittenFile {
  std::string partition;
  int64_t records = 0;
  std::string bytes;
};

// Twelve batches of 5,000 rows with ids from 1 (so the partitions first appear as FR, IT, DE,
// not in sorted order), rolled at a small target: the files as Finish lists them.
std::vector<WrittenFile> WriteTwelveBatches(const std::string& slow_partition) {
  SlowPartitionIO io(slow_partition);
  const TableMetadata table = Table("country", {{"write.target-file-size-bytes", "32768"}});
  DataWriter writer(io, table);
  for (int64_t b = 0; b < 12; ++b) EXPECT_TRUE(writer.Write(Rows(1 + b * 5000, 5000)).has_value());
  auto files = writer.Finish();
  EXPECT_TRUE(files.has_value()) << files.error().message;
  std::vector<WrittenFile> out;
  if (!files) return out;
  for (const DataFile& f : *files) {
    auto bytes = io.ReadAll(f.file_path);
    EXPECT_TRUE(bytes.has_value()) << f.file_path;
    out.push_back(WrittenFile{f.partition.at(0).AsBytes(), f.record_count, bytes.value_or("")});
  }
  // Each partition's rows, read in the listed order, are its rows in input order.
  std::map<std::string, std::vector<int64_t>> ids;
  for (const DataFile& f : *files) {
    auto file = parquet::ParquetFile::Open(std::make_shared<parquet::BufferSource>(*io.ReadAll(f.file_path), f.file_path));
    EXPECT_TRUE(file.has_value());
    if (!file) continue;
    for (int rg = 0; rg < (*file)->num_row_groups(); ++rg) {
      auto batch = (*file)->ReadRowGroup(rg, table.CurrentSchema());
      EXPECT_TRUE(batch.has_value());
      if (!batch) continue;
      for (size_t r = 0; r < batch->num_rows; ++r) ids[f.partition[0].AsBytes()].push_back(batch->columns[0].longs[r]);
    }
  }
  for (int c = 0; c < 3; ++c) {
    std::vector<int64_t> want;
    for (int64_t id = 1; id <= 60000; ++id)
      if (kCountries[id % 3] == std::string(kCountries[c])) want.push_back(id);
    EXPECT_EQ(ids[kCountries[c]], want) << kCountries[c];
  }
  return out;
}

TEST(DataWriter, FilesAndTheirOrderDoNotDependOnWhichPartitionIsWrittenFirst) {
  const std::vector<WrittenFile> plain = WriteTwelveBatches("");
  // Listed partition by partition, in order of each partition's first row.
  std::vector<std::string> runs;
  for (const WrittenFile& f : plain)
    if (runs.empty() || runs.back() != f.partition) runs.push_back(f.partition);
  EXPECT_EQ(runs, (std::vector<std::string>{"FR", "IT", "DE"}));
  EXPECT_GT(plain.size(), 6u);  // several files per partition
  for (const char* slow : {"country=FR", "country=DE"}) {
    const std::vector<WrittenFile> lagging = WriteTwelveBatches(slow);
    ASSERT_EQ(lagging.size(), plain.size()) << slow;
    for (size_t i = 0; i < plain.size(); ++i) {
      EXPECT_EQ(lagging[i].partition, plain[i].partition) << slow << " file " << i;
      EXPECT_EQ(lagging[i].records, plain[i].records) << slow << " file " << i;
      EXPECT_TRUE(lagging[i].bytes == plain[i].bytes) << slow << " file " << i << " differs";
    }
  }
}

}  // namespace
}  // namespace floe

namespace floe {
namespace {

// The footer's "iceberg.schema" value, parsed, or null when absent.
nlohmann::json IcebergSchemaOf(MemoryFileIO& io, const std::string& path) {
  auto bytes = io.ReadAll(path);
  EXPECT_TRUE(bytes.has_value()) << path;
  if (!bytes) return nullptr;
  auto file = parquet::ParquetFile::Open(std::make_shared<parquet::BufferSource>(*bytes, path));
  EXPECT_TRUE(file.has_value());
  if (!file) return nullptr;
  for (const auto& kv : (*file)->metadata().key_value_metadata)
    if (kv.key == "iceberg.schema" && kv.value) return nlohmann::json::parse(*kv.value);
  return nullptr;
}

// As Iceberg Java's writer: each Parquet file carries the Iceberg schema it was written with,
// as the schema JSON of table metadata (the table's for data files, the delete rows' for
// delete files).
TEST(DataWriter, FilesCarryTheIcebergSchemaInTheirFooter) {
  MemoryFileIO io;
  const TableMetadata table = Table("country");
  DataWriter writer(io, table);
  ASSERT_TRUE(writer.Write(Rows(0, 3)).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  ASSERT_FALSE(files->empty());
  nlohmann::json schema = IcebergSchemaOf(io, (*files)[0].file_path);
  ASSERT_TRUE(schema.is_object()) << schema;
  EXPECT_EQ(schema, SchemaToJson(table.CurrentSchema()));
  EXPECT_EQ(schema["type"], "struct");
  ASSERT_EQ(schema["fields"].size(), 3u);
  EXPECT_EQ(schema["fields"][0]["id"], 1);
  EXPECT_EQ(schema["fields"][0]["name"], "id");
  EXPECT_EQ(schema["fields"][0]["type"], "long");

  EqualityDeleteWriter deletes(io, table, {1});
  ASSERT_TRUE(deletes.Delete(Rows(0, 2)).has_value());
  auto delete_files = deletes.Finish();
  ASSERT_TRUE(delete_files.has_value()) << delete_files.error().message;
  ASSERT_FALSE(delete_files->empty());
  EXPECT_EQ(IcebergSchemaOf(io, (*delete_files)[0].file_path), SchemaToJson(deletes.delete_schema()));
}

}  // namespace
}  // namespace floe
