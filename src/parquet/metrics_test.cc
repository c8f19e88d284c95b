#include "parquet/metrics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"

namespace floe::parquet {
namespace {

TEST(Truncate, StringsCutOnCodePointsAndRoundUp) {
  EXPECT_EQ(TruncateLowerString("abcdef", 3), "abc");
  EXPECT_EQ(TruncateUpperString("abcdef", 3), "abd");
  EXPECT_EQ(TruncateUpperString("ab", 3), "ab");  // short values stay exact
  // "é" is two bytes, one code point.
  EXPECT_EQ(TruncateLowerString("éééé", 2), "éé");
  EXPECT_EQ(TruncateUpperString("éééé", 2), "éê");
  // The last code point cannot grow past U+10FFFF: the one before it is incremented.
  EXPECT_EQ(TruncateUpperString("a\xF4\x8F\xBF\xBF" "bc", 2), "b");
  EXPECT_EQ(TruncateUpperString("\xF4\x8F\xBF\xBF\xF4\x8F\xBF\xBF" "x", 2), std::nullopt);
  // Incrementing into the surrogate range skips it.
  EXPECT_EQ(TruncateUpperString("\xED\x9F\xBF" "zz", 1), "\xEE\x80\x80");
}

TEST(Truncate, BinaryRoundsUpTheLastByteThatCan) {
  EXPECT_EQ(TruncateLowerBinary(std::string("\x01\x02\x03", 3), 2), std::string("\x01\x02", 2));
  EXPECT_EQ(TruncateUpperBinary(std::string("\x01\x02\x03", 3), 2), std::string("\x01\x03", 2));
  EXPECT_EQ(TruncateUpperBinary(std::string("\x01\xff\x03", 3), 2), std::string("\x02", 1));
  EXPECT_EQ(TruncateUpperBinary(std::string("\xff\xff\x03", 3), 2), std::nullopt);
}

TEST(MetricsMode, Parses) {
  EXPECT_EQ(ParseMetricsMode("truncate(8)")->length, 8);
  EXPECT_EQ(ParseMetricsMode(" Counts ")->kind, MetricsMode::kCounts);
  EXPECT_FALSE(ParseMetricsMode("truncate(0)"));
  EXPECT_FALSE(ParseMetricsMode("sometimes"));
}

TEST(WriterMetrics, CountsBoundsNaNsSizesAndSplits) {
  Schema schema(0, {{1, "id", Type::Long(), true, ""},
                    {2, "name", Type::String(), false, ""},
                    {3, "score", Type::Double(), false, ""},
                    {4, "st", Type::Struct({{5, "bin", Type::Binary(), false, ""}}), false, ""},
                    {6, "note", Type::String(), false, ""}});
  ColumnBatch b(schema);
  const std::string long_name = "zzzzzzzzzzzzzzzzzzzz-longer-than-sixteen";
  for (int i = 0; i < 1000; ++i) {
    std::vector<Literal> row;
    b.columns[0].Append(Literal::Long(i - 500));
    if (i % 10 == 0) b.columns[1].AppendNull(); else b.columns[1].Append(Literal::String(i == 7 ? long_name : "m" + std::to_string(i % 50)));
    if (i % 100 == 1) b.columns[2].Append(Literal::Double(NAN)); else if (i % 3 == 0) b.columns[2].AppendNull(); else b.columns[2].Append(Literal::Double(i / 4.0));
    Column& st = b.columns[3];
    st.children[0].Append(Literal::Binary(std::string(20, static_cast<char>(i % 7))));
    if (!st.nulls.empty()) st.nulls.push_back(0);
    ++st.length;
    b.columns[4].Append(Literal::String("same"));
  }
  b.num_rows = 1000;

  std::string file;
  StringSink sink(&file);
  std::map<std::string, std::string> props = {{"write.parquet.row-group-size-bytes", "2000"},
                                              {"write.metadata.metrics.column.note", "counts"}};
  auto w = ParquetWriter::Open(&sink, schema, props);
  ASSERT_TRUE(w) << w.error().ToString();
  for (int part = 0; part < 4; ++part) {
    // Written in four slices so that several row groups form.
    ColumnBatch slice(schema);
    std::vector<uint8_t> keep(1000, 0);
    for (int i = part * 250; i < (part + 1) * 250; ++i) keep[i] = 1;
    ASSERT_TRUE((*w)->Write(b.Filter(keep)));
  }
  auto m = (*w)->Close();
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->record_count, 1000);
  EXPECT_EQ(m->file_size_in_bytes, static_cast<int64_t>(file.size()));
  EXPECT_EQ(m->value_counts[1], 1000);
  EXPECT_EQ(m->null_value_counts[1], 0);
  EXPECT_EQ(m->null_value_counts[2], 100);
  EXPECT_EQ(m->nan_value_counts[3], 10);
  EXPECT_EQ(m->null_value_counts[3], 334 - 3);  // rows divisible by 3, less 201, 501 and 801 (NaN)
  EXPECT_EQ(m->lower_bounds[1].AsLong(), -500);
  EXPECT_EQ(m->upper_bounds[1].AsLong(), 499);
  EXPECT_EQ(m->lower_bounds[2].AsBytes(), "m1");
  // The long name is the maximum: truncated to 16 code points and rounded up.
  EXPECT_EQ(m->upper_bounds[2].AsBytes(), "zzzzzzzzzzzzzzz{");
  EXPECT_EQ(m->lower_bounds[3].AsDouble(), 0.5);
  EXPECT_EQ(m->upper_bounds[3].AsDouble(), 998 / 4.0);
  EXPECT_EQ(m->lower_bounds[5].AsBytes(), std::string(16, '\0'));
  EXPECT_EQ(m->upper_bounds[5].AsBytes(), std::string(15, '\x06') + '\x07');
  EXPECT_EQ(m->value_counts[6], 1000);
  EXPECT_EQ(m->lower_bounds.count(6), 0u);  // counts mode: no bounds
  EXPECT_EQ(m->value_counts.count(4), 0u);  // structs have no metrics of their own
  ASSERT_GT(m->split_offsets.size(), 1u);
  EXPECT_EQ(m->split_offsets[0], 4);

  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(file), "m.parquet"));
  ASSERT_TRUE(f) << f.error().ToString();
  int64_t sizes = 0;
  for (const auto& rg : (*f)->metadata().row_groups) sizes += rg.columns[0].meta_data->total_compressed_size;
  EXPECT_EQ(m->column_sizes[1], sizes);
  ASSERT_EQ(m->split_offsets.size(), (*f)->metadata().row_groups.size());
  for (size_t g = 0; g < m->split_offsets.size(); ++g)
    EXPECT_EQ(m->split_offsets[g], *(*f)->metadata().row_groups[g].file_offset);
  // Footer statistics carry untruncated bounds and null counts.
  auto stats = (*f)->Statistics(0, schema);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->columns[1].min.AsLong(), -500);
  EXPECT_EQ(*stats->columns[2].null_count, 25);
}

}  // namespace
}  // namespace floe::parquet
