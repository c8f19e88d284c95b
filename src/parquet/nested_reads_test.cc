// Lists, maps and structs holding them, read from files whose levels the tests state
// (level_file_builder_test_util.h): every shape at several depths, nulls and empties at each
// level, pages split inside rows, v2 and dictionary pages, several row groups, projection of
// nested fields, schema evolution, the legacy list forms, and malformed files.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "parquet/level_file_builder_test_util.h"
#include "parquet/parquet_reader.h"
#include "types/variant.h"

namespace floe::parquet {
namespace {

using level_files::BuildLevelFile;
using level_files::Group;
using level_files::Leaf;
using level_files::LeafLevels;
using level_files::PageLayout;

constexpr int32_t kReq = repetition::kRequired, kOpt = repetition::kOptional, kRep = repetition::kRepeated;
constexpr int32_t kI32 = physical::kInt32, kBytes = physical::kByteArray;

// A row of a column in the layout of column_batch.h, as text: [..] lists, {k: v} maps,
// (a, b) structs, "null"; walked here from offsets and children so that the test checks the
// layout itself.
std::string RenderNested(const Column& c, size_t row) {
  if (c.IsNull(row)) return "null";
  switch (c.type->id()) {
    case TypeId::kInt: return std::to_string(c.ints[row]);
    case TypeId::kLong: return std::to_string(c.longs[row]);
    case TypeId::kString: return "'" + std::string(c.BytesAt(row)) + "'";
    case TypeId::kList: {
      std::string s = "[";
      for (uint32_t i = c.offsets[row]; i < c.offsets[row + 1]; ++i) s += (i > c.offsets[row] ? ", " : "") + RenderNested(c.children[0], i);
      return s + "]";
    }
    case TypeId::kMap: {
      std::string s = "{";
      for (uint32_t i = c.offsets[row]; i < c.offsets[row + 1]; ++i)
        s += (i > c.offsets[row] ? ", " : "") + RenderNested(c.children[0], i) + ": " + RenderNested(c.children[1], i);
      return s + "}";
    }
    case TypeId::kStruct: {
      std::string s = "(";
      for (size_t k = 0; k < c.children.size(); ++k) s += (k ? ", " : "") + RenderNested(c.children[k], row);
      return s + ")";
    }
    default: return "?";
  }
}

std::vector<std::string> NestedRows(const ColumnBatch& b, size_t column = 0) {
  std::vector<std::string> out;
  const Column& c = b.columns[column];
  EXPECT_EQ(c.length, b.num_rows);
  if (!c.nulls.empty()) EXPECT_EQ(c.nulls.size(), c.length);
  for (size_t r = 0; r < b.num_rows; ++r) out.push_back(RenderNested(c, r));
  return out;
}

Result<std::shared_ptr<ParquetFile>> OpenNested(const std::string& bytes) {
  return ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(bytes), "nested.parquet"));
}

Result<ColumnBatch> ReadNested(const std::string& bytes, std::optional<Schema> projection = std::nullopt) {
  FLOE_ASSIGN_OR_RETURN(auto f, OpenNested(bytes));
  ReadOptions o;
  o.projection = std::move(projection);
  return ReadParquetFile(f, o);
}

// optional group a (LIST) { repeated group list { optional int32 element; } }
std::vector<SchemaElement> NestedIntListSchema(int id = -1) {
  return {Group("schema", kReq, 1), Group("a", kOpt, 1, converted::kList, id), Group("list", kRep, 1),
          Leaf("element", kOpt, kI32, id >= 0 ? id + 1 : -1)};
}

// [1, 2], null, [], [null, 3], [4]
LeafLevels IntListRows() { return {{0, 1, 0, 0, 0, 1, 0}, {3, 3, 0, 1, 2, 3, 3}, {1, 2, 3, 4}, {}}; }

