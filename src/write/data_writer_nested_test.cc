// DataWriter on nested columns: rows whose list and struct columns carry an older type (int
// elements where the table now has long, a struct without a field added since) reach the file
// with every value, and the data file's metrics are Iceberg's for nested leaves.
#include <gtest/gtest.h>

#include <cstring>

#include "io/memory_file_io.h"
#include "parquet/parquet_format.h"
#include "types/partition_spec.h"
#include "write/data_writer.h"

namespace floe {
namespace {

NestedField NestedFieldOf(int id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, ""};
}

Schema NestedTableSchema() {
  return Schema(0, {NestedFieldOf(1, "id", Type::Long(), true), NestedFieldOf(2, "tags", Type::List(NestedFieldOf(3, "element", Type::Long()))),
                    NestedFieldOf(4, "s", Type::Struct({NestedFieldOf(5, "a", Type::Long()), NestedFieldOf(6, "b", Type::String())}))});
}

TableMetadata NestedTable() {
  TableMetadata m;
  m.location = "/mem/wh/nested";
  m.schemas = {NestedTableSchema()};
  m.current_schema_id = 0;
  m.partition_specs = {PartitionSpec(0, {})};
  m.sort_orders = {SortOrder::Unsorted()};
  m.last_column_id = 6;
  return m;
}

// n rows in the older shape: tags list<int> with r % 4 elements (null on every 5th row),
// s struct<a int> (null on every 7th row).
ColumnBatch OldShapeRows(int n, int64_t* elements) {
  ColumnBatch b(Schema(0, {NestedFieldOf(1, "id", Type::Long(), true), NestedFieldOf(2, "tags", Type::List(NestedFieldOf(3, "element", Type::Int()))),
                           NestedFieldOf(4, "s", Type::Struct({NestedFieldOf(5, "a", Type::Int())}))}));
  Column& tags = b.columns[1];
  tags.children.assign(1, Column(Type::Int()));
  tags.offsets.assign(1, 0);
  tags.nulls.clear();
  Column& s = b.columns[2];
  *elements = 0;
  for (int r = 0; r < n; ++r) {
    b.columns[0].longs.push_back(r);
    ++b.columns[0].length;
    const bool tags_null = r % 5 == 4;
    tags.nulls.push_back(tags_null);
    if (!tags_null) {
      for (int k = 0; k < r % 4; ++k) {
        tags.children[0].ints.push_back(r * 10 + k);
        ++tags.children[0].length;
        ++*elements;
      }
    }
    tags.offsets.push_back(static_cast<uint32_t>(tags.children[0].length));
    ++tags.length;
    const bool s_null = r % 7 == 6;
    s.nulls.push_back(s_null);
    s.children[0].ints.push_back(s_null ? 0 : r);
    s.children[0].nulls.push_back(s_null);
    ++s.children[0].length;
    ++s.length;
  }
  b.num_rows = static_cast<size_t>(n);
  return b;
}

TEST(DataWriterNested, OlderNestedTypesKeepEveryValueAndGetNestedMetrics) {
  MemoryFileIO io;
  const TableMetadata table = NestedTable();
  DataWriter writer(io, table);
  const int n = 1000;
  int64_t elements = 0;
  ASSERT_TRUE(writer.Write(OldShapeRows(n, &elements)).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  ASSERT_EQ(files->size(), 1u);
  const DataFile& f = (*files)[0];
  EXPECT_EQ(f.record_count, n);
  // tags' element (id 3): under a list, so its size only (its entries are not rows).
  EXPECT_TRUE(f.column_sizes.count(3));
  EXPECT_FALSE(f.value_counts.count(3));
  EXPECT_FALSE(f.null_value_counts.count(3));
  EXPECT_FALSE(f.lower_bounds.count(3)) << "an element's bounds would prune rows wrongly";
  // The file's own footer: one entry per element and one per null or empty list (null there),
  // the elements widened to long.
  auto bytes = io.ReadAll(f.file_path);
  ASSERT_TRUE(bytes.has_value());
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes->data() + bytes->size() - 8, 4);
  auto footer = parquet::ReadFileMetaData(reinterpret_cast<const uint8_t*>(bytes->data()) + bytes->size() - 8 - footer_len,
                                          footer_len);
  ASSERT_TRUE(footer.has_value()) << footer.error().message;
  int64_t empty_or_null = 0, largest = 0;
  for (int r = 0; r < n; ++r) {
    empty_or_null += r % 5 == 4 || r % 4 == 0;
    if (r % 5 != 4 && r % 4 != 0) largest = r * 10 + r % 4 - 1;
  }
  int64_t entries = 0, nulls = 0;
  std::string max_bytes;
  for (const auto& rg : footer->row_groups) {
    for (const auto& chunk : rg.columns) {
      if (chunk.meta_data->path_in_schema != std::vector<std::string>{"tags", "list", "element"}) continue;
      EXPECT_EQ(chunk.meta_data->type, parquet::physical::kInt64);
      entries += chunk.meta_data->num_values;
      nulls += chunk.meta_data->statistics->null_count.value_or(-1);
      max_bytes = chunk.meta_data->statistics->max_value.value_or("");
    }
  }
  EXPECT_EQ(entries, elements + empty_or_null);
  EXPECT_EQ(nulls, empty_or_null);
  ASSERT_EQ(max_bytes.size(), 8u);
  int64_t max_value;
  std::memcpy(&max_value, max_bytes.data(), 8);
  EXPECT_EQ(max_value, largest);
  // s.a (id 5): under a struct only, so it has bounds; the int values were widened to long.
  ASSERT_TRUE(f.lower_bounds.count(5));
  ASSERT_TRUE(f.upper_bounds.count(5));
  EXPECT_EQ(f.lower_bounds.at(5), Literal::Long(0).ToBinary().value());
  EXPECT_EQ(f.upper_bounds.at(5), Literal::Long(n - 1).ToBinary().value());
  // s.b (id 6), added after the rows' shape: null in every row.
  EXPECT_EQ(f.null_value_counts.at(6), n);
}

}  // namespace
}  // namespace floe
