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

}  // namespace
}  // namespace floe