TEST(NestedReads, ListOfIntKeepsNullsAndEmptiesApart) {
  std::string bytes = BuildLevelFile(NestedIntListSchema(), {{IntListRows()}});
  auto f = OpenNested(bytes);
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ((*f)->schema().fields().size(), 1u);
  EXPECT_EQ((*f)->schema().fields()[0].type->ToString(), "list<int>");
  auto b = ReadParquetFile(*f);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(NestedRows(*b), (std::vector<std::string>{"[1, 2]", "null", "[]", "[null, 3]", "[4]"}));
  // The layout itself: offsets into the element column, which has a row per element.
  EXPECT_EQ(b->columns[0].offsets, (std::vector<uint32_t>{0, 2, 2, 2, 4, 5}));
  EXPECT_EQ(b->columns[0].children[0].length, 5u);
}

TEST(NestedReads, PagesSplitInsideRowsV2AndRowGroups) {
  for (size_t per_page : {1, 2, 3, 100}) {
    for (bool v2 : {false, true}) {
      std::string bytes = BuildLevelFile(NestedIntListSchema(), {{IntListRows()}, {IntListRows()}}, PageLayout{per_page, v2});
      auto b = ReadNested(bytes);
      ASSERT_TRUE(b) << b.error().message << " per_page " << per_page;
      std::vector<std::string> want = {"[1, 2]", "null", "[]", "[null, 3]", "[4]"};
      std::vector<std::string> once = want;
      want.insert(want.end(), once.begin(), once.end());
      EXPECT_EQ(NestedRows(*b), want) << "per_page " << per_page << " v2 " << v2;
    }
  }
}

// optional group m (LIST) { repeated group list { optional group element (LIST) {
//   repeated group list { optional binary element (UTF8); } } } }
TEST(NestedReads, ListOfListOfStringWithDictionaryPages) {
  std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("m", kOpt, 1, converted::kList),
                                       Group("list", kRep, 1), Group("element", kOpt, 1, converted::kList),
                                       Group("list", kRep, 1), Leaf("element", kOpt, kBytes)};
  // [['a', 'b'], null, [], [null]], null, [], [['c']]
  LeafLevels l;
  l.rep = {0, 2, 1, 1, 1, 0, 0, 0};
  l.def = {5, 5, 2, 3, 4, 0, 1, 5};
  l.strings = {"a", "b", "c"};
  for (bool dictionary : {false, true}) {
    std::string bytes = BuildLevelFile(schema, {{l}, {l}}, PageLayout{3, false, dictionary});
    auto b = ReadNested(bytes);
    ASSERT_TRUE(b) << b.error().message;
    std::vector<std::string> want = {"[['a', 'b'], null, [], [null]]", "null", "[]", "[['c']]"};
    std::vector<std::string> once = want;
    want.insert(want.end(), once.begin(), once.end());
    EXPECT_EQ(NestedRows(*b), want);
  }
}

// optional group s (LIST) { repeated group list { optional group element { optional int32 a; optional binary b; } } }
std::vector<SchemaElement> StructListSchema() {
  return {Group("schema", kReq, 1),    Group("s", kOpt, 1, converted::kList, 1), Group("list", kRep, 1),
          Group("element", kOpt, 2, -1, 2), Leaf("a", kOpt, kI32, 3),         Leaf("b", kOpt, kBytes, 4)};
}

// [(1, 'x'), null, (null, 'y')], [], null
std::vector<LeafLevels> StructListRows() {
  LeafLevels a{{0, 1, 1, 0, 0}, {4, 2, 3, 1, 0}, {1}, {}};
  LeafLevels b{{0, 1, 1, 0, 0}, {4, 2, 4, 1, 0}, {}, {"x", "y"}};
  return {a, b};
}

TEST(NestedReads, ListOfStructWholeAndProjected) {
  std::string bytes = BuildLevelFile(StructListSchema(), {StructListRows()});
  auto b = ReadNested(bytes);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(NestedRows(*b), (std::vector<std::string>{"[(1, 'x'), null, (null, 'y')]", "[]", "null"}));

  // One field of the element struct, and one the file lacks (schema evolution): null, or
  // its initial-default.
  NestedField c{9, "c", Type::Int(), false, ""};
  NestedField d{10, "d", Type::Int(), false, ""};
  d.initial_default = "7";
  Schema projection(0, {{1, "s", Type::List({2, "element", Type::Struct({{4, "b", Type::String(), false, ""}, c, d}), false, ""}), false, ""}});
  auto p = ReadNested(bytes, projection);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(NestedRows(*p), (std::vector<std::string>{"[('x', null, 7), null, ('y', null, 7)]", "[]", "null"}));
}

