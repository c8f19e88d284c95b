#include "parquet/parquet_writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "parquet/batch_append.h"
#include "parquet/compression.h"
#include "parquet/parquet_format.h"
#include "parquet/parquet_reader.h"

namespace floe::parquet {
namespace {

Schema AllTypesSchema() {
  std::vector<NestedField> st = {{20, "a", Type::Int(), false, ""}, {21, "b", Type::String(), true, ""}};
  return Schema(0, {
                       {1, "b", Type::Boolean(), false, ""},
                       {2, "i", Type::Int(), true, ""},
                       {3, "l", Type::Long(), false, ""},
                       {4, "f", Type::Float(), false, ""},
                       {5, "d", Type::Double(), false, ""},
                       {6, "dec9", Type::Decimal(9, 2), false, ""},
                       {7, "dec18", Type::Decimal(18, 3), false, ""},
                       {8, "dec38", Type::Decimal(38, 10), false, ""},
                       {9, "date", Type::Date(), false, ""},
                       {10, "time", Type::Time(), false, ""},
                       {11, "ts", Type::Timestamp(), false, ""},
                       {12, "tstz", Type::TimestampTz(), false, ""},
                       {13, "ts_ns", Type::TimestampNs(), false, ""},
                       {14, "tstz_ns", Type::TimestampTzNs(), false, ""},
                       {15, "s", Type::String(), false, ""},
                       {16, "u", Type::Uuid(), false, ""},
                       {17, "fx", Type::Fixed(3), false, ""},
                       {18, "bin", Type::Binary(), false, ""},
                       {19, "st", Type::Struct(st), false, ""},
                   });
}

// Deterministic rows; optional columns are null on every 7th row, the struct on every 11th.
ColumnBatch MakeBatch(const Schema& schema, size_t n, size_t seed) {
  ColumnBatch b(schema);
  auto put_bytes = [](Column& c, std::string_view v) {
    c.bytes.append(v);
    c.offsets.push_back(static_cast<uint32_t>(c.bytes.size()));
  };
  for (size_t k = 0; k < b.columns.size(); ++k) {
    Column& c = b.columns[k];
    const NestedField& f = b.fields[k];
    for (size_t r = 0; r < n; ++r) {
      size_t x = (r + seed) * 2654435761u;
      bool null = !f.required && (r + seed) % 7 == 3;
      if (f.type->id() == TypeId::kStruct) null = (r + seed) % 11 == 5;
      if (null) {
        c.AppendNull();
        continue;
      }
      switch (f.type->id()) {
        case TypeId::kBoolean: c.bools.push_back(x % 3 == 0); break;
        case TypeId::kInt: c.ints.push_back(static_cast<int32_t>(x % 1000) - 500); break;
        case TypeId::kDate: c.ints.push_back(static_cast<int32_t>(19000 + x % 400)); break;
        case TypeId::kFloat: c.floats.push_back(r % 13 == 0 ? NAN : static_cast<float>(x % 10000) / 7.0f); break;
        case TypeId::kDouble: c.doubles.push_back(r % 17 == 0 ? -0.0 : static_cast<double>(x % 100000) / 3.0); break;
        case TypeId::kDecimal: {
          __int128 v = static_cast<__int128>(x % 1000000) - 500000;
          if (f.type->precision() > 18) v = v * static_cast<__int128>(1000000000000000000LL) * 1000;
          c.decimals.push_back(v);
          break;
        }
        case TypeId::kString: put_bytes(c, r % 5 == 0 ? std::string("héllo wörld, a long string ") + std::to_string(x % 50) : std::to_string(x % 37)); break;
        case TypeId::kUuid: {
          std::string u(16, '\0');
          for (int i = 0; i < 16; ++i) u[i] = static_cast<char>((x >> (i % 8)) + i);
          put_bytes(c, u);
          break;
        }
        case TypeId::kFixed: put_bytes(c, std::string{static_cast<char>(x % 256), 'x', static_cast<char>(r % 256)}); break;
        case TypeId::kBinary: put_bytes(c, std::string(x % 5, static_cast<char>(0xff - r % 3))); break;
        case TypeId::kStruct: {
          Column& a = c.children[0];
          Column& s = c.children[1];
          if (r % 4 == 1) a.AppendNull(); else { a.ints.push_back(static_cast<int32_t>(r)); if (!a.nulls.empty()) a.nulls.push_back(0); ++a.length; }
          put_bytes(s, "n" + std::to_string(r % 9));
          if (!s.nulls.empty()) s.nulls.push_back(0);
          ++s.length;
          if (!c.nulls.empty()) c.nulls.push_back(0);
          ++c.length;
          continue;
        }
        default: c.longs.push_back(static_cast<int64_t>(x % 100000000) - 1000); break;
      }
      if (!c.nulls.empty()) c.nulls.push_back(0);
      ++c.length;
    }
  }
  b.num_rows = n;
  return b;
}

void ExpectSameColumn(const Column& a, const Column& b, size_t rows, const std::string& name) {
  ASSERT_EQ(b.length, rows) << name;
  for (size_t r = 0; r < rows; ++r) {
    ASSERT_EQ(a.IsNull(r), b.IsNull(r)) << name << " row " << r;
    if (a.IsNull(r)) continue;
    if (a.type->id() == TypeId::kStruct) continue;
    Literal x = a.Get(r), y = b.Get(r);
    if (a.type->id() == TypeId::kFloat && std::isnan(x.AsFloat())) {
      ASSERT_TRUE(std::isnan(y.AsFloat())) << name << " row " << r;
      continue;
    }
    if (a.type->id() == TypeId::kDouble) {
      ASSERT_EQ(std::signbit(x.AsDouble()), std::signbit(y.AsDouble())) << name << " row " << r;
    }
    ASSERT_TRUE(x == y) << name << " row " << r << ": wrote " << x.ToString() << ", read " << y.ToString();
  }
  for (size_t k = 0; k < a.children.size(); ++k) ExpectSameColumn(a.children[k], b.children[k], rows, name + "." + std::to_string(k));
}

void ExpectSameBatch(const ColumnBatch& a, const ColumnBatch& b) {
  ASSERT_EQ(a.num_rows, b.num_rows);
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (size_t k = 0; k < a.columns.size(); ++k) ExpectSameColumn(a.columns[k], b.columns[k], a.num_rows, a.fields[k].name);
}

Result<std::shared_ptr<ParquetFile>> OpenBytes(const std::string& bytes) {
  return ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(bytes), "test.parquet"));
}

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, EveryTypeWithNullsStructsPagesAndRowGroups) {
  Schema schema = AllTypesSchema();
  std::string file;
  StringSink sink(&file);
  std::map<std::string, std::string> props = {{"write.parquet.compression-codec", GetParam()},
                                              {"write.parquet.page-size-bytes", "4096"},
                                              {"write.parquet.row-group-size-bytes", "200000"}};
  auto w = ParquetWriter::Open(&sink, schema, props);
  ASSERT_TRUE(w) << w.error().ToString();
  ColumnBatch all(schema);
  for (size_t i = 0; i < 4; ++i) {
    ColumnBatch b = MakeBatch(schema, 20000 + i * 7, i * 100);
    ASSERT_TRUE((*w)->Write(b));
    AppendBatch(&all, b);
  }
  auto m = (*w)->Close();
  ASSERT_TRUE(m) << m.error().ToString();
  EXPECT_EQ(m->record_count, static_cast<int64_t>(all.num_rows));
  EXPECT_EQ(m->file_size_in_bytes, static_cast<int64_t>(file.size()));
  EXPECT_GT(m->split_offsets.size(), 1u);

  auto f = OpenBytes(file);
  ASSERT_TRUE(f) << f.error().ToString();
  EXPECT_EQ((*f)->num_rows(), static_cast<int64_t>(all.num_rows));
  EXPECT_TRUE((*f)->schema().SameStructure(schema));
  auto back = ReadParquetFile(*f);
  ASSERT_TRUE(back) << back.error().ToString();
  ExpectSameBatch(all, *back);
  for (const auto& rg : (*f)->metadata().row_groups) {
    EXPECT_EQ(rg.columns[0].meta_data->codec, *CodecFromName(GetParam()));
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTrip, ::testing::Values("zstd", "snappy", "gzip", "uncompressed"));

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

// Large writes encode columns on two threads in rounds of many rows; small ones one slice at
// a time on the caller's thread. The file must not depend on which happened.
TEST(ParquetWriter, LargeWritesProduceTheSameBytesAsSmallOnes) {
  Schema schema(0, {{1, "id", Type::Long(), true, ""},
                    {2, "country", Type::String(), false, ""},
                    {3, "amount", Type::Long(), false, ""},
                    {4, "note", Type::String(), false, ""}});
  const size_t rows = 150000;
  ColumnBatch all(schema);
  for (size_t i = 0; i < rows; ++i) {
    all.columns[0].Append(Literal::Long(static_cast<int64_t>(i)));
    if (i % 9 == 4) all.columns[1].AppendNull(); else all.columns[1].Append(Literal::String(i % 3 ? "DE" : "FR"));
    all.columns[2].Append(Literal::Long(static_cast<int64_t>((i * 7919) % 5000)));
    if (i % 5 == 0) all.columns[3].AppendNull(); else all.columns[3].Append(Literal::String("note " + std::to_string(i % 777)));
  }
  all.num_rows = rows;
  auto write = [&](size_t batch_rows) {
    std::string out;
    StringSink sink(&out);
    auto w = ParquetWriter::Open(&sink, schema, {{"write.parquet.page-size-bytes", "8192"}});
    EXPECT_TRUE(w);
    for (size_t b = 0; b < rows; b += batch_rows) {
      std::vector<uint8_t> keep(rows, 0);
      for (size_t r = b; r < std::min(rows, b + batch_rows); ++r) keep[r] = 1;
      EXPECT_TRUE((*w)->Write(batch_rows >= rows ? all : all.Filter(keep)));
    }
    EXPECT_TRUE((*w)->Close());
    return out;
  };
  std::string large = write(rows), small = write(4096);
  EXPECT_GT(large.size(), 100000u);
  EXPECT_TRUE(large == small) << "sizes " << large.size() << " and " << small.size();
  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(large), "large.parquet"));
  ASSERT_TRUE(f);
  auto back = ReadParquetFile(*f);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->num_rows, rows);
  for (size_t r = 0; r < rows; r += 997) EXPECT_EQ(back->Row(r), all.Row(r)) << r;
}

}  // namespace
}  // namespace floe::parquet
