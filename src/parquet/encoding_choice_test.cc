// Which encoding the Parquet writer picks for a column chunk (dictionary or PLAIN), and that
// each choice reads back exactly: a chunk whose first 32,768 values are all distinct is PLAIN
// from there on, the dictionary-or-PLAIN decision of the first page is taken on a sample of
// 65,536 values, and a few distinct values keep their dictionary.
#include <gtest/gtest.h>

#include <algorithm>

#include "parquet/parquet_format.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"

namespace floe::parquet {
namespace {

struct Written {
  std::string bytes;
  DataFileMetrics metrics;
  std::shared_ptr<ParquetFile> file;
};

Written Write(const ColumnBatch& batch, size_t batch_rows) {
  Written w;
  StringSink sink(&w.bytes);
  Schema schema(0, batch.fields);
  auto writer = ParquetWriter::Open(&sink, schema);
  EXPECT_TRUE(writer) << writer.error().ToString();
  for (size_t b = 0; b < batch.num_rows; b += batch_rows) {
    auto st = (*writer)->Write(batch, b, std::min(batch.num_rows, b + batch_rows));
    EXPECT_TRUE(st) << st.error().ToString();
  }
  auto m = (*writer)->Close();
  EXPECT_TRUE(m) << m.error().ToString();
  w.metrics = *m;
  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(w.bytes), "choice.parquet"));
  EXPECT_TRUE(f) << f.error().ToString();
  w.file = *f;
  return w;
}

bool UsesDictionary(const ParquetFile& file, size_t column) {
  for (const auto& rg : file.metadata().row_groups) {
    const auto& enc = rg.columns[column].meta_data->encodings;
    if (std::find(enc.begin(), enc.end(), encoding::kRleDictionary) != enc.end()) return true;
  }
  return false;
}

void ExpectReadsBack(const Written& w, const ColumnBatch& batch) {
  auto back = ReadParquetFile(w.file);
  ASSERT_TRUE(back) << back.error().ToString();
  ASSERT_EQ(back->num_rows, batch.num_rows);
  for (size_t r = 0; r < batch.num_rows; ++r) ASSERT_EQ(back->Row(r), batch.Row(r)) << "row " << r;
}

Schema IdsAndCountries() {
  return Schema(0, {{1, "id", Type::Long(), false, ""},
                    {2, "country", Type::String(), false, ""},
                    {3, "code", Type::String(), false, ""}});
}

// 200,000 rows: distinct ids (null every 10th row), 3 countries, and distinct text codes.
ColumnBatch IdsAndCountriesRows() {
  const size_t rows = 200000;
  ColumnBatch b(IdsAndCountries());
  const char* countries[] = {"DE", "FR", "US"};
  for (size_t i = 0; i < rows; ++i) {
    if (i % 10 == 7) {
      b.columns[0].AppendNull();
    } else {
      EXPECT_TRUE(b.columns[0].Append(Literal::Long(static_cast<int64_t>(i * 7 + 1000))));
    }
    EXPECT_TRUE(b.columns[1].Append(Literal::String(countries[(i * 2654435761u >> 7) % 3])));
    EXPECT_TRUE(b.columns[2].Append(Literal::String("code-" + std::to_string(rows - i))));
  }
  b.num_rows = rows;
  return b;
}

TEST(EncodingChoice, AllDistinctColumnsArePlainAndFewValuesKeepTheirDictionary) {
  ColumnBatch batch = IdsAndCountriesRows();
  Written w = Write(batch, batch.num_rows);
  EXPECT_FALSE(UsesDictionary(*w.file, 0)) << "distinct ids";
  EXPECT_TRUE(UsesDictionary(*w.file, 1)) << "3 countries";
  EXPECT_FALSE(UsesDictionary(*w.file, 2)) << "distinct codes";
  ExpectReadsBack(w, batch);
  // Bounds and counts cover every value, also those hashed before the chunk went PLAIN.
  EXPECT_EQ(w.metrics.lower_bounds.at(1), Literal::Long(1000));
  EXPECT_EQ(w.metrics.upper_bounds.at(1), Literal::Long(199999 * 7 + 1000));
  EXPECT_EQ(w.metrics.null_value_counts.at(1), 20000);
  EXPECT_EQ(w.metrics.lower_bounds.at(2), Literal::String("DE"));
  EXPECT_EQ(w.metrics.upper_bounds.at(2), Literal::String("US"));
  EXPECT_EQ(w.metrics.lower_bounds.at(3), Literal::String("code-1"));
}

// One write of every row encodes in parallel rounds; writes of 4,096 rows one slice at a time
// on the caller's thread: the choices, and so the bytes, are the same.
TEST(EncodingChoice, ParallelRoundsChooseAsSmallWritesDo) {
  ColumnBatch batch = IdsAndCountriesRows();
  Written whole = Write(batch, batch.num_rows);
  Written pieces = Write(batch, 4096);
  EXPECT_TRUE(whole.bytes == pieces.bytes) << whole.bytes.size() << " and " << pieces.bytes.size() << " bytes";
}

// The rule's one cost, stated: values all distinct at first and repeated afterwards are PLAIN,
// though a dictionary of them would have paid. They still read back exactly.
TEST(EncodingChoice, DistinctFirstValuesThatRepeatLaterArePlain) {
  Schema schema(0, {{1, "cycle", Type::Long(), false, ""}});
  ColumnBatch batch(schema);
  const size_t rows = 300000, period = 40000;
  for (size_t i = 0; i < rows; ++i) EXPECT_TRUE(batch.columns[0].Append(Literal::Long(static_cast<int64_t>(i % period))));
  batch.num_rows = rows;
  Written w = Write(batch, 65536);
  EXPECT_FALSE(UsesDictionary(*w.file, 0));
  ExpectReadsBack(w, batch);
}

TEST(EncodingChoice, ManyRepeatedValuesInRandomOrderKeepTheirDictionary) {
  Schema schema(0, {{1, "amount", Type::Long(), false, ""}, {2, "price", Type::Double(), false, ""}});
  ColumnBatch batch(schema);
  const size_t rows = 300000;
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < rows; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    EXPECT_TRUE(batch.columns[0].Append(Literal::Long(static_cast<int64_t>(x % 20000))));
    EXPECT_TRUE(batch.columns[1].Append(Literal::Double(static_cast<double>(x % 500) / 4.0)));
  }
  batch.num_rows = rows;
  Written w = Write(batch, rows);
  EXPECT_TRUE(UsesDictionary(*w.file, 0)) << "20,000 distinct amounts";
  EXPECT_TRUE(UsesDictionary(*w.file, 1)) << "500 distinct prices";
  ExpectReadsBack(w, batch);
}

}  // namespace
}  // namespace floe::parquet
