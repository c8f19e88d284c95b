#include "parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include "parquet/parquet_format.h"

namespace floe::parquet {
namespace {

TEST(ThriftCompact, RoundTripsFieldsAndSkipsUnknownOnes) {
  std::string buf;
  ThriftWriter w(&buf);
  w.BeginStruct();
  w.FieldI32(1, -5);
  w.FieldI64(2, 1LL << 40);
  w.FieldBinary(3, "hello");
  w.FieldBool(4, true);
  w.FieldI32(40, 7);  // a long id jump: written with an explicit id
  w.FieldListBegin(41, ThriftType::kI32, 20);
  for (int i = 0; i < 20; ++i) w.ElementI32(i * 1000);
  w.FieldStructBegin(42);
  w.FieldDouble(1, 2.5);
  w.EndStruct();
  w.EndStruct();

  ThriftReader r(reinterpret_cast<const uint8_t*>(buf.data()), buf.size());
  ASSERT_TRUE(r.BeginStruct());
  auto h = r.ReadFieldHeader();
  ASSERT_TRUE(h);
  EXPECT_EQ(h->id, 1);
  EXPECT_EQ(*r.ReadI32(), -5);
  h = r.ReadFieldHeader();
  EXPECT_EQ(h->id, 2);
  EXPECT_EQ(*r.ReadI64(), 1LL << 40);
  h = r.ReadFieldHeader();
  EXPECT_EQ(h->id, 3);
  EXPECT_EQ(*r.ReadBinary(), "hello");
  h = r.ReadFieldHeader();
  EXPECT_EQ(h->id, 4);
  EXPECT_TRUE(*r.ReadBool(h->type));
  h = r.ReadFieldHeader();
  EXPECT_EQ(h->id, 40);
  EXPECT_EQ(*r.ReadI32(), 7);
  h = r.ReadFieldHeader();
  EXPECT_EQ(h->id, 41);
  ASSERT_TRUE(r.Skip(h->type));
  h = r.ReadFieldHeader();
  EXPECT_EQ(h->id, 42);
  ASSERT_TRUE(r.Skip(h->type));
  h = r.ReadFieldHeader();
  ASSERT_TRUE(h);
  EXPECT_EQ(h->type, ThriftType::kStop);
  EXPECT_EQ(r.position(), buf.size());
}

TEST(ThriftCompact, TruncatedAndHostileInputIsCorrupt) {
  std::string buf;
  ThriftWriter w(&buf);
  w.BeginStruct();
  w.FieldBinary(1, "a long enough string");
  w.EndStruct();
  for (size_t cut = 0; cut < buf.size(); ++cut) {
    ThriftReader r(reinterpret_cast<const uint8_t*>(buf.data()), cut);
    Status s = r.Skip(ThriftType::kStruct);
    ASSERT_FALSE(s) << "cut at " << cut;
    EXPECT_EQ(s.error().kind, ErrorKind::kCorrupt);
  }
  // A list claiming 2^31 elements in a few bytes.
  std::string lie = "\x19\xf5\xff\xff\xff\xff\x07";
  ThriftReader r(reinterpret_cast<const uint8_t*>(lie.data()), lie.size());
  EXPECT_FALSE(r.Skip(ThriftType::kStruct));
  // Deeply nested structs are refused rather than recursing without bound.
  std::string deep(10000, '\x1c');
  ThriftReader d(reinterpret_cast<const uint8_t*>(deep.data()), deep.size());
  EXPECT_FALSE(d.Skip(ThriftType::kStruct));
}

TEST(ParquetFormat, FileMetaDataRoundTrip) {
  FileMetaData m;
  m.version = 1;
  SchemaElement root;
  root.name = "table";
  root.num_children = 1;
  SchemaElement leaf;
  leaf.name = "ts";
  leaf.type = physical::kInt64;
  leaf.repetition_type = repetition::kOptional;
  leaf.field_id = 7;
  leaf.converted_type = converted::kTimestampMicros;
  leaf.logical_type.kind = LogicalType::kTimestamp;
  leaf.logical_type.adjusted_to_utc = true;
  leaf.logical_type.unit = LogicalType::kNanos;
  m.schema = {root, leaf};
  m.num_rows = 3;
  RowGroup g;
  g.num_rows = 3;
  g.total_byte_size = 99;
  ColumnChunk c;
  c.file_offset = 4;
  c.meta_data.emplace();
  c.meta_data->type = physical::kInt64;
  c.meta_data->encodings = {encoding::kPlain, encoding::kRle};
  c.meta_data->path_in_schema = {"ts"};
  c.meta_data->codec = codec::kZstd;
  c.meta_data->num_values = 3;
  c.meta_data->data_page_offset = 4;
  c.meta_data->statistics.emplace();
  c.meta_data->statistics->min_value = std::string("\x01\0\0\0\0\0\0\0", 8);
  c.meta_data->statistics->null_count = 1;
  g.columns = {c};
  m.row_groups = {g};
  m.key_value_metadata = {{"iceberg.schema", "{}"}};
  m.created_by = "floe";
  m.column_orders = 1;

  std::string buf;
  WriteFileMetaData(m, &buf);
  auto back = ReadFileMetaData(reinterpret_cast<const uint8_t*>(buf.data()), buf.size());
  ASSERT_TRUE(back) << back.error().ToString();
  ASSERT_EQ(back->schema.size(), 2u);
  EXPECT_EQ(back->schema[1].field_id, 7);
  EXPECT_EQ(back->schema[1].logical_type.kind, LogicalType::kTimestamp);
  EXPECT_TRUE(back->schema[1].logical_type.adjusted_to_utc);
  EXPECT_EQ(back->schema[1].logical_type.unit, LogicalType::kNanos);
  ASSERT_EQ(back->row_groups.size(), 1u);
  const auto& md = *back->row_groups[0].columns[0].meta_data;
  EXPECT_EQ(md.codec, codec::kZstd);
  EXPECT_EQ(md.encodings, (std::vector<int32_t>{encoding::kPlain, encoding::kRle}));
  EXPECT_EQ(md.statistics->null_count, 1);
  EXPECT_EQ(md.statistics->min_value->size(), 8u);
  EXPECT_EQ(back->key_value_metadata[0].value, "{}");
  EXPECT_EQ(back->column_orders, 1u);

  // Every truncation is an error, never a crash.
  for (size_t cut = 0; cut < buf.size(); ++cut) {
    EXPECT_FALSE(ReadFileMetaData(reinterpret_cast<const uint8_t*>(buf.data()), cut)) << cut;
  }
}

TEST(ParquetFormat, PageHeaderRoundTrip) {
  PageHeader ph;
  ph.type = page_type::kDataPageV2;
  ph.uncompressed_page_size = 100;
  ph.compressed_page_size = 50;
  ph.data_page_header_v2 = DataPageHeaderV2{10, 2, 10, encoding::kRleDictionary, 3, 0, false};
  std::string buf;
  WritePageHeader(ph, &buf);
  buf += "payload";
  size_t header_size = 0;
  auto back = ReadPageHeader(reinterpret_cast<const uint8_t*>(buf.data()), buf.size(), &header_size);
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(header_size, buf.size() - 7);
  EXPECT_EQ(back->data_page_header_v2->num_nulls, 2);
  EXPECT_FALSE(back->data_page_header_v2->is_compressed);
  EXPECT_EQ(back->data_page_header_v2->encoding, encoding::kRleDictionary);
}

}  // namespace
}  // namespace floe::parquet
