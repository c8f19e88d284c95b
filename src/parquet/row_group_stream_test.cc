// The streamed, predicate-filtered read (RowGroupStream) against the plain whole-row-group
// read: same rows, same values, for dictionary and PLAIN-fallback pages, nulls, many pages
// and row groups, row ranges, and literals absent from the dictionary.
#include "parquet/row_group_stream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "expr/expression.h"
#include "parquet/parquet_writer.h"

namespace floe::parquet {
namespace {

constexpr int kRows = 40000;
const char* kCountries[] = {"DE", "FR", "US", "NL"};

Schema SampleSchema() {
  return Schema(0, {{1, "id", Type::Long(), true, ""},
                    {2, "country", Type::String(), false, ""},
                    {3, "amount", Type::Long(), false, ""},
                    {4, "name", Type::String(), false, ""},
                    {5, "flag", Type::Boolean(), false, ""},
                    {6, "price", Type::Double(), false, ""},
                    {7, "day", Type::Date(), false, ""}});
}

// kRows rows in several row groups of many small pages. `name` repeats 20 values for a
// while, then has a distinct value per row, so its dictionary outgrows the 1 KiB limit and
// the writer falls back to PLAIN pages part-way through a chunk.
std::shared_ptr<ParquetFile> SampleFile(const std::string& codec = "zstd") {
  static std::map<std::string, std::shared_ptr<ParquetFile>> cache;
  if (cache.count(codec)) return cache[codec];
  Schema schema = SampleSchema();
  ColumnBatch b(schema);
  for (int i = 0; i < kRows; ++i) {
    b.columns[0].Append(Literal::Long(i));
    if (i % 7 == 3) b.columns[1].AppendNull(); else b.columns[1].Append(Literal::String(kCountries[(i * 2654435761u >> 7) % 4]));
    if (i % 11 == 0) b.columns[2].AppendNull(); else b.columns[2].Append(Literal::Long((i * 37) % 1000));
    std::string name = i % 13000 < 6000 ? "r" + std::to_string(i % 20) : "n" + std::to_string(i);
    if (i % 13 == 5) b.columns[3].AppendNull(); else b.columns[3].Append(Literal::String(name));
    b.columns[4].Append(Literal::Boolean(i % 3 == 0));
    b.columns[5].Append(Literal::Double(i * 0.25));
    b.columns[6].Append(Literal(Type::Date(), static_cast<int32_t>(19000 + i % 50)));
  }
  b.num_rows = kRows;
  auto out = std::make_shared<std::string>();
  StringSink sink(out.get());
  auto w = ParquetWriter::Open(&sink, schema, {{"write.parquet.compression-codec", codec},
                                               {"write.parquet.page-size-bytes", "700"},
                                               {"write.parquet.dict-size-bytes", "1024"},
                                               {"write.parquet.row-group-size-bytes", "450000"}});
  EXPECT_TRUE(w);
  EXPECT_TRUE((*w)->Write(b));
  EXPECT_TRUE((*w)->Close());
  auto f = ParquetFile::Open(std::make_shared<BufferSource>(out, "sample.parquet"));
  EXPECT_TRUE(f) << f.error().ToString();
  cache[codec] = *f;
  return *f;
}

Schema Project(const std::vector<int>& ids) {
  std::vector<NestedField> fields;
  Schema schema = SampleSchema();
  for (int id : ids)
    for (const auto& f : schema.fields())
      if (f.id == id) fields.push_back(f);
  return Schema(0, fields);
}

ValuePredicate Pred(int id, std::vector<Literal> values) {
  Schema schema = SampleSchema();
  for (const auto& f : schema.fields())
    if (f.id == id) return ValuePredicate{f, std::move(values)};
  return ValuePredicate{};
}

// The reference: the whole row group, filtered row by row with Literal equality.
ColumnBatch Expected(const ParquetFile& file, int rg, const Schema& projection, const ValuePredicate& p,
                     std::vector<int64_t>* rows) {
  std::vector<NestedField> fields = projection.fields();
  fields.push_back(p.field);
  auto whole = file.ReadRowGroup(rg, Schema(0, fields));
  EXPECT_TRUE(whole) << whole.error().ToString();
  std::vector<uint8_t> keep(whole->num_rows, 0);
  const Column& c = whole->columns.back();
  for (size_t r = 0; r < whole->num_rows; ++r) {
    if (c.IsNull(r)) continue;
    Literal v = c.Get(r);
    for (const Literal& want : p.values) keep[r] |= v == want;
    if (keep[r]) rows->push_back(static_cast<int64_t>(r));
  }
  ColumnBatch kept = whole->Filter(keep);
  kept.fields.pop_back();
  kept.columns.pop_back();
  return kept;
}

// Everything the stream returns for the row group, concatenated.
ColumnBatch Streamed(const std::shared_ptr<ParquetFile>& file, int rg, const Schema& projection, StreamOptions options,
                     std::vector<int64_t>* rows) {
  auto stream = RowGroupStream::Open(file, rg, projection, std::move(options));
  EXPECT_TRUE(stream) << stream.error().ToString();
  ColumnBatch all(projection), batch(projection);
  std::vector<int64_t> batch_rows;
  while (true) {
    auto more = (*stream)->Next(&batch, &batch_rows);
    EXPECT_TRUE(more) << more.error().ToString();
    if (!more || !*more) break;
    EXPECT_GT(batch.num_rows, 0u);
    EXPECT_EQ(batch_rows.size(), batch.num_rows);
    for (const Column& c : batch.columns) EXPECT_EQ(c.length, batch.num_rows);
    all.Append(batch);
    rows->insert(rows->end(), batch_rows.begin(), batch_rows.end());
  }
  return all;
}

void ExpectSameRows(const ColumnBatch& got, const ColumnBatch& want, const std::string& what) {
  ASSERT_EQ(got.num_rows, want.num_rows) << what;
  for (size_t r = 0; r < got.num_rows; ++r) ASSERT_EQ(got.Row(r), want.Row(r)) << what << ", row " << r;
}

TEST(RowGroupStream, SampleHasManyPagesRowGroupsAndPlainFallback) {
  auto file = SampleFile("uncompressed");
  EXPECT_GE(file->num_row_groups(), 3);
  const ColumnMetaData& name = *file->metadata().row_groups[0].columns[3].meta_data;
  bool dict = false, plain = false;
  for (int32_t e : name.encodings) {
    dict |= e == encoding::kRleDictionary || e == encoding::kPlainDictionary;
    plain |= e == encoding::kPlain;
  }
  EXPECT_TRUE(dict && plain) << "name should start with dictionary pages and fall back to PLAIN";
}

TEST(RowGroupStream, FilteredReadEqualsFilteredWholeRead) {
  std::vector<ValuePredicate> preds = {
      Pred(2, {Literal::String("DE")}),
      Pred(2, {Literal::String("FR"), Literal::String("US")}),
      Pred(2, {Literal::String("XX")}),                         // absent from the dictionary
      Pred(4, {Literal::String("r7"), Literal::String("n12990")}),  // in dictionary pages, then PLAIN ones
      Pred(4, {Literal::String("n13")}),                          // absent
      Pred(4, {Literal::String("r3")}),
      Pred(3, {Literal::Long(370), Literal::Long(74)}),
      Pred(1, {Literal::Long(4242)}),
      Pred(5, {Literal::Boolean(true)}),
      Pred(7, {Literal(Type::Date(), 19007)}),
  };
  std::vector<Schema> projections = {Project({3}), Project({1, 3, 4}), Project({2, 6}), Project({5, 7, 4})};
  for (const std::string codec : {"zstd", "uncompressed"}) {
    auto file = SampleFile(codec);
    for (const auto& p : preds) {
      for (const auto& proj : projections) {
        for (size_t batch_rows : {size_t{1} << 16, size_t{333}}) {
          for (int rg = 0; rg < file->num_row_groups(); ++rg) {
            std::string what = codec + ", predicate on " + p.field.name + ", rg " + std::to_string(rg) + ", batch " +
                               std::to_string(batch_rows) + ", " + std::to_string(proj.fields().size()) + " columns";
            std::vector<int64_t> want_rows, got_rows;
            ColumnBatch want = Expected(*file, rg, proj, p, &want_rows);
            StreamOptions o;
            o.predicate = p;
            o.batch_rows = batch_rows;
            ColumnBatch got = Streamed(file, rg, proj, o, &got_rows);
            ExpectSameRows(got, want, what);
            EXPECT_EQ(got_rows, want_rows) << what;
          }
        }
      }
    }
  }
}

TEST(RowGroupStream, AbsentLiteralYieldsNothing) {
  auto file = SampleFile();
  StreamOptions o;
  o.predicate = Pred(2, {Literal::String("XX")});
  std::vector<int64_t> rows;
  ColumnBatch got = Streamed(file, 0, Project({1, 3}), o, &rows);
  EXPECT_EQ(got.num_rows, 0u);
}

TEST(RowGroupStream, WithoutPredicateEqualsReadRowGroup) {
  auto file = SampleFile();
  Schema proj = Project({1, 2, 3, 4, 5, 6, 7});
  for (int rg = 0; rg < file->num_row_groups(); ++rg) {
    auto whole = file->ReadRowGroup(rg, proj);
    ASSERT_TRUE(whole);
    std::vector<int64_t> rows;
    StreamOptions o;
    o.batch_rows = 1000;
    ColumnBatch got = Streamed(file, rg, proj, o, &rows);
    ExpectSameRows(got, *whole, "row group " + std::to_string(rg));
    ASSERT_EQ(rows.size(), whole->num_rows);
    for (size_t r = 0; r < rows.size(); ++r) EXPECT_EQ(rows[r], static_cast<int64_t>(r));
  }
}

TEST(RowGroupStream, RowRangesPartitionTheRowGroup) {
  auto file = SampleFile();
  Schema proj = Project({1, 3, 4});
  int64_t n = file->metadata().row_groups[0].num_rows;
  ValuePredicate p = Pred(2, {Literal::String("DE"), Literal::String("NL")});
  std::vector<int64_t> want_rows;
  ColumnBatch want = Expected(*file, 0, proj, p, &want_rows);
  for (int parts : {2, 3, 7}) {
    ColumnBatch all(proj);
    std::vector<int64_t> all_rows;
    for (int k = 0; k < parts; ++k) {
      StreamOptions o;
      o.predicate = p;
      o.row_begin = n * k / parts;
      o.row_end = n * (k + 1) / parts;
      o.batch_rows = 500;
      std::vector<int64_t> rows;
      all.Append(Streamed(file, 0, proj, o, &rows));
      for (int64_t r : rows) {
        EXPECT_GE(r, o.row_begin);
        EXPECT_LT(r, o.row_end);
      }
      all_rows.insert(all_rows.end(), rows.begin(), rows.end());
    }
    ExpectSameRows(all, want, std::to_string(parts) + " parts");
    EXPECT_EQ(all_rows, want_rows);
  }
}

TEST(RowGroupStream, ColumnsTheFileLacks) {
  auto file = SampleFile();
  NestedField extra{99, "extra", Type::String(), false, ""};
  Schema schema = SampleSchema();
  Schema proj(0, {schema.fields()[0], extra});
  // A predicate on a missing column: it is null everywhere, so nothing matches.
  StreamOptions o;
  o.predicate = ValuePredicate{extra, {Literal::String("a")}};
  std::vector<int64_t> rows;
  EXPECT_EQ(Streamed(file, 0, proj, o, &rows).num_rows, 0u);
  // A projected missing column reads as nulls.
  StreamOptions o2;
  o2.predicate = Pred(2, {Literal::String("FR")});
  ColumnBatch got = Streamed(file, 0, proj, o2, &rows);
  ASSERT_GT(got.num_rows, 0u);
  for (size_t r = 0; r < got.num_rows; ++r) EXPECT_TRUE(got.columns[1].IsNull(r));
}

TEST(RowGroupStream, RefusesWhatItCannotStream) {
  auto file = SampleFile();
  StreamOptions o;
  o.predicate = Pred(6, {Literal::Double(1.0)});
  auto s = RowGroupStream::Open(file, 0, Project({1}), o);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::kNotSupported);
  Schema nested(0, {{1, "st", Type::Struct({{2, "a", Type::Long(), false, ""}}), false, ""}});
  EXPECT_FALSE(RowGroupStream::CanStream(nested));
  EXPECT_FALSE(RowGroupStream::Open(file, 0, nested));
  EXPECT_FALSE(RowGroupStream::Open(file, file->num_row_groups(), Project({1})));
}

// Files other writers made (Spark/parquet-mr, DuckDB: other page layouts and encodings):
// for every column a predicate can use, filtering on each of its first rows' values streams
// the same rows as the whole read.
TEST(RowGroupStream, FixtureFilesStreamLikeWholeReads) {
  const char* env = std::getenv("FLOE_FIXTURES");
  std::filesystem::path dir = std::filesystem::path(env ? env : std::string(FLOE_SOURCE_DIR) + "/../shared/fixtures") / "tables";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "skipped: no fixtures";
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".parquet") continue;
    auto opened = ParquetFile::OpenPath(e.path().string());
    ASSERT_TRUE(opened) << opened.error().ToString();
    std::shared_ptr<ParquetFile> file = *opened;
    std::vector<NestedField> flat;
    for (const auto& f : file->schema().fields())
      if (f.type->is_primitive()) flat.push_back(f);
    Schema proj(0, flat);
    auto whole = file->ReadRowGroup(0, proj);
    ASSERT_TRUE(whole) << whole.error().ToString();
    ++files;
    for (size_t c = 0; c < flat.size(); ++c) {
      if (!PushdownType(*flat[c].type)) continue;
      for (size_t r = 0; r < whole->num_rows && r < 3; ++r) {
        if (whole->columns[c].IsNull(r)) continue;
        ValuePredicate p{flat[c], {whole->columns[c].Get(r)}};
        for (int rg = 0; rg < file->num_row_groups(); ++rg) {
          std::vector<int64_t> want_rows, got_rows;
          ColumnBatch want = Expected(*file, rg, proj, p, &want_rows);
          StreamOptions o;
          o.predicate = p;
          ColumnBatch got = Streamed(file, rg, proj, o, &got_rows);
          ExpectSameRows(got, want, e.path().filename().string() + ", column " + flat[c].name);
          EXPECT_GE(got.num_rows, rg == 0 ? 1u : 0u);
        }
      }
    }
  }
  EXPECT_GT(files, 0);
}

