// Format 3 types in Parquet: variant (unshredded group), geometry / geography (annotated WKB),
// unknown (no column at all), written and read back through floe's own codec.
#include <gtest/gtest.h>

#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"
#include "types/variant.h"
#include "types/wkb.h"

namespace floe::parquet {
namespace {

Schema V3Schema() {
  return Schema(0, {{1, "id", Type::Long(), true, ""},
                    {2, "doc", Type::Variant(), false, ""},
                    {3, "gone", Type::Unknown(), false, ""},
                    {4, "shape", Type::Geometry("srid:3857"), false, ""},
                    {5, "place", Type::Geography("OGC:CRS84", "karney"), false, ""}});
}

const char* kPoint = "0101000000000000000000f03f0000000000000040";  // POINT (1 2)

TEST(ParquetV3Types, VariantGeometryAndUnknownRoundTrip) {
  Schema schema = V3Schema();
  ColumnBatch batch(schema);
  const std::vector<std::string> docs = {R"({"a":1,"b":[true,"x"]})", "null-row", R"("text")", "3.5"};
  for (size_t r = 0; r < docs.size(); ++r) {
    std::vector<Literal> row = {Literal::Long(static_cast<int64_t>(r))};
    row.push_back(docs[r] == "null-row" ? Literal::Null(Type::Variant())
                                        : *Literal::String(docs[r]).CastTo(Type::Variant()));
    row.push_back(Literal::Null(Type::Unknown()));
    row.push_back(r == 1 ? Literal::Null(schema.fields()[3].type) : *Literal::String(kPoint).CastTo(schema.fields()[3].type));
    row.push_back(*Literal::String(kPoint).CastTo(schema.fields()[4].type));
    ASSERT_TRUE(batch.AppendRow(row));
  }
  std::string file;
  StringSink sink(&file);
  auto w = ParquetWriter::Open(&sink, schema, {});
  ASSERT_TRUE(w) << w.error().ToString();
  ASSERT_TRUE((*w)->Write(batch));
  auto metrics = (*w)->Close();
  ASSERT_TRUE(metrics) << metrics.error().ToString();
  EXPECT_EQ(metrics->null_value_counts.at(2), 1);
  EXPECT_FALSE(metrics->lower_bounds.count(2));  // a variant has no bounds
  EXPECT_FALSE(metrics->lower_bounds.count(4));  // nor WKB bytes
  EXPECT_FALSE(metrics->column_sizes.count(3));  // unknown: no column

  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(file), "v3.parquet"));
  ASSERT_TRUE(f) << f.error().ToString();
  // The file's layout: id, doc {metadata, value}, shape, place; no column for 'gone'.
  std::vector<std::string> names;
  for (const auto& e : (*f)->metadata().schema) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"table", "id", "doc", "metadata", "value", "shape", "place"}));
  EXPECT_EQ((*f)->metadata().schema[2].logical_type.kind, LogicalType::kVariant);
  EXPECT_EQ((*f)->metadata().schema[5].logical_type.kind, LogicalType::kGeometry);
  EXPECT_EQ((*f)->metadata().schema[5].logical_type.crs, "srid:3857");
  EXPECT_EQ((*f)->metadata().schema[6].logical_type.kind, LogicalType::kGeography);
  EXPECT_EQ((*f)->metadata().schema[6].logical_type.crs, "");  // the default is left out
  EXPECT_EQ((*f)->metadata().schema[6].logical_type.algorithm, 4);  // karney

  auto back = (*f)->ReadRowGroup(0, schema, 1);
  ASSERT_TRUE(back) << back.error().ToString();
  ASSERT_EQ(back->num_rows, docs.size());
  EXPECT_EQ(back->columns[1].Get(0).ToJson().dump(), R"({"a":1,"b":[true,"x"]})");
  EXPECT_TRUE(back->columns[1].IsNull(1));
  EXPECT_EQ(back->columns[1].Get(2).ToJson().dump(), R"("text")");
  EXPECT_EQ(back->columns[1].Get(3).ToJson().dump(), "3.5");
  for (size_t r = 0; r < docs.size(); ++r) EXPECT_TRUE(back->columns[2].IsNull(r));
  EXPECT_EQ(back->columns[3].Get(0).ToJson(), "POINT (1 2)");
  EXPECT_TRUE(back->columns[3].IsNull(1));
  EXPECT_EQ(WkbHex(back->columns[4].Get(3).AsBytes()), kPoint);
}

TEST(ParquetV3Types, BadValuesAreRefusedOnTheWayIn) {
  auto bad_json = Literal::String("{oops").CastTo(Type::Variant());
  ASSERT_FALSE(bad_json);
  EXPECT_NE(bad_json.error().message.find("is not JSON"), std::string::npos);
  auto bad_wkb = Literal::String("01010000").CastTo(Type::Geometry());
  ASSERT_FALSE(bad_wkb);
  EXPECT_NE(bad_wkb.error().message.find("WKB"), std::string::npos);
  auto not_null = Literal::String("1").CastTo(Type::Unknown());
  EXPECT_FALSE(not_null);
}

}  // namespace
}  // namespace floe::parquet