// optional group m (MAP) { repeated group key_value { required binary key; optional int32 value; } }
std::vector<SchemaElement> MapSchema(int32_t key_repetition = kReq) {
  return {Group("schema", kReq, 1), Group("m", kOpt, 1, converted::kMap), Group("key_value", kRep, 2),
          Leaf("key", key_repetition, kBytes), Leaf("value", kOpt, kI32)};
}

TEST(NestedReads, MapOfStringToInt) {
  // {'a': 1, 'b': null}, null, {}, {'c': 3}
  LeafLevels k{{0, 1, 0, 0, 0}, {2, 2, 0, 1, 2}, {}, {"a", "b", "c"}};
  LeafLevels v{{0, 1, 0, 0, 0}, {3, 2, 0, 1, 3}, {1, 3}, {}};
  std::string bytes = BuildLevelFile(MapSchema(), {{k, v}}, PageLayout{2});
  auto f = OpenNested(bytes);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ((*f)->schema().fields()[0].type->ToString(), "map<string, int>");
  auto b = ReadParquetFile(*f);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(NestedRows(*b), (std::vector<std::string>{"{'a': 1, 'b': null}", "null", "{}", "{'c': 3}"}));
}

// optional group m (MAP) { repeated group key_value { required binary key;
//   optional group value (LIST) { repeated group list { optional group element { optional int32 x; } } } } }
TEST(NestedReads, MapOfStringToListOfStruct) {
  std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("m", kOpt, 1, converted::kMap),
                                       Group("key_value", kRep, 2), Leaf("key", kReq, kBytes),
                                       Group("value", kOpt, 1, converted::kList), Group("list", kRep, 1),
                                       Group("element", kOpt, 1), Leaf("x", kOpt, kI32)};
  // {'a': [(1), null, (null)], 'b': null, 'c': []}, {}
  // x levels: m=1, kv=2, value=3, list=4, element=5, x=6
  LeafLevels k{{0, 1, 1, 0}, {2, 2, 2, 1}, {}, {"a", "b", "c"}};
  LeafLevels x{{0, 2, 2, 1, 1, 0}, {6, 4, 5, 2, 3, 1}, {1}, {}};
  auto b = ReadNested(BuildLevelFile(schema, {{k, x}}));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(NestedRows(*b), (std::vector<std::string>{"{'a': [(1), null, (null)], 'b': null, 'c': []}", "{}"}));
}

// optional group st { optional int32 id; optional group tags (LIST) { repeated group list { optional int32 element; } } }
TEST(NestedReads, StructHoldingAList) {
  std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("st", kOpt, 2), Leaf("id", kOpt, kI32),
                                       Group("tags", kOpt, 1, converted::kList), Group("list", kRep, 1),
                                       Leaf("element", kOpt, kI32)};
  // (1, [5, 6]), null, (null, null), (2, [])
  LeafLevels id{{0, 0, 0, 0}, {2, 0, 1, 2}, {1, 2}, {}};
  LeafLevels tags{{0, 1, 0, 0, 0}, {4, 4, 0, 1, 2}, {5, 6}, {}};
  auto b = ReadNested(BuildLevelFile(schema, {{id, tags}}));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(NestedRows(*b), (std::vector<std::string>{"(1, [5, 6])", "null", "(null, null)", "(2, [])"}));
}

