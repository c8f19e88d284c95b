// How the reader asks its source for bytes: opening a file is one read of its end (a second
// only for a footer longer than that read), and before a row group's column chunks are read
// the source is told which spans they are (an object store fetches them in one request).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"

namespace floe::parquet {
namespace {

class CountingSource : public InputSource {
 public:
  explicit CountingSource(std::string bytes) : inner_(std::string_view(bytes), "counted.parquet") {}
  uint64_t size() const override { return inner_.size(); }
  const std::string& name() const override { return inner_.name(); }
  Result<std::string_view> Read(uint64_t offset, uint64_t length) const override {
    std::lock_guard lock(mu_);
    reads.emplace_back(offset, length);
    return inner_.Read(offset, length);
  }
  Status WillRead(const std::vector<std::pair<uint64_t, uint64_t>>& spans) const override {
    std::lock_guard lock(mu_);
    hints.push_back(spans);
    return Ok();
  }
  mutable std::vector<std::pair<uint64_t, uint64_t>> reads;
  mutable std::vector<std::vector<std::pair<uint64_t, uint64_t>>> hints;

 private:
  BufferSource inner_;
  mutable std::mutex mu_;
};

Schema Columns(int n) {
  std::vector<NestedField> fields;
  for (int i = 0; i < n; ++i) fields.push_back(NestedField{i + 1, "c" + std::to_string(i), Type::Long(), false, ""});
  return Schema(0, fields);
}

// Row r, column c: scattered values, so that the file does not compress.
int64_t Value(int r, int c) { return static_cast<int64_t>((uint64_t(r) * 64 + c) * 0x9E3779B97F4A7C15ULL); }

// `rows` rows of `columns` longs, in row groups of about `row_group_bytes`.
std::string WriteFile(int columns, int rows, const std::string& row_group_bytes) {
  Schema schema = Columns(columns);
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema, {{"write.parquet.row-group-size-bytes", row_group_bytes}});
  EXPECT_TRUE(w) << w.error().ToString();
  for (int start = 0; start < rows; start += 100) {
    ColumnBatch batch(schema);
    for (int r = start; r < std::min(rows, start + 100); ++r) {
      std::vector<Literal> row;
      for (int c = 0; c < columns; ++c) row.push_back(Literal::Long(Value(r, c)));
      EXPECT_TRUE(batch.AppendRow(row));
    }
    EXPECT_TRUE((*w)->Write(batch));
  }
  EXPECT_TRUE((*w)->Close());
  return bytes;
}

uint32_t FooterLength(const std::string& bytes) {
  uint32_t n = 0;
  std::memcpy(&n, bytes.data() + bytes.size() - 8, 4);
  return n;
}

TEST(ParquetReads, OpeningIsOneReadOfTheEndAndEachRowGroupNamesItsChunksFirst) {
  const std::string bytes = WriteFile(4, 1000, "100000000");
  ASSERT_LT(bytes.size(), 64u << 10);
  auto source = std::make_shared<CountingSource>(bytes);
  auto file = ParquetFile::Open(source);
  ASSERT_TRUE(file) << file.error().ToString();
  ASSERT_EQ(source->reads.size(), 1u) << "footer and magic from one read";
  EXPECT_EQ(source->reads[0], (std::pair<uint64_t, uint64_t>{0, bytes.size()}));

  // Two of the four columns: the hint names exactly their chunks, before they are read.
  source->reads.clear();
  ReadOptions options;
  options.projection = Schema(0, {NestedField{3, "c2", Type::Long(), false, ""},
                                  NestedField{1, "c0", Type::Long(), false, ""}});
  auto rows = ReadParquetFile(*file, options);
  ASSERT_TRUE(rows) << rows.error().ToString();
  EXPECT_EQ(rows->num_rows, 1000u);
  EXPECT_EQ(rows->columns[0].Get(999), Literal::Long(Value(999, 2)));
  ASSERT_EQ(source->hints.size(), 1u);
  std::vector<std::pair<uint64_t, uint64_t>> hinted = source->hints[0], read = source->reads;
  std::sort(hinted.begin(), hinted.end());
  std::sort(read.begin(), read.end());
  EXPECT_EQ(hinted, read);
  EXPECT_EQ(hinted.size(), 2u);
}

TEST(ParquetReads, AFooterLongerThanTheFirstReadTakesOneMore) {
  // 300 row groups of 12 columns: a footer of several hundred KiB.
  const std::string bytes = WriteFile(12, 30'000, "1000");
  ASSERT_GT(FooterLength(bytes), 64u << 10);
  auto source = std::make_shared<CountingSource>(bytes);
  auto file = ParquetFile::Open(source);
  ASSERT_TRUE(file) << file.error().ToString();
  EXPECT_EQ(source->reads.size(), 2u);
  EXPECT_GT((*file)->num_row_groups(), 100);
  auto rows = ReadParquetFile(*file);
  ASSERT_TRUE(rows) << rows.error().ToString();
  ASSERT_EQ(rows->num_rows, 30'000u);
  EXPECT_EQ(rows->columns[11].Get(29'999), Literal::Long(Value(29'999, 11)));
  EXPECT_EQ(source->hints.size(), static_cast<size_t>((*file)->num_row_groups()));
}

TEST(ParquetReads, ALargeFilesStartIsNotReadToOpenIt) {
  const std::string bytes = WriteFile(4, 20'000, "100000000");
  ASSERT_GT(bytes.size(), 2u * (64u << 10));
  auto source = std::make_shared<CountingSource>(bytes);
  ASSERT_TRUE(ParquetFile::Open(source));
  ASSERT_EQ(source->reads.size(), 1u);
  EXPECT_EQ(source->reads[0].first + source->reads[0].second, bytes.size());
  EXPECT_EQ(source->reads[0].second, 64u << 10);
}

}  // namespace
}  // namespace floe::parquet
