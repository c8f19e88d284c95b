// Hostile input: truncated, bit-flipped and lying files must yield an error that names the
// file, never a crash or an out-of-bounds read (run these under -DFLOE_SANITIZE=ON too).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "parquet/compression.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"
#include "parquet/rle.h"
#include "parquet/row_group_stream.h"

namespace floe::parquet {
namespace {

const char kName[] = "hostile.parquet";

std::string WriteSample(const std::string& codec) {
  Schema schema(0, {{1, "id", Type::Long(), true, ""},
                    {2, "s", Type::String(), false, ""},
                    {3, "d", Type::Double(), false, ""},
                    {4, "st", Type::Struct({{5, "b", Type::Boolean(), false, ""}, {6, "u", Type::Uuid(), false, ""}}), false, ""},
                    {7, "dec", Type::Decimal(30, 2), false, ""}});
  ColumnBatch b(schema);
  for (int i = 0; i < 3000; ++i) {
    b.columns[0].Append(Literal::Long(i * 3));
    if (i % 5 == 0) b.columns[1].AppendNull(); else b.columns[1].Append(Literal::String("v" + std::to_string(i % 40)));
    b.columns[2].Append(Literal::Double(i * 0.5));
    Column& st = b.columns[3];
    if (i % 7 == 0) {
      st.AppendNull();
    } else {
      st.children[0].Append(Literal::Boolean(i % 2));
      st.children[1].Append(Literal(Type::Uuid(), std::string(16, static_cast<char>(i))));
      if (!st.nulls.empty()) st.nulls.push_back(0);
      ++st.length;
    }
    b.columns[4].Append(Literal::Decimal(static_cast<__int128>(i) * 1000003, 30, 2));
  }
  b.num_rows = 3000;
  std::string out;
  StringSink sink(&out);
  auto w = ParquetWriter::Open(&sink, schema, {{"write.parquet.compression-codec", codec},
                                               {"write.parquet.page-size-bytes", "2048"},
                                               {"write.parquet.row-group-size-bytes", "16000"}});
  EXPECT_TRUE(w);
  EXPECT_TRUE((*w)->Write(b));
  EXPECT_TRUE((*w)->Close());
  return out;
}

// Streams every row group's primitive columns, filtered by a predicate on field 1 (a long
// in both the sample and the hand-built files) and, when present, field 2 (the sample's
// string column). Returns the first error, if any.
std::optional<Error> TryStream(const std::shared_ptr<ParquetFile>& f) {
  std::vector<NestedField> flat;
  for (const auto& field : f->schema().fields())
    if (field.type->is_primitive()) flat.push_back(field);
  Schema projection(0, flat);
  std::vector<ValuePredicate> preds;
  for (const auto& field : flat) {
    if (field.id == 1) preds.push_back({field, {Literal::Long(10), Literal::Long(30)}});
    if (field.id == 2) preds.push_back({field, {Literal::String("v3")}});
  }
  for (const auto& p : preds) {
    for (int g = 0; g < f->num_row_groups(); ++g) {
      auto rows = ReadRowGroupWhere(f, g, projection, p);
      if (!rows) return rows.error();
    }
  }
  return std::nullopt;
}

// Opens and fully reads bytes (whole row groups, then streamed); returns the error, if any.
std::optional<Error> TryRead(const std::string& bytes) {
  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(bytes), kName));
  if (!f) return f.error();
  auto all = ReadParquetFile(*f);
  if (!all) return all.error();
  for (int g = 0; g < (*f)->num_row_groups(); ++g) {
    auto s = (*f)->Statistics(g, (*f)->schema());
    if (!s) return s.error();
  }
  return TryStream(*f);
}

void ExpectCleanError(const std::optional<Error>& e, const std::string& what) {
  if (!e) return;  // some damage goes unnoticed (a flipped value bit): fine, as long as nothing crashes
  EXPECT_NE(e->message.find(kName), std::string::npos) << what << ": " << e->ToString();
  EXPECT_TRUE(e->kind == ErrorKind::kCorrupt || e->kind == ErrorKind::kNotSupported || e->kind == ErrorKind::kInvalidArgument)
      << what << ": " << e->ToString();
}

TEST(Hostile, SampleReadsCleanly) {
  for (const char* codec : {"uncompressed", "zstd", "snappy", "gzip"}) {
    std::string file = WriteSample(codec);
    EXPECT_FALSE(TryRead(file).has_value()) << codec;
  }
}

TEST(Hostile, EveryTruncationIsAnError) {
  std::string file = WriteSample("uncompressed");
  for (size_t len = 0; len < file.size(); len += (len < 64 || len > file.size() - 4096) ? 1 : 97) {
    auto e = TryRead(file.substr(0, len));
    ASSERT_TRUE(e.has_value()) << "prefix of " << len << " bytes read without error";
    ExpectCleanError(e, "prefix " + std::to_string(len));
  }
}

TEST(Hostile, BytesCutFromTheMiddleAreCaught) {
  std::string file = WriteSample("snappy");
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    size_t at = 4 + rng() % (file.size() - 200);
    size_t n = 1 + rng() % 64;
    std::string cut = file.substr(0, at) + file.substr(at + n);
    ExpectCleanError(TryRead(cut), "cut at " + std::to_string(at));
  }
}