TEST(NestedReads, LegacyListForms) {
  // A repeated primitive outside any LIST group: a required list of required elements.
  {
    std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Leaf("r", kRep, kI32)};
    auto b = ReadNested(BuildLevelFile(schema, {{LeafLevels{{0, 1, 0, 0}, {1, 1, 0, 1}, {1, 2, 3}, {}}}}));
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(NestedRows(*b), (std::vector<std::string>{"[1, 2]", "[]", "[3]"}));
  }
  // 2-level: the repeated field is the element (a primitive; a one-field group named
  // "array" or "<list>_tuple"; a group of several fields).
  for (std::string name : {"", "array", "a_tuple", "pair"}) {
    std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("a", kOpt, 1, converted::kList)};
    LeafLevels v{{0, 1, 0, 0}, {2, 2, 0, 1}, {1, 2}, {}};
    std::vector<LeafLevels> leaves = {v};
    std::string want_type = "list<int>";
    if (name.empty()) {
      schema.push_back(Leaf("array", kRep, kI32));
    } else if (name == "pair") {
      schema.push_back(Group("pair", kRep, 2));
      schema.push_back(Leaf("x", kReq, kI32));
      schema.push_back(Leaf("y", kReq, kI32));
      leaves.push_back(LeafLevels{v.rep, v.def, {10, 20}, {}});
      want_type = "list<struct<x: int not null, y: int not null>>";
    } else {
      schema.push_back(Group(name, kRep, 1));
      schema.push_back(Leaf("x", kReq, kI32));
      want_type = "list<struct<x: int not null>>";
    }
    auto f = OpenNested(BuildLevelFile(schema, {leaves}));
    ASSERT_TRUE(f) << f.error().message;
    const NestedField& a = (*f)->schema().fields()[0];
    EXPECT_TRUE(a.type->fields()[0].required) << name;
    auto b = ReadParquetFile(*f);
    ASSERT_TRUE(b) << name << ": " << b.error().message;
    std::vector<std::string> rows = NestedRows(*b);
    if (name.empty()) {
      EXPECT_EQ(rows, (std::vector<std::string>{"[1, 2]", "null", "[]"}));
    } else if (name == "pair") {
      EXPECT_EQ(rows, (std::vector<std::string>{"[(1, 10), (2, 20)]", "null", "[]"}));
    } else {
      EXPECT_EQ(rows, (std::vector<std::string>{"[(1), (2)]", "null", "[]"})) << name;
    }
  }
}

TEST(NestedReads, InferredIdsCoverEveryNestedFieldOnce) {
  // No ids in the file: top-level fields 1.., then nested ones as Iceberg assigns fresh ids.
  std::vector<SchemaElement> schema = {Group("schema", kReq, 3),
                                       Group("st", kOpt, 2),
                                       Leaf("x", kOpt, kI32),
                                       Leaf("y", kOpt, kI32),
                                       Group("m", kOpt, 1, converted::kMap),
                                       Group("key_value", kRep, 2),
                                       Leaf("key", kReq, kBytes),
                                       Leaf("value", kOpt, kI32),
                                       Group("a", kOpt, 1, converted::kList),
                                       Group("list", kRep, 1),
                                       Leaf("element", kOpt, kI32)};
  auto fs = BuildFileSchema(schema);
  ASSERT_TRUE(fs);
  auto s = InferIcebergSchema(*fs);
  ASSERT_TRUE(s) << s.error().message;
  const auto& f = s->fields();
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].id, 1);
  EXPECT_EQ(f[1].id, 2);
  EXPECT_EQ(f[2].id, 3);
  EXPECT_EQ(f[0].type->fields()[0].id, 4);
  EXPECT_EQ(f[0].type->fields()[1].id, 5);
  EXPECT_EQ(f[1].type->fields()[0].id, 6);  // key
  EXPECT_EQ(f[1].type->fields()[1].id, 7);  // value
  EXPECT_EQ(f[2].type->fields()[0].id, 8);  // element
  EXPECT_TRUE(f[1].type->fields()[0].required);

  // Ids on some fields only: the others get ids above the highest.
  schema[1].field_id = 5;
  schema[2].field_id = 1;
  auto partial = InferIcebergSchema(*BuildFileSchema(schema));
  ASSERT_TRUE(partial) << partial.error().message;
  std::set<int> ids;
  std::function<void(const Type&)> walk = [&](const Type& t) {
    for (const auto& c : t.fields()) {
      EXPECT_TRUE(ids.insert(c.id).second) << "id " << c.id << " twice";
      if (c.type->is_nested()) walk(*c.type);
    }
  };
  walk(*Type::Struct(partial->fields()));
  EXPECT_EQ(ids.size(), 8u);

  // A file that holds one id twice is Corrupt.
  schema[3].field_id = 5;
  auto twice = InferIcebergSchema(*BuildFileSchema(schema));
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind, ErrorKind::kCorrupt);
}

