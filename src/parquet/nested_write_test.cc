// Writing lists, maps and structs nested in each other: the Parquet schema, the levels, the
// metrics. tests/interop/nested_parquet_write_test.py runs NestedWrite.EveryShapeFile with
// FLOE_NESTED_PARQUET_OUT set and has pyarrow read the file back against the rows it records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "parquet/file_schema.h"
#include "parquet/nested_levels.h"
#include "parquet/parquet_format.h"
#include "parquet/parquet_writer.h"
#include "parquet/rle.h"

namespace floe::parquet {
namespace {

using nlohmann::json;

// A row of this row's column gets `v`: JSON null, a number, a string, an array (list), an
// object keyed by field name (struct) or an array of [key, value] pairs (map).
void AppendJson(Column& c, const json& v);

void AppendNullRow(Column& c) {
  if (c.nulls.empty()) c.nulls.assign(c.length, 0);
  c.nulls.push_back(1);
  switch (c.type->id()) {
    case TypeId::kInt: c.ints.push_back(0); break;
    case TypeId::kLong: c.longs.push_back(0); break;
    case TypeId::kDouble: c.doubles.push_back(0); break;
    case TypeId::kString: c.offsets.push_back(static_cast<uint32_t>(c.bytes.size())); break;
    case TypeId::kList:
    case TypeId::kMap: c.offsets.push_back(c.offsets.back()); break;
    case TypeId::kStruct:
      for (Column& child : c.children) AppendNullRow(child);
      break;
    default: FAIL() << "test builder lacks " << c.type->ToString();
  }
  ++c.length;
}

// Gives a fresh nested column its children, at every depth, and a list or map its first offset.
void PrepareNested(Column& c) {
  if (!c.type->is_nested()) return;
  if (c.children.empty())
    for (const auto& f : c.type->fields()) c.children.emplace_back(f.type);
  if (c.type->id() != TypeId::kStruct && c.offsets.empty()) c.offsets.assign(1, 0);
  for (Column& child : c.children) PrepareNested(child);
}

void AppendJson(Column& c, const json& v) {
  if (c.type->is_nested()) PrepareNested(c);
  if (v.is_null()) return AppendNullRow(c);
  if (!c.nulls.empty()) c.nulls.push_back(0);
  switch (c.type->id()) {
    case TypeId::kInt: c.ints.push_back(v.get<int32_t>()); break;
    case TypeId::kLong: c.longs.push_back(v.get<int64_t>()); break;
    case TypeId::kDouble: c.doubles.push_back(v.get<double>()); break;
    case TypeId::kString:
      c.bytes += v.get<std::string>();
      c.offsets.push_back(static_cast<uint32_t>(c.bytes.size()));
      break;
    case TypeId::kStruct:
      for (size_t i = 0; i < c.children.size(); ++i) {
        const std::string& name = c.type->fields()[i].name;
        AppendJson(c.children[i], v.contains(name) ? v[name] : json());
      }
      break;
    case TypeId::kList:
      for (const json& e : v) AppendJson(c.children[0], e);
      c.offsets.push_back(static_cast<uint32_t>(c.children[0].length));
      break;
    case TypeId::kMap:
      for (const json& kv : v) {
        AppendJson(c.children[0], kv[0]);
        AppendJson(c.children[1], kv[1]);
      }
      c.offsets.push_back(static_cast<uint32_t>(c.children[0].length));
      break;
    default: FAIL() << "test builder lacks " << c.type->ToString();
  }
  ++c.length;
}

ColumnBatch BatchOf(const Schema& schema, const std::vector<json>& rows) {
  ColumnBatch b(schema);
  for (size_t k = 0; k < b.columns.size(); ++k) {
    PrepareNested(b.columns[k]);
    for (const json& row : rows) AppendJson(b.columns[k], row[b.fields[k].name]);
  }
  b.num_rows = rows.size();
  return b;
}

NestedField F(int id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, ""};
}

// Every shape: lists and maps of primitives, of structs, of lists; structs holding lists;
// required and optional at each level.
Schema EveryShapeSchema() {
  return Schema(0, {
      F(1, "id", Type::Long(), true),
      F(2, "tags", Type::List(F(10, "element", Type::String()))),
      F(3, "attrs", Type::Map(F(11, "key", Type::String(), true), F(12, "value", Type::Int()))),
      F(4, "pts", Type::List(F(13, "element", Type::Struct({F(14, "x", Type::Int()),
                                                             F(15, "ys", Type::List(F(16, "element", Type::Int(), true)))})))),
      F(5, "m2", Type::Map(F(17, "key", Type::String(), true), F(18, "value", Type::List(F(19, "element", Type::String()))))),
      F(6, "s", Type::Struct({F(20, "name", Type::String()), F(21, "nums", Type::List(F(22, "element", Type::Long())))})),
      F(7, "req", Type::List(F(23, "element", Type::Int(), true)), true),
      F(8, "grid", Type::List(F(24, "element", Type::List(F(25, "element", Type::Double()))))),
  });
}

// Row r of the every-shape file: nulls and empties at every level, by residues of r.
json EveryShapeRow(int r) {
  json row;
  row["id"] = r;
  if (r % 7 == 3) {
    row["tags"] = nullptr;
  } else {
    json tags = json::array();
    for (int k = 0; k < r % 4; ++k) tags.push_back(k == 1 && r % 3 == 0 ? json() : json("t" + std::to_string(r % 50) + "_" + std::to_string(k)));
    row["tags"] = tags;
  }
  if (r % 5 == 4) {
    row["attrs"] = nullptr;
  } else {
    json attrs = json::array();
    for (int k = 0; k < r % 3; ++k) attrs.push_back({"k" + std::to_string(k), (r + k) % 4 == 0 ? json() : json(r * 10 + k)});
    row["attrs"] = attrs;
  }
  if (r % 9 == 8) {
    row["pts"] = nullptr;
  } else {
    json pts = json::array();
    for (int k = 0; k < r % 3; ++k) {
      if ((r + k) % 5 == 0) {
        pts.push_back(nullptr);
        continue;
      }
      json ys = json::array();
      for (int j = 0; j < (r + k) % 3; ++j) ys.push_back(r * 100 + j);
      pts.push_back({{"x", k == 2 ? json() : json(r + k)}, {"ys", (r + k) % 7 == 1 ? json() : ys}});
    }
    row["pts"] = pts;
  }
  if (r % 6 == 5) {
    row["m2"] = nullptr;
  } else {
    json m2 = json::array();
    for (int k = 0; k < r % 2 + 1; ++k) {
      json vs = json::array();
      for (int j = 0; j < r % 3; ++j) vs.push_back("v" + std::to_string(r % 10) + std::to_string(j));
      m2.push_back({"m" + std::to_string(k), k == 1 && r % 4 == 0 ? json() : vs});
    }
    row["m2"] = m2;
  }
  if (r % 8 == 7) {
    row["s"] = nullptr;
  } else {
    json nums = json::array();
    for (int j = 0; j < r % 4; ++j) nums.push_back(static_cast<int64_t>(r) * 1000 + j);
    row["s"] = {{"name", r % 3 == 0 ? json() : json("n" + std::to_string(r))}, {"nums", r % 5 == 1 ? json() : nums}};
  }
  json req = json::array();
  for (int j = 0; j < r % 3; ++j) req.push_back(r + j);
  row["req"] = req;
  if (r % 10 == 9) {
    row["grid"] = nullptr;
  } else {
    json grid = json::array();
    for (int k = 0; k < r % 3; ++k) {
      json line = json::array();
      for (int j = 0; j < (r + k) % 3; ++j) line.push_back((r + j) % 4 == 0 ? json() : json((r + j) * 0.5));
      grid.push_back(k == 1 && r % 2 == 0 ? json() : line);
    }
    row["grid"] = grid;
  }
  return row;
}

TEST(NestedWrite, ParquetSchemaIsThreeLevelWithFieldIds) {
  auto elements = ToParquetSchema(EveryShapeSchema());
  ASSERT_TRUE(elements) << elements.error().message;
  auto find = [&](const std::string& name, size_t from) {
    for (size_t i = from; i < elements->size(); ++i)
      if ((*elements)[i].name == name) return i;
    return elements->size();
  };
  // tags: optional group (LIST) id 2 { repeated group list { optional binary element id 10 } }
  size_t tags = find("tags", 0);
  ASSERT_LT(tags + 2, elements->size());
  EXPECT_EQ((*elements)[tags].field_id, 2);
  EXPECT_EQ((*elements)[tags].converted_type, converted::kList);
  EXPECT_EQ((*elements)[tags].logical_type.kind, LogicalType::kList);
  EXPECT_EQ((*elements)[tags + 1].name, "list");
  EXPECT_EQ((*elements)[tags + 1].repetition_type, repetition::kRepeated);
  EXPECT_FALSE((*elements)[tags + 1].field_id.has_value());
  EXPECT_EQ((*elements)[tags + 2].name, "element");
  EXPECT_EQ((*elements)[tags + 2].field_id, 10);
  EXPECT_EQ((*elements)[tags + 2].repetition_type, repetition::kOptional);
  // attrs: group (MAP) id 3 { repeated group key_value { required key id 11; optional value id 12 } }
  size_t attrs = find("attrs", 0);
  EXPECT_EQ((*elements)[attrs].converted_type, converted::kMap);
  EXPECT_EQ((*elements)[attrs + 1].name, "key_value");
  EXPECT_EQ((*elements)[attrs + 1].num_children, 2);
  EXPECT_EQ((*elements)[attrs + 2].name, "key");
  EXPECT_EQ((*elements)[attrs + 2].field_id, 11);
  EXPECT_EQ((*elements)[attrs + 2].repetition_type, repetition::kRequired);
  EXPECT_EQ((*elements)[attrs + 3].name, "value");
  EXPECT_EQ((*elements)[attrs + 3].field_id, 12);
  // req: a required list of required elements.
  size_t req = find("req", 0);
  EXPECT_EQ((*elements)[req].repetition_type, repetition::kRequired);
  EXPECT_EQ((*elements)[req + 2].repetition_type, repetition::kRequired);

  auto fs = BuildFileSchema(*elements);
  ASSERT_TRUE(fs) << fs.error().message;
  for (const auto& leaf : fs->leaves) {
    if (leaf.element.field_id == 16) {  // pts.list.element.ys.list.element: required int in two lists
      EXPECT_EQ(leaf.max_rep_level, 2);
      EXPECT_EQ(leaf.max_def_level, 5);  // pts, pts.list, element, ys, ys.list
    }
  }
}

TEST(NestedWrite, ListOfUnknownIsRefusedNamingTheColumn) {
  Schema s(0, {F(1, "odd", Type::List(F(2, "element", Type::Unknown())))});
  auto elements = ToParquetSchema(s);
  ASSERT_FALSE(elements);
  EXPECT_NE(elements.error().message.find("odd"), std::string::npos);
}

// The levels of an optional list of optional ints: [1, 2], null, [], [null, 3]. With the list
// (1), its repeated group (2) and the element (3) defining, and one repetition level.
TEST(NestedWrite, LevelsTellNullsFromEmptiesAndRecordsApart) {
  Schema schema(0, {F(1, "l", Type::List(F(2, "element", Type::Int())))});
  ColumnBatch b = BatchOf(schema, {json{{"l", {1, 2}}}, json{{"l", nullptr}}, json{{"l", json::array()}},
                                   json{{"l", {nullptr, 3}}}});
  ShreddedLeaf out;
  std::vector<const Column*> chain = {&b.columns[0], &b.columns[0].children[0]};
  ASSERT_TRUE(ShredLeaf(chain, {true, true}, 0, 4, "l.element", &out));
  EXPECT_EQ(out.def_levels, (std::vector<uint8_t>{3, 3, 0, 1, 2, 3}));
  EXPECT_EQ(out.rep_levels, (std::vector<uint8_t>{0, 1, 0, 0, 0, 1}));
  ASSERT_EQ(out.entries.ints.size(), 6u);
  EXPECT_EQ(out.entries.ints[0], 1);
  EXPECT_EQ(out.entries.ints[1], 2);
  EXPECT_EQ(out.entries.ints[5], 3);
}

// A list of lists: the inner list's second element repeats at level 2, a new outer element at 1.
TEST(NestedWrite, LevelsOfAListOfLists) {
  Schema schema(0, {F(1, "g", Type::List(F(2, "element", Type::List(F(3, "element", Type::Int(), true)))), true)});
  ColumnBatch b = BatchOf(schema, {json{{"g", {{1, 2}, json::array(), {3}}}}, json{{"g", json::array()}}});
  ShreddedLeaf out;
  const Column& outer = b.columns[0];
  std::vector<const Column*> chain = {&outer, &outer.children[0], &outer.children[0].children[0]};
  // g required (no level), g.list (1), inner optional (2), inner.list (3), element required.
  ASSERT_TRUE(ShredLeaf(chain, {false, true, false}, 0, 2, "g.element.element", &out));
  EXPECT_EQ(out.def_levels, (std::vector<uint8_t>{3, 3, 2, 3, 0}));
  EXPECT_EQ(out.rep_levels, (std::vector<uint8_t>{0, 2, 1, 1, 0}));
}

TEST(NestedWrite, NullInARequiredElementIsRefusedNamingTheColumn) {
  Schema schema(0, {F(1, "req", Type::List(F(2, "element", Type::Int(), true)), true)});
  ColumnBatch b = BatchOf(schema, {json{{"req", {1, nullptr}}}});
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema);
  ASSERT_TRUE(w) << w.error().message;
  Status st = (*w)->Write(b);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("req.element"), std::string::npos) << st.error().message;
}

