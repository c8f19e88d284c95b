#include "types/column_batch.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

// id long, point struct<x long, label string>, with the struct null on every fifth row and
// its label null on every third.
ColumnBatch Points(int64_t first, size_t rows) {
  TypePtr point = Type::Struct({{2, "x", Type::Long(), false, ""}, {3, "label", Type::String(), false, ""}});
  ColumnBatch batch(std::vector<NestedField>{{1, "id", Type::Long(), true, ""}, {4, "point", point, false, ""}});
  for (size_t i = 0; i < rows; ++i) {
    int64_t id = first + static_cast<int64_t>(i);
    EXPECT_TRUE(batch.columns[0].Append(Literal::Long(id)));
    Column& p = batch.columns[1];
    if (id % 5 == 0) {
      p.AppendNull();
    } else {
      EXPECT_TRUE(p.children[0].Append(Literal::Long(id * 10)));
      if (id % 3 == 0) {
        p.children[1].AppendNull();
      } else {
        EXPECT_TRUE(p.children[1].Append(Literal::String("p" + std::to_string(id))));
      }
      if (!p.nulls.empty()) p.nulls.push_back(0);
      ++p.length;
    }
    ++batch.num_rows;
  }
  return batch;
}

// "id:x:label" with "-" for a null struct and "?" for a null label.
std::string Describe(const ColumnBatch& b, size_t r) {
  std::string out = b.columns[0].Get(r).ToString() + ":";
  const Column& p = b.columns[1];
  if (p.IsNull(r)) return out + "-";
  out += p.children[0].Get(r).ToString() + ":";
  return out + (p.children[1].IsNull(r) ? "?" : std::string(p.children[1].BytesAt(r)));
}

TEST(ColumnBatch, FilterKeepsStructRowsAndTheirNullsAligned) {
  ColumnBatch all = Points(0, 40);
  std::vector<uint8_t> keep(all.num_rows);
  for (size_t r = 0; r < keep.size(); ++r) keep[r] = r % 2 == 0 || r % 5 == 0;
  ColumnBatch kept = all.Filter(keep);

  std::vector<std::string> expected, got;
  for (size_t r = 0; r < all.num_rows; ++r) {
    if (keep[r]) expected.push_back(Describe(all, r));
  }
  ASSERT_EQ(kept.num_rows, expected.size());
  for (const Column& c : {kept.columns[1], kept.columns[1].children[0], kept.columns[1].children[1]}) {
    EXPECT_EQ(c.length, kept.num_rows);
  }
  for (size_t r = 0; r < kept.num_rows; ++r) got.push_back(Describe(kept, r));
  EXPECT_EQ(got, expected);
  EXPECT_EQ(kept.columns[1].null_count(), 8u);  // every multiple of 5 in 0..39 is kept
}

TEST(ColumnBatch, AppendConcatenatesStructColumns) {
  ColumnBatch first = Points(1, 4);  // no null struct: the destination starts without null flags
  ColumnBatch second = Points(5, 11);
  ColumnBatch joined = first;
  joined.Append(second);
  ASSERT_EQ(joined.num_rows, 15u);
  for (size_t r = 0; r < 4; ++r) EXPECT_EQ(Describe(joined, r), Describe(first, r));
  for (size_t r = 0; r < 11; ++r) EXPECT_EQ(Describe(joined, 4 + r), Describe(second, r));
  EXPECT_EQ(joined.columns[1].length, 15u);
  EXPECT_EQ(joined.columns[1].children[1].length, 15u);
}

// Every primitive type, with nulls: Take of rows in any order, repeats included, equals those
// rows appended one by one (Row / AppendRow), down to the vectors (zeros under nulls, null
// flags only once a taken row is null).
TEST(ColumnBatch, TakeEqualsAppendingTheRowsOneByOne) {
  ColumnBatch all(std::vector<NestedField>{{1, "b", Type::Boolean(), false, ""},
                                           {2, "i", Type::Int(), false, ""},
                                           {3, "l", Type::Long(), false, ""},
                                           {4, "f", Type::Float(), false, ""},
                                           {5, "d", Type::Double(), false, ""},
                                           {6, "s", Type::String(), false, ""},
                                           {7, "day", Type::Date(), false, ""},
                                           {8, "ts", Type::Timestamp(), false, ""}});
  for (int r = 0; r < 30; ++r) {
    std::vector<Literal> row;
    auto or_null = [&](Literal v, int every) { return r % every == 1 ? Literal::Null(v.type()) : v; };
    row.push_back(or_null(Literal::Boolean(r % 2 == 0), 4));
    row.push_back(or_null(Literal::Int(r * 3), 5));
    row.push_back(or_null(Literal::Long(int64_t{r} << 40), 6));
    row.push_back(or_null(Literal::Float(r * 0.5f), 7));
    row.push_back(or_null(Literal::Double(r * 0.25), 3));
    row.push_back(or_null(Literal::String(std::string(static_cast<size_t>(r % 4), static_cast<char>('a' + r % 26))), 8));
    row.push_back(or_null(Literal::Date(r), 9));
    row.push_back(or_null(Literal::Timestamp(int64_t{r} * 1000), 10));
    ASSERT_TRUE(all.AppendRow(row));
  }
  const std::vector<std::vector<uint32_t>> cases = {{29, 0, 5, 5, 17, 1, 3}, {0, 2, 4, 6}, {}, {9, 9, 9}};
  for (const auto& rows : cases) {
    ColumnBatch expected(all.fields);
    for (uint32_t r : rows) ASSERT_TRUE(expected.AppendRow(all.Row(r)));
    ColumnBatch got = all.Take(rows);
    ASSERT_EQ(got.num_rows, expected.num_rows);
    for (size_t c = 0; c < all.columns.size(); ++c) {
      const Column& g = got.columns[c];
      const Column& e = expected.columns[c];
      EXPECT_EQ(g.length, e.length) << c;
      EXPECT_EQ(g.nulls, e.nulls) << c;
      EXPECT_EQ(g.bools, e.bools) << c;
      EXPECT_EQ(g.ints, e.ints) << c;
      EXPECT_EQ(g.longs, e.longs) << c;
      EXPECT_EQ(g.floats, e.floats) << c;
      EXPECT_EQ(g.doubles, e.doubles) << c;
      EXPECT_EQ(g.offsets, e.offsets) << c;
      EXPECT_EQ(g.bytes, e.bytes) << c;
    }
  }
}

}  // namespace
}  // namespace floe