TEST(NestedReads, MalformedNestingIsCorrupt) {
  auto expect_corrupt = [](const std::string& bytes, const std::string& what) {
    auto b = ReadNested(bytes);
    ASSERT_FALSE(b) << what;
    EXPECT_EQ(b.error().kind, ErrorKind::kCorrupt) << what << ": " << b.error().message;
    EXPECT_NE(b.error().message.find("nested.parquet"), std::string::npos) << b.error().message;
  };
  // A map whose key is optional.
  LeafLevels k{{0}, {2}, {}, {"a"}};
  LeafLevels v{{0}, {3}, {1}, {}};
  expect_corrupt(BuildLevelFile(MapSchema(kOpt), {{LeafLevels{{0}, {3}, {}, {"a"}}, v}}), "optional key");
  // A map whose key is null is impossible with a required key; a map without a value field.
  {
    std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("m", kOpt, 1, converted::kMap),
                                         Group("key_value", kRep, 1), Leaf("key", kReq, kBytes)};
    expect_corrupt(BuildLevelFile(schema, {{k}}), "key only");
  }
  // A LIST group whose child is not repeated, or that has two children.
  {
    std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("a", kOpt, 1, converted::kList),
                                         Leaf("element", kOpt, kI32)};
    expect_corrupt(BuildLevelFile(schema, {{LeafLevels{{}, {2}, {1}, {}}}}), "unrepeated list child");
  }
  // The first entry of a chunk continues a row.
  expect_corrupt(BuildLevelFile(NestedIntListSchema(), {{LeafLevels{{1, 0}, {3, 3}, {1, 2}, {}}}}), "first entry rep 1");
  // A continuation of a null list.
  expect_corrupt(BuildLevelFile(NestedIntListSchema(), {{LeafLevels{{0, 1}, {0, 3}, {2}, {}}}}), "element after null");
  // Leaves that disagree: the struct's second field has another element count.
  {
    std::vector<LeafLevels> leaves = StructListRows();
    leaves[1] = LeafLevels{{0, 1, 0, 0}, {4, 4, 1, 0}, {}, {"x", "y"}};
    expect_corrupt(BuildLevelFile(StructListSchema(), {leaves}), "leaves disagree");
  }
}