TEST(NestedWrite, NullMapKeyIsRefusedNamingTheKey) {
  Schema schema(0, {F(1, "m", Type::Map(F(2, "key", Type::String(), true), F(3, "value", Type::Int())))});
  ColumnBatch b = BatchOf(schema, {json{{"m", json::array({json::array({"a", 1})})}}});
  Column& keys = b.columns[0].children[0];
  keys.nulls.assign(1, 1);  // a key may never be null
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema);
  ASSERT_TRUE(w);
  Status st = (*w)->Write(b);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("m.key"), std::string::npos) << st.error().message;
}

TEST(NestedWrite, OffsetsPastTheElementsAreRefused) {
  Schema schema(0, {F(1, "l", Type::List(F(2, "element", Type::Int())))});
  ColumnBatch b = BatchOf(schema, {json{{"l", {1, 2}}}});
  b.columns[0].offsets[1] = 7;  // claims 7 elements, holds 2
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema);
  ASSERT_TRUE(w);
  EXPECT_FALSE((*w)->Write(b));
}

// Writes the every-shape file (small pages and row groups, so that both split often) and checks
// its metrics: records counted once; counts and bounds only for leaves outside lists and maps.
TEST(NestedWrite, EveryShapeFile) {
  const Schema schema = EveryShapeSchema();
  const int kRows = 70000;
  std::vector<json> rows;
  for (int r = 0; r < kRows; ++r) rows.push_back(EveryShapeRow(r));
  const char* out_env = std::getenv("FLOE_NESTED_PARQUET_OUT");
  std::string path = out_env ? out_env : ::testing::TempDir() + "nested_every_shape.parquet";
  std::filesystem::remove(path);
  auto sink = FileSink::Create(path);
  ASSERT_TRUE(sink) << sink.error().message;
  auto w = ParquetWriter::Open(sink->get(), schema,
                               {{"write.parquet.page-size-bytes", "2048"}, {"write.parquet.row-group-size-bytes", "800000"}});
  ASSERT_TRUE(w) << w.error().message;
  // Batches of uneven sizes, so that writes start and end anywhere; then one of 50,000 rows,
  // whose later rounds are large enough for the writer to encode its columns on two threads.
  for (size_t begin = 0; begin < rows.size();) {
    size_t end = begin < 20000 ? std::min<size_t>(20000, begin + 1 + begin % 3001) : rows.size();
    ColumnBatch b = BatchOf(schema, std::vector<json>(rows.begin() + begin, rows.begin() + end));
    Status st = (*w)->Write(b);
    ASSERT_TRUE(st) << st.error().message;
    begin = end;
  }
  auto m = (*w)->Close();
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->record_count, kRows);
  EXPECT_GT(m->split_offsets.size(), 1u);
  // Leaves under a list or map get their column size and nothing else (Iceberg's Parquet
  // metrics): their entries are not rows.
  for (int id : {10, 11, 12, 14, 16, 17, 19, 22, 23, 25}) {
    EXPECT_TRUE(m->column_sizes.count(id)) << id;
    EXPECT_FALSE(m->value_counts.count(id)) << "leaf " << id << " is under a list or map";
    EXPECT_FALSE(m->null_value_counts.count(id)) << id;
    EXPECT_FALSE(m->nan_value_counts.count(id)) << id;
    EXPECT_FALSE(m->lower_bounds.count(id)) << id;
    EXPECT_FALSE(m->upper_bounds.count(id)) << id;
  }
  // s.name (20): under a struct only, so counted per row and bounded.
  int64_t name_nulls = 0;
  for (const json& row : rows) name_nulls += row["s"].is_null() || row["s"]["name"].is_null();
  EXPECT_EQ(m->value_counts[20], kRows);
  EXPECT_EQ(m->null_value_counts[20], name_nulls);
  EXPECT_EQ(m->lower_bounds[1].AsInt64(), 0);   // id, a top-level column
  EXPECT_EQ(m->upper_bounds[1].AsInt64(), kRows - 1);
  EXPECT_TRUE(m->lower_bounds.count(20));       // s.name: under a struct only
  if (out_env) {
    std::ofstream expected(std::string(out_env) + ".jsonl");
    for (const json& row : rows) expected << row.dump() << "\n";
  }
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

