// Position and equality delete writers: layout, sort order, metrics and what a manifest needs.
#include <gtest/gtest.h>

#include "io/memory_file_io.h"
#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "write/equality_delete_writer.h"
#include "write/position_delete_writer.h"

namespace floe {
namespace {

TableMetadata DeleteTable() {
  TableMetadata m;
  m.location = "/mem/wh/t";
  auto schema = ParseSchemaText("id long not null, country string, v long");
  EXPECT_TRUE(schema.has_value());
  m.schemas = {Schema(0, schema->fields(), {schema->fields()[0].id})};
  m.current_schema_id = 0;
  auto fields = ParsePartitionFields("country", m.schemas[0], PartitionSpec::kFirstFieldId);
  EXPECT_TRUE(fields.has_value());
  m.partition_specs = {PartitionSpec(0, *fields)};
  m.sort_orders = {SortOrder::Unsorted()};
  m.last_column_id = 3;
  return m;
}

DataFile DataIn(const std::string& path, const std::string& country) {
  DataFile f;
  f.file_path = path;
  f.partition = {Literal::String(country)};
  return f;
}

ColumnBatch ReadBack(MemoryFileIO& io, const std::string& path, const Schema& schema) {
  auto bytes = io.ReadAll(path);
  EXPECT_TRUE(bytes.has_value());
  auto file = parquet::ParquetFile::Open(std::make_shared<parquet::BufferSource>(*bytes, path));
  EXPECT_TRUE(file.has_value()) << (file ? "" : file.error().message);
  auto batch = (*file)->ReadRowGroup(0, schema);
  EXPECT_TRUE(batch.has_value());
  return *batch;
}

TEST(PositionDeleteWriter, OneSortedFilePerPartitionWithFullPathBounds) {
  MemoryFileIO io;
  TableMetadata table = DeleteTable();
  PositionDeleteWriter writer(io, table);
  const std::string a = "/mem/wh/t/data/country=DE/a.parquet", b = "/mem/wh/t/data/country=DE/b.parquet",
                    fr = "/mem/wh/t/data/country=FR/c.parquet";
  writer.Delete(DataIn(b, "DE"), std::vector<int64_t>{5, 1, 5});
  writer.Delete(DataIn(a, "DE"), 3);
  writer.Delete(DataIn(fr, "FR"), 0);
  EXPECT_EQ(writer.deleted_rows(), 5);  // before dedup
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  ASSERT_EQ(files->size(), 2u);
  const DataFile& de = (*files)[0].partition[0].AsBytes() == "DE" ? (*files)[0] : (*files)[1];
  const DataFile& other = &de == &(*files)[0] ? (*files)[1] : (*files)[0];
  EXPECT_EQ(de.content, FileContent::kPositionDeletes);
  EXPECT_NE(de.file_path.find("/mem/wh/t/data/country=DE/"), std::string::npos) << de.file_path;
  EXPECT_EQ(de.record_count, 3);
  EXPECT_EQ(de.lower_bounds.at(kDeleteFilePathFieldId), a);
  EXPECT_EQ(de.upper_bounds.at(kDeleteFilePathFieldId), b);
  EXPECT_FALSE(de.referenced_data_file.has_value());  // points at two data files
  EXPECT_EQ(other.referenced_data_file.value_or(""), fr);
  ColumnBatch rows = ReadBack(io, de.file_path, PositionDeleteSchema());
  ASSERT_EQ(rows.num_rows, 3u);
  std::vector<std::pair<std::string, int64_t>> got;
  for (size_t r = 0; r < rows.num_rows; ++r) got.emplace_back(rows.Row(r)[0].AsBytes(), rows.Row(r)[1].AsLong());
  EXPECT_EQ(got, (std::vector<std::pair<std::string, int64_t>>{{a, 3}, {b, 1}, {b, 5}}));
  writer.Abort();
  EXPECT_FALSE(io.ReadAll(de.file_path).has_value());
}

TEST(EqualityDeleteWriter, KeyColumnsWithTheirIdsPerPartition) {
  MemoryFileIO io;
  TableMetadata table = DeleteTable();
  auto ids = ResolveEqualityIds(table.CurrentSchema(), {});
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(*ids, std::vector<int>{1});  // the identifier field
  EqualityDeleteWriter writer(io, table, *ids);
  ColumnBatch rows(table.CurrentSchema());
  ASSERT_TRUE(rows.AppendRow({Literal::Long(7), Literal::String("DE"), Literal::Long(1)}).has_value());
  ASSERT_TRUE(rows.AppendRow({Literal::Long(8), Literal::String("FR"), Literal::Long(2)}).has_value());
  ASSERT_TRUE(rows.AppendRow({Literal::Long(9), Literal::String("DE"), Literal::Long(3)}).has_value());
  ASSERT_TRUE(writer.Delete(rows).has_value());
  auto files = writer.Finish();
  ASSERT_TRUE(files.has_value()) << files.error().message;
  ASSERT_EQ(files->size(), 2u);
  for (const auto& f : *files) {
    EXPECT_EQ(f.content, FileContent::kEqualityDeletes);
    EXPECT_EQ(f.equality_ids, std::vector<int>{1});
    ColumnBatch back = ReadBack(io, f.file_path, writer.delete_schema());
    ASSERT_EQ(back.fields.size(), 1u);
    EXPECT_EQ(back.fields[0].id, 1);
    EXPECT_EQ(back.num_rows, f.partition[0].AsBytes() == "DE" ? 2u : 1u);
  }
}

TEST(EqualityDeleteWriter, RefusesUnknownKeys) {
  TableMetadata table = DeleteTable();
  auto missing = ResolveEqualityIds(table.CurrentSchema(), {"nope"});
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("'nope'"), std::string::npos);
  table.schemas[0] = Schema(0, table.schemas[0].fields());
  auto none = ResolveEqualityIds(table.CurrentSchema(), {});
  ASSERT_FALSE(none.has_value());
  EXPECT_NE(none.error().message.find("identifier fields"), std::string::npos);
}

}  // namespace
}  // namespace floe