TEST(NestedReads, ListRowsMatchByNameWithoutIds) {
  // Without ids a projection matches by name; the list's element needs no match at all.
  std::string bytes = BuildLevelFile(NestedIntListSchema(), {{IntListRows()}});
  Schema projection(0, {{42, "a", Type::List({43, "element", Type::Long(), false, ""}), false, ""},
                        {44, "missing", Type::List({45, "element", Type::Int(), false, ""}), false, ""}});
  auto b = ReadNested(bytes, projection);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(NestedRows(*b, 0), (std::vector<std::string>{"[1, 2]", "null", "[]", "[null, 3]", "[4]"}));
  EXPECT_EQ(NestedRows(*b, 1), (std::vector<std::string>{"null", "null", "null", "null", "null"}));
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

SchemaElement BinaryLeaf(const std::string& name, int32_t repetition) {
  SchemaElement e = Leaf(name, repetition, kBytes);
  e.converted_type.reset();
  e.logical_type = LogicalType{};
  return e;
}

// A variant column shredded with an array typed_value:
// optional group doc (VARIANT) { required binary metadata; optional binary value;
//   optional group typed_value (LIST) { repeated group list {
//     required group element { optional binary value; optional int32 typed_value; } } } }
std::vector<SchemaElement> ShreddedArraySchema() {
  SchemaElement doc = Group("doc", kOpt, 3);
  doc.logical_type.kind = LogicalType::kVariant;
  return {Group("schema", kReq, 1), doc, BinaryLeaf("metadata", kReq), BinaryLeaf("value", kOpt),
          Group("typed_value", kOpt, 1, converted::kList), Group("list", kRep, 1), Group("element", kReq, 2),
          BinaryLeaf("value", kOpt), Leaf("typed_value", kOpt, kI32)};
}

const std::string kEmptyMetadata("\x01\x00\x00", 3);  // version 1, no keys

Result<std::vector<std::string>> VariantRows(const std::string& bytes) {
  FLOE_ASSIGN_OR_RETURN(auto f, OpenNested(bytes));
  Schema read(0, {{1, "doc", Type::Variant(), false, ""}});
  FLOE_ASSIGN_OR_RETURN(ColumnBatch b, f->ReadRowGroup(0, read, 1));
  std::vector<std::string> out;
  for (size_t r = 0; r < b.num_rows; ++r) {
    if (b.columns[0].IsNull(r)) {
      out.push_back("NULL");
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(std::string text, PackedVariantToJsonText(b.columns[0].BytesAt(r)));
    out.push_back(text);
  }
  return out;
}

TEST(NestedReads, ShreddedVariantArraysAreReassembled) {
  // [1, "x"], "text" (not an array: in value), [], NULL, [null]
  const std::string x("\x05x", 2), text("\x11text", 5), null_variant("\x00", 1);
  LeafLevels metadata{{}, {1, 1, 1, 0, 1}, {}, {kEmptyMetadata, kEmptyMetadata, kEmptyMetadata, kEmptyMetadata}};
  LeafLevels value{{}, {1, 2, 1, 0, 1}, {}, {text}};
  LeafLevels element_value{{0, 1, 0, 0, 0, 0}, {3, 4, 1, 2, 0, 4}, {}, {x, null_variant}};
  LeafLevels element_typed{{0, 1, 0, 0, 0, 0}, {4, 3, 1, 2, 0, 3}, {1}, {}};
  std::string bytes = BuildLevelFile(ShreddedArraySchema(), {{metadata, value, element_value, element_typed}}, PageLayout{2});
  auto rows = VariantRows(bytes);
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ(*rows, (std::vector<std::string>{"[1,\"x\"]", "\"text\"", "[]", "NULL", "[null]"}));

  // An element with neither value nor typed_value is malformed shredding.
  LeafLevels missing_value{{0}, {3}, {}, {}};
  LeafLevels missing_typed{{0}, {3}, {}, {}};
  LeafLevels one_metadata{{}, {1}, {}, {kEmptyMetadata}};
  LeafLevels no_value{{}, {1}, {}, {}};
  auto bad = VariantRows(BuildLevelFile(ShreddedArraySchema(), {{one_metadata, no_value, missing_value, missing_typed}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(bad.error().message.find("typed_value.element"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace floe::parquet

namespace floe::parquet {
namespace {

// Hostile nested files: every single-byte change and every truncation of small nested files
// reads to an error or to rows, never a crash or an unbounded allocation (also run these under
// -DFLOE_SANITIZE=ON).
TEST(NestedReads, FlippedAndTruncatedFilesNeverCrash) {
  std::vector<std::string> files = {
      BuildLevelFile(NestedIntListSchema(), {{IntListRows()}}, PageLayout{3}),
      BuildLevelFile(StructListSchema(), {StructListRows()}, PageLayout{2, true}),
      BuildLevelFile(MapSchema(), {{LeafLevels{{0, 1, 0, 0, 0}, {2, 2, 0, 1, 2}, {}, {"a", "b", "c"}},
                                    LeafLevels{{0, 1, 0, 0, 0}, {3, 2, 0, 1, 3}, {1, 3}, {}}}},
                     PageLayout{2, false, true}),
  };
  size_t errors = 0, reads = 0;
  for (const std::string& file : files) {
    for (size_t at = 0; at < file.size(); ++at) {
      for (uint8_t x : {0x01, 0x80, 0xff}) {
        std::string bad = file;
        bad[at] = static_cast<char>(bad[at] ^ x);
        auto b = ReadNested(bad);
        (b ? reads : errors) += 1;
        if (b) {
          for (const Column& c : b->columns) ASSERT_EQ(c.length, b->num_rows);
        }
      }
    }
    for (size_t len = 0; len < file.size(); ++len) errors += !ReadNested(file.substr(0, len)).has_value();
  }
  EXPECT_GT(errors, 0u);
}

}  // namespace
}  // namespace floe::parquet