// Every data page of a repeated leaf starts a record, even when one record holds more entries
// than a page and than the writer's slices (5,000 elements); the pages' record starts add up to
// the row group's rows; the leaf is dictionary-encoded. Read from the file's own bytes.
TEST(NestedWrite, PagesStartRecordsAndNestedLeavesUseTheDictionary) {
  Schema schema(0, {F(1, "l", Type::List(F(2, "element", Type::String())))});
  std::vector<json> rows;
  for (int r = 0; r < 3000; ++r) {
    json l = json::array();
    const int n = r == 1000 ? 5000 : r % 17;
    for (int k = 0; k < n; ++k) l.push_back("v" + std::to_string((r + k) % 40));
    rows.push_back({{"l", r % 13 == 6 ? json() : l}});
  }
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema, {{"write.parquet.page-size-bytes", "256"},
                                               {"write.parquet.compression-codec", "uncompressed"}});
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_TRUE((*w)->Write(BatchOf(schema, rows)));
  ASSERT_TRUE((*w)->Close());

  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  uint32_t footer_len;
  std::memcpy(&footer_len, data + bytes.size() - 8, 4);
  auto footer = ReadFileMetaData(data + bytes.size() - 8 - footer_len, footer_len);
  ASSERT_TRUE(footer) << footer.error().message;
  ASSERT_EQ(footer->row_groups.size(), 1u);
  const ColumnMetaData& md = *footer->row_groups[0].columns[0].meta_data;
  EXPECT_NE(std::find(md.encodings.begin(), md.encodings.end(), encoding::kRleDictionary), md.encodings.end());
  size_t pos = static_cast<size_t>(md.dictionary_page_offset.value_or(md.data_page_offset));
  const size_t end = pos + static_cast<size_t>(md.total_compressed_size);
  int64_t records = 0, entries = 0, pages = 0;
  while (pos < end) {
    size_t header_size = 0;
    auto ph = ReadPageHeader(data + pos, end - pos, &header_size);
    ASSERT_TRUE(ph) << ph.error().message;
    const uint8_t* body = data + pos + header_size;
    pos += header_size + static_cast<size_t>(ph->compressed_page_size);
    if (ph->type != page_type::kDataPage) continue;
    ++pages;
    const auto n = static_cast<size_t>(ph->data_page_header->num_values);
    uint32_t rep_len;
    std::memcpy(&rep_len, body, 4);
    std::vector<uint8_t> rep(n);
    RleDecoder decoder(body + 4, rep_len, 1);
    ASSERT_TRUE(decoder.Decode(rep.data(), n));
    EXPECT_EQ(rep[0], 0) << "page " << pages << " starts inside a record";
    for (uint8_t level : rep) records += level == 0;
    entries += static_cast<int64_t>(n);
  }
  EXPECT_GE(pages, 5);  // a page holds at least one slice of the writer's (4,096 entries)
  EXPECT_EQ(records, 3000);
  EXPECT_EQ(entries, md.num_values);
}

}  // namespace
}  // namespace floe::parquet