TEST(Hostile, BitFlipsNeverCrash) {
  for (const char* codec : {"uncompressed", "zstd", "snappy", "gzip"}) {
    std::string file = WriteSample(codec);
    std::mt19937 rng(42);
    for (int i = 0; i < 1500; ++i) {
      std::string bad = file;
      // Half the flips land in the footer, where one bit changes the file's structure.
      size_t footer_start = file.size() - 8 - (file.size() > 4000 ? 4000 : file.size() / 2);
      size_t pos = (i % 2) ? footer_start + rng() % (file.size() - footer_start) : rng() % file.size();
      bad[pos] = static_cast<char>(bad[pos] ^ (1 << (rng() % 8)));
      ExpectCleanError(TryRead(bad), std::string(codec) + " flip at " + std::to_string(pos));
    }
  }
}

// ---- hand-built files that lie ----

struct Page {
  PageHeader header;
  std::string body;
};

// A file with one optional INT64 column (field id 1) holding `rows` rows in one row group.
std::string BuildFile(const std::vector<Page>& pages, int64_t rows, int64_t chunk_values, int64_t size_adjust = 0,
                      int64_t offset_adjust = 0) {
  std::string out = "PAR1";
  int64_t start = static_cast<int64_t>(out.size());
  bool has_dict = false;
  int64_t data_offset = start;
  for (const auto& p : pages) {
    if (p.header.type == page_type::kDictionaryPage) {
      has_dict = true;
    } else if (data_offset == start && has_dict) {
      data_offset = static_cast<int64_t>(out.size());
    }
    WritePageHeader(p.header, &out);
    out += p.body;
  }
  FileMetaData m;
  SchemaElement root;
  root.name = "table";
  root.num_children = 1;
  SchemaElement x;
  x.name = "x";
  x.type = physical::kInt64;
  x.repetition_type = repetition::kOptional;
  x.field_id = 1;
  m.schema = {root, x};
  m.num_rows = rows;
  RowGroup rg;
  rg.num_rows = rows;
  ColumnChunk cc;
  cc.file_offset = start;
  ColumnMetaData& md = cc.meta_data.emplace();
  md.type = physical::kInt64;
  md.encodings = {encoding::kPlain, encoding::kRle};
  md.path_in_schema = {"x"};
  md.codec = codec::kUncompressed;
  md.num_values = chunk_values;
  md.total_compressed_size = static_cast<int64_t>(out.size()) - start + size_adjust;
  md.total_uncompressed_size = md.total_compressed_size;
  md.data_page_offset = data_offset + offset_adjust;
  if (has_dict) md.dictionary_page_offset = start + offset_adjust;
  rg.columns = {cc};
  m.row_groups = {rg};
  std::string footer;
  WriteFileMetaData(m, &footer);
  uint32_t len = static_cast<uint32_t>(footer.size());
  out += footer;
  out.append(reinterpret_cast<const char*>(&len), 4);
  out += "PAR1";
  return out;
}

std::string Levels(const std::vector<uint8_t>& levels) {
  std::string rle;
  RleEncode(levels.data(), levels.size(), 1, &rle);
  uint32_t len = static_cast<uint32_t>(rle.size());
  return std::string(reinterpret_cast<const char*>(&len), 4) + rle;
}

Page DataPage(int32_t num_values, int32_t enc, std::string body) {
  Page p;
  p.header.type = page_type::kDataPage;
  p.header.uncompressed_page_size = static_cast<int32_t>(body.size());
  p.header.compressed_page_size = static_cast<int32_t>(body.size());
  p.header.data_page_header = DataPageHeader{num_values, enc, encoding::kRle, encoding::kRle, std::nullopt};
  p.body = std::move(body);
  return p;
}

Page DictPage(const std::vector<int64_t>& values) {
  Page p;
  p.body.assign(reinterpret_cast<const char*>(values.data()), values.size() * 8);
  p.header.type = page_type::kDictionaryPage;
  p.header.uncompressed_page_size = static_cast<int32_t>(p.body.size());
  p.header.compressed_page_size = static_cast<int32_t>(p.body.size());
  p.header.dictionary_page_header = DictionaryPageHeader{static_cast<int32_t>(values.size()), encoding::kPlain, std::nullopt};
  return p;
}

std::string Indices(const std::vector<uint32_t>& idx, int width) {
  std::string s(1, static_cast<char>(width));
  RleEncode(idx.data(), idx.size(), width, &s);
  return s;
}

std::string Plain(const std::vector<int64_t>& v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 8); }

void ExpectCorrupt(const std::string& file, const std::string& needle) {
  auto e = TryRead(file);
  ASSERT_TRUE(e.has_value()) << "expected an error mentioning '" << needle << "'";
  EXPECT_EQ(e->kind, ErrorKind::kCorrupt) << e->ToString();
  EXPECT_NE(e->message.find(kName), std::string::npos) << e->ToString();
  EXPECT_NE(e->message.find(needle), std::string::npos) << e->ToString();
}