TEST(PushdownPredicate, FindsAnEqualityOrInUnderAnds) {
  Schema schema = SampleSchema();
  TermPtr country = BoundRef("country", 2, Type::String());
  TermPtr price = BoundRef("price", 6, Type::Double());
  TermPtr id = BoundRef("id", 1, Type::Long());
  Expr eq = Predicate(Op::kEq, country, {Literal::String("DE")});
  Expr gt = Predicate(Op::kGt, id, {Literal::Long(5)});
  auto p = PushdownPredicate(And(gt, eq), schema);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field.id, 2);
  ASSERT_EQ(p->values.size(), 1u);
  EXPECT_EQ(p->values[0], Literal::String("DE"));
  auto in = PushdownPredicate(Predicate(Op::kIn, id, {Literal::Long(1), Literal::Long(2)}), schema);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->values.size(), 2u);
  EXPECT_FALSE(PushdownPredicate(Or(eq, gt), schema));  // an OR does not restrict the rows
  EXPECT_FALSE(PushdownPredicate(gt, schema));
  EXPECT_FALSE(PushdownPredicate(Predicate(Op::kEq, price, {Literal::Double(1.0)}), schema));
  EXPECT_FALSE(PushdownPredicate(Predicate(Op::kNotEq, country, {Literal::String("DE")}), schema));
}

TEST(ReadRowGroupWhere, ReturnsTheMatchingRows) {
  auto file = SampleFile();
  Schema proj = Project({1, 2, 3});
  ValuePredicate p = Pred(2, {Literal::String("US")});
  for (int rg = 0; rg < file->num_row_groups(); ++rg) {
    std::vector<int64_t> rows;
    ColumnBatch want = Expected(*file, rg, proj, p, &rows);
    auto got = ReadRowGroupWhere(file, rg, proj, p);
    ASSERT_TRUE(got) << got.error().ToString();
    ExpectSameRows(*got, want, "row group " + std::to_string(rg));
  }
}

}  // namespace
}  // namespace floe::parquet
