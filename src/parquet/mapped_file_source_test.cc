// A local Parquet file read row group by row group (what `floe append FILE.parquet` does) keeps
// only the row group being decoded resident, not the whole mapped file; and views read before a
// span was given back still read the file's bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <cctype>

#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"

namespace floe::parquet {
namespace {

// Resident bytes of this process's mappings of `path` (from /proc/self/smaps).
uint64_t ResidentBytesOf(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_file = false;
  uint64_t kb = 0;
  while (std::getline(smaps, line)) {
    // A mapping's header line is "start-end perms offset dev inode [path]"; its fields follow.
    if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) && line.find('-') < line.find(' ')) {
      in_file = line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0;
    } else if (in_file && line.starts_with("Rss:")) {
      kb += std::stoull(line.substr(4));
    }
  }
  return kb * 1024;
}

class MappedFileSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("floe-mapped-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // kRows distinct longs, uncompressed, in row groups of about 1 MiB: a file of ~8 MiB.
  std::string WriteFile() {
    const std::string path = (dir_ / "f.parquet").string();
    Schema schema(0, {{1, "v", Type::Long(), true, ""}});
    auto sink = FileSink::Create(path);
    EXPECT_TRUE(sink) << sink.error().ToString();
    auto writer = ParquetWriter::Open(sink->get(), schema,
                                      {{"write.parquet.compression-codec", "uncompressed"},
                                       {"write.parquet.row-group-size-bytes", "1048576"}});
    EXPECT_TRUE(writer) << writer.error().ToString();
    ColumnBatch batch(schema);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < kRows; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      batch.columns[0].Append(Literal::Long(static_cast<int64_t>(x >> 1)));
      sum_ += static_cast<int64_t>(x >> 1);
    }
    batch.num_rows = kRows;
    EXPECT_TRUE((*writer)->Write(batch).has_value());
    EXPECT_TRUE((*writer)->Close().has_value());
    return path;
  }

  static constexpr int kRows = 1 << 20;
  std::filesystem::path dir_;
  int64_t sum_ = 0;
};

TEST_F(MappedFileSourceTest, ReadingRowGroupsInTurnKeepsOnlyTheCurrentOneResident) {
  const std::string path = WriteFile();
  const uint64_t size = std::filesystem::file_size(path);
  auto file = ParquetFile::OpenPath(path);
  ASSERT_TRUE(file) << file.error().ToString();
  ASSERT_GE((*file)->num_row_groups(), 6) << "the test needs a file of several row groups";
  const uint64_t row_group = size / static_cast<uint64_t>((*file)->num_row_groups());
  auto reader = ParquetReader::Make(*file);
  ASSERT_TRUE(reader) << reader.error().ToString();
  int64_t sum = 0, rows = 0;
  uint64_t most_resident = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch) << batch.error().ToString();
    if (!*batch) break;
    for (size_t i = 0; i < (*batch)->num_rows; ++i) sum += (*batch)->columns[0].longs[i];
    rows += static_cast<int64_t>((*batch)->num_rows);
    most_resident = std::max(most_resident, ResidentBytesOf(path));
  }
  EXPECT_EQ(rows, kRows);
  EXPECT_EQ(sum, sum_);
  // Without giving pages back, every row group read stays mapped: the whole file at the end.
  EXPECT_LE(most_resident, 2 * row_group) << "file " << size << " bytes, row groups of ~" << row_group;
}

TEST_F(MappedFileSourceTest, BytesGivenBackReadTheSameAgain) {
  const std::string path = WriteFile();
  auto source = MappedFileSource::Open(path);
  ASSERT_TRUE(source) << source.error().ToString();
  const uint64_t size = (*source)->size();
  auto view = (*source)->Read(0, size);
  ASSERT_TRUE(view);
  const std::string copy(*view);
  EXPECT_GE(ResidentBytesOf(path), size / 2);
  (*source)->DoneReading({{0, size}});
  EXPECT_LT(ResidentBytesOf(path), size / 2);
  EXPECT_EQ(std::string(*view), copy);  // the old view, touched again, maps the file again
  (*source)->DoneReading({{size, 5}, {3, 2}, {size + 1, 1}});  // outside or within one page: nothing
}

}  // namespace
}  // namespace floe::parquet