TEST(Lying, HonestHandBuiltFileReads) {
  std::string f = BuildFile({DictPage({10, 20}), DataPage(4, encoding::kRleDictionary, Levels({1, 0, 1, 1}) + Indices({1, 0, 1}, 1))}, 4, 4);
  auto file = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(f), kName));
  ASSERT_TRUE(file) << file.error().ToString();
  auto b = ReadParquetFile(*file);
  ASSERT_TRUE(b) << b.error().ToString();
  ASSERT_EQ(b->num_rows, 4u);
  EXPECT_EQ(b->columns[0].Get(0).AsLong(), 20);
  EXPECT_TRUE(b->columns[0].IsNull(1));
  EXPECT_EQ(b->columns[0].Get(2).AsLong(), 10);
  EXPECT_EQ(b->columns[0].Get(3).AsLong(), 20);
}

TEST(Lying, DictionaryIndexBeyondTheDictionary) {
  ExpectCorrupt(BuildFile({DictPage({10, 20}), DataPage(3, encoding::kRleDictionary, Levels({1, 1, 1}) + Indices({0, 5, 1}, 3))}, 3, 3),
                "dictionary index 5");
}

// The streamed, filtered read checks dictionary ids too. A literal the dictionary lacks lets
// it skip the page without decoding its ids: the answer (no rows) holds whatever they are.
TEST(Lying, StreamedFilterChecksDictionaryIndexes) {
  std::string bytes = BuildFile({DictPage({10, 20}), DataPage(3, encoding::kRleDictionary, Levels({1, 1, 1}) + Indices({0, 5, 1}, 3))}, 3, 3);
  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(bytes), kName));
  ASSERT_TRUE(f) << f.error().ToString();
  NestedField x = (*f)->schema().fields()[0];
  Schema projection(0, {x});
  auto bad = ReadRowGroupWhere(*f, 0, projection, ValuePredicate{x, {Literal::Long(20)}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(bad.error().message.find(kName), std::string::npos) << bad.error().ToString();
  EXPECT_NE(bad.error().message.find("dictionary index 5"), std::string::npos) << bad.error().ToString();
  auto none = ReadRowGroupWhere(*f, 0, projection, ValuePredicate{x, {Literal::Long(99)}});
  ASSERT_TRUE(none) << none.error().ToString();
  EXPECT_EQ(none->num_rows, 0u);
}

TEST(Lying, DictionaryEncodedPageWithoutDictionary) {
  ExpectCorrupt(BuildFile({DataPage(2, encoding::kRleDictionary, Levels({1, 1}) + Indices({0, 0}, 1))}, 2, 2), "without a dictionary");
}

TEST(Lying, PageClaimsMoreValuesThanItsLevelsHold) {
  ExpectCorrupt(BuildFile({DataPage(9, encoding::kPlain, Levels({1, 1}) + Plain({1, 2}))}, 9, 9), "RLE");
}

TEST(Lying, PageClaimsMoreValuesThanItsDataHolds) {
  ExpectCorrupt(BuildFile({DataPage(3, encoding::kPlain, Levels({1, 1, 1}) + Plain({1, 2}))}, 3, 3), "PLAIN values reach past");
}

TEST(Lying, LevelCountsDisagreeWithRowCounts) {
  ExpectCorrupt(BuildFile({DataPage(2, encoding::kPlain, Levels({1, 1}) + Plain({1, 2}))}, 5, 2), "values but the row group has 5 rows");
}

TEST(Lying, ChunkOffsetsAndSizesOutsideTheFile) {
  std::vector<Page> pages = {DataPage(2, encoding::kPlain, Levels({1, 1}) + Plain({1, 2}))};
  ExpectCorrupt(BuildFile(pages, 2, 2, 1 << 20), "outside the file");
  ExpectCorrupt(BuildFile(pages, 2, 2, 0, 1 << 20), "outside the file");
  ExpectCorrupt(BuildFile(pages, 2, 2, -5), "page reaches past the end of the column chunk");
}

TEST(Lying, PageSizeLargerThanTheChunk) {
  Page p = DataPage(2, encoding::kPlain, Levels({1, 1}) + Plain({1, 2}));
  p.header.compressed_page_size += 1000;
  ExpectCorrupt(BuildFile({p}, 2, 2), "page reaches past the end");
  Page q = DataPage(2, encoding::kPlain, Levels({1, 1}) + Plain({1, 2}));
  q.header.uncompressed_page_size = 5;
  ExpectCorrupt(BuildFile({q}, 2, 2), "size does not match");
}

TEST(Lying, FooterLengthAndMagic) {
  std::string good = BuildFile({DataPage(2, encoding::kPlain, Levels({1, 1}) + Plain({1, 2}))}, 2, 2);
  std::string bad = good;
  uint32_t huge = 1u << 30;
  std::memcpy(bad.data() + bad.size() - 8, &huge, 4);
  ExpectCorrupt(bad, "footer length");
  bad = good;
  bad[0] = 'X';
  ExpectCorrupt(bad, "magic");
}

}  // namespace
}  // namespace floe::parquet
