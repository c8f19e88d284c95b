// Variants inside lists and maps (and inside structs inside lists): floe's writer lays each one
// out as a metadata + value group under the repeated levels and its reader assembles them back,
// nulls, empties and variant nulls apart; shredded variants in a list (files stated level by
// level) are reassembled; hostile files (a group lacking a part, parts whose levels disagree)
// are Corrupt naming the file and the column, never a crash.
// (tests/interop/variant_nested_peers_test.py exchanges such tables with Spark.)
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "parquet/file_schema.h"
#include "parquet/level_file_builder_test_util.h"
#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"
#include "types/nested_json.h"

// A namespace of its own: the room's tests are compiled together (a unity build).
namespace floe::parquet::variant_nested_test {

using level_files::BuildLevelFile;
using level_files::Group;
using level_files::LeafLevels;
using level_files::PageLayout;

constexpr int32_t kReq = repetition::kRequired, kOpt = repetition::kOptional, kRep = repetition::kRepeated;

NestedField F(int id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, ""};
}

Schema NestedVariantSchema() {
  return Schema(0, {
      F(1, "id", Type::Long(), true),
      F(2, "tags", Type::List(F(10, "element", Type::Variant()))),
      F(3, "m", Type::Map(F(11, "key", Type::String(), true), F(12, "value", Type::Variant()))),
      F(4, "s", Type::List(F(13, "element", Type::Struct({F(14, "v", Type::Variant()), F(15, "n", Type::Int())})))),
      F(5, "grid", Type::List(F(16, "element", Type::List(F(17, "element", Type::Variant(), true))))),
      F(6, "top", Type::Variant()),
      // A variant beside a list in a struct: read through the nested assembly at the row level.
      F(7, "st", Type::Struct({F(18, "l", Type::List(F(19, "element", Type::Int()))), F(20, "v", Type::Variant())})),
  });
}

// Rows in the human JSON form `floe append` reads and `floe scan` prints.
const std::vector<std::string> kRows = {
    R"({"id":0,"tags":[{"a":1,"b":[1,"x",null]},"text",3.5,null,[],{}],"m":{"k":{"z":true,"deep":{"x":[1,{"y":2}]}},"n":null},"s":[{"v":{"q":1},"n":1},{"v":null,"n":null},null],"grid":[[1,"two"],[],null,[[3]]],"top":{"t":1},"st":{"l":[1],"v":{"k":[1,2]}}})",
    R"({"id":1,"tags":[],"m":{},"s":[],"grid":[],"top":null,"st":null})",
    R"({"id":2,"tags":null,"m":null,"s":null,"grid":null,"top":[1],"st":{"l":null,"v":null}})",
    R"({"id":3,"tags":[null,null],"m":{"only":"x"},"s":[{"v":12345678901234,"n":null}],"grid":[[false]],"top":"s","st":{"l":[],"v":"s"}})",
};

ColumnBatch BatchOf(const Schema& schema, const std::vector<std::string>& rows) {
  ColumnBatch b(schema);
  for (const std::string& text : rows) {
    nlohmann::json row = nlohmann::json::parse(text);
    for (size_t k = 0; k < b.columns.size(); ++k) {
      Status st = AppendJsonValue(row[b.fields[k].name], &b.columns[k], b.fields[k].name);
      EXPECT_TRUE(st) << st.error().message;
    }
  }
  b.num_rows = rows.size();
  return b;
}

std::vector<std::string> RowsAsJson(const ColumnBatch& b) {
  std::vector<std::string> out;
  for (size_t r = 0; r < b.num_rows; ++r) {
    std::string line = "{";
    for (size_t k = 0; k < b.columns.size(); ++k) {
      EXPECT_EQ(b.columns[k].length, b.num_rows) << b.fields[k].name;
      line += (k ? ",\"" : "\"") + b.fields[k].name + "\":";
      AppendCellJson(b.columns[k], r, &line);
    }
    out.push_back(line + "}");
  }
  return out;
}

Result<ColumnBatch> ReadBytes(const std::string& bytes, std::optional<Schema> projection = std::nullopt) {
  FLOE_ASSIGN_OR_RETURN(auto f, ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(bytes), "nv.parquet")));
  ReadOptions o;
  o.projection = std::move(projection);
  return ReadParquetFile(f, o);
}

TEST(VariantNested, RoundTripKeepsNullsEmptiesAndValuesApart) {
  Schema schema = NestedVariantSchema();
  ColumnBatch batch = BatchOf(schema, kRows);
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_TRUE((*w)->Write(batch));
  auto metrics = (*w)->Close();
  ASSERT_TRUE(metrics) << metrics.error().message;

  auto read = ReadBytes(bytes, schema);
  ASSERT_TRUE(read) << read.error().message;
  std::vector<std::string> want;
  for (const auto& r : kRows) want.push_back(nlohmann::json::parse(r).dump());
  std::vector<std::string> got;
  for (const auto& r : RowsAsJson(*read)) got.push_back(nlohmann::json::parse(r).dump());
  EXPECT_EQ(got, want);

  // The layout: each variant a group of required metadata and value binaries under the list's
  // levels (tags: optional list 1, its repeated group 2, the optional element 3).
  auto file = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(bytes), "nv.parquet"));
  ASSERT_TRUE(file);
  const FileSchema& fs = (*file)->file_schema();
  std::vector<std::string> paths;
  for (const auto& leaf : fs.leaves) {
    std::string p;
    for (const auto& part : leaf.path) p += (p.empty() ? "" : ".") + part;
    paths.push_back(p);
    if (p == "tags.list.element.metadata" || p == "tags.list.element.value") {
      EXPECT_EQ(leaf.max_def_level, 3) << p;
      EXPECT_EQ(leaf.max_rep_level, 1) << p;
    }
    if (p == "grid.list.element.list.element.value") {
      EXPECT_EQ(leaf.max_def_level, 4) << p;  // the inner element is required: no level of its own
      EXPECT_EQ(leaf.max_rep_level, 2) << p;
    }
  }
  EXPECT_NE(std::find(paths.begin(), paths.end(), "m.key_value.value.metadata"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "s.list.element.v.value"), paths.end());

  // Metrics of a variant under a list or map: none, as Iceberg Java's writers give them (Spark
  // 4.0 with Iceberg 1.11 records no size, count or bound for them); a top-level variant keeps
  // its counts.
  for (int id : {10, 12, 14, 17}) {
    EXPECT_EQ(metrics->column_sizes.count(id), 0u) << id;
    EXPECT_EQ(metrics->value_counts.count(id), 0u) << id;
    EXPECT_EQ(metrics->null_value_counts.count(id), 0u) << id;
    EXPECT_EQ(metrics->lower_bounds.count(id), 0u) << id;
  }
  EXPECT_GT(metrics->column_sizes.count(11), 0u);  // the map's key: its size, as any leaf there
  EXPECT_EQ(metrics->value_counts.count(6), 1u);
}

TEST(VariantNested, NullInARequiredVariantElementIsRefusedNamingIt) {
  Schema schema(0, {F(1, "vs", Type::List(F(2, "element", Type::Variant(), true)))});
  ColumnBatch batch = BatchOf(Schema(0, {F(1, "vs", Type::List(F(2, "element", Type::Variant())))}),
                              {R"({"vs":[1,null]})"});
  batch.fields = schema.fields();
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema);
  ASSERT_TRUE(w) << w.error().message;
  Status st = (*w)->Write(batch);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("vs.element"), std::string::npos) << st.error().message;
}

SchemaElement BinaryLeaf(const std::string& name, int32_t repetition) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = repetition;
  e.type = physical::kByteArray;
  return e;
}

SchemaElement VariantGroup(const std::string& name, int32_t repetition, int32_t children) {
  SchemaElement e = Group(name, repetition, children);
  e.logical_type.kind = LogicalType::kVariant;
  return e;
}

const std::string kEmptyMetadata("\x01\x00\x00", 3);  // version 1, no keys
const std::string kX("\x05x", 2);                     // the short string "x"

// optional group tags (LIST) { repeated group list { optional group element (VARIANT) {
//   <parts> } } }
std::vector<SchemaElement> VariantListSchema(std::vector<SchemaElement> parts) {
  std::vector<SchemaElement> s = {Group("schema", kReq, 1), Group("tags", kOpt, 1, converted::kList), Group("list", kRep, 1),
                                  VariantGroup("element", kOpt, static_cast<int32_t>(parts.size()))};
  for (auto& p : parts) s.push_back(std::move(p));
  return s;
}

Result<std::vector<std::string>> TagRows(const std::string& bytes) {
  Schema read(0, {F(1, "tags", Type::List(F(2, "element", Type::Variant())))});
  FLOE_ASSIGN_OR_RETURN(ColumnBatch b, ReadBytes(bytes, read));
  std::vector<std::string> out;
  for (size_t r = 0; r < b.num_rows; ++r) {
    std::string s;
    AppendCellJson(b.columns[0], r, &s);
    out.push_back(s);
  }
  return out;
}

TEST(VariantNested, ShreddedVariantsInAListAreReassembled) {
  // Rows: ["x" (in value), 7 (typed_value)], null, [], [null], [a variant with neither part:
  // variant null]. Levels: tags 1, list 2 (rep 1), element 3, metadata 3, value and typed_value 4.
  auto schema = VariantListSchema({BinaryLeaf("metadata", kReq), BinaryLeaf("value", kOpt),
                                   level_files::Leaf("typed_value", kOpt, physical::kInt32)});
  const std::vector<uint8_t> rep = {0, 1, 0, 0, 0, 0};
  LeafLevels metadata{rep, {3, 3, 0, 1, 2, 3}, {}, {kEmptyMetadata, kEmptyMetadata, kEmptyMetadata}};
  LeafLevels value{rep, {4, 3, 0, 1, 2, 3}, {}, {kX}};
  LeafLevels typed{rep, {3, 4, 0, 1, 2, 3}, {7}, {}};
  for (PageLayout layout : {PageLayout{}, PageLayout{2}, PageLayout{2, true, true}}) {
    auto rows = TagRows(BuildLevelFile(schema, {{metadata, value, typed}}, layout));
    ASSERT_TRUE(rows) << rows.error().message;
    EXPECT_EQ(*rows, (std::vector<std::string>{R"(["x",7])", "null", "[]", "[null]", "[null]"}));
  }
  // Both parts set on a primitive typed_value is malformed shredding, named by place.
  LeafLevels both_value{{0}, {4}, {}, {kX}};
  LeafLevels both_typed{{0}, {4}, {7}, {}};
  auto bad = TagRows(BuildLevelFile(schema, {{LeafLevels{{0}, {3}, {}, {kEmptyMetadata}}, both_value, both_typed}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(bad.error().message.find("nv.parquet"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("tags.element"), std::string::npos) << bad.error().message;
}

TEST(VariantNested, UnannotatedGroupsWithValueFirstAreRead) {
  // Spark's own Parquet writer: the element group carries no VARIANT annotation and lists
  // value before metadata.
  std::vector<SchemaElement> schema = {Group("schema", kReq, 1), Group("tags", kOpt, 1, converted::kList),
                                       Group("list", kRep, 1), Group("element", kOpt, 2),
                                       BinaryLeaf("value", kReq), BinaryLeaf("metadata", kReq)};
  const std::vector<uint8_t> rep = {0, 1, 0};
  LeafLevels value{rep, {3, 2, 0}, {}, {kX}};
  LeafLevels metadata{rep, {3, 2, 0}, {}, {kEmptyMetadata}};
  auto rows = TagRows(BuildLevelFile(schema, {{value, metadata}}));
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ(*rows, (std::vector<std::string>{R"(["x",null])", "null"}));
}

TEST(VariantNested, HostileVariantGroupsAreCorruptNamingFileAndColumn) {
  auto expect_corrupt = [](const Result<std::vector<std::string>>& r, const std::string& what, const std::string& says) {
    ASSERT_FALSE(r) << what;
    EXPECT_EQ(r.error().kind, ErrorKind::kCorrupt) << what << ": " << r.error().message;
    EXPECT_NE(r.error().message.find("nv.parquet"), std::string::npos) << what << ": " << r.error().message;
    EXPECT_NE(r.error().message.find("tags.element"), std::string::npos) << what << ": " << r.error().message;
    EXPECT_NE(r.error().message.find(says), std::string::npos) << what << ": " << r.error().message;
  };
  LeafLevels one{{0}, {3}, {}, {kEmptyMetadata}};
  LeafLevels one_value{{0}, {3}, {}, {kX}};
  // A group without its metadata; a group without its value.
  expect_corrupt(TagRows(BuildLevelFile(VariantListSchema({BinaryLeaf("value", kReq)}), {{one_value}})),
                 "no metadata", "metadata");
  expect_corrupt(TagRows(BuildLevelFile(VariantListSchema({BinaryLeaf("metadata", kReq)}), {{one}})),
                 "no value", "neither value nor typed_value");
  // A group with a stray part.
  expect_corrupt(TagRows(BuildLevelFile(VariantListSchema({BinaryLeaf("metadata", kReq), BinaryLeaf("value", kReq),
                                                           BinaryLeaf("extra", kReq)}),
                                        {{one, one_value, one_value}})),
                 "stray part", "extra");
  auto plain = VariantListSchema({BinaryLeaf("metadata", kReq), BinaryLeaf("value", kOpt)});
  // metadata and value whose levels disagree: two elements against one.
  expect_corrupt(TagRows(BuildLevelFile(plain, {{LeafLevels{{0, 1}, {3, 3}, {}, {kEmptyMetadata, kEmptyMetadata}},
                                                 LeafLevels{{0}, {4}, {}, {kX}}}})),
                 "levels disagree", "disagree");
  // An unshredded variant whose value is null while its metadata is set.
  expect_corrupt(TagRows(BuildLevelFile(plain, {{one, LeafLevels{{0}, {3}, {}, {}}}})), "value null",
                 "metadata but no value");
  // Bytes that are no variant.
  expect_corrupt(TagRows(BuildLevelFile(plain, {{one, LeafLevels{{0}, {4}, {}, {std::string("\xff\xff", 2)}}}})),
                 "bad value", "tags.element");
}

TEST(VariantNested, FlippedAndTruncatedFilesNeverCrash) {
  Schema schema = NestedVariantSchema();
  ColumnBatch batch = BatchOf(schema, kRows);
  std::string bytes;
  StringSink sink(&bytes);
  auto w = ParquetWriter::Open(&sink, schema, {{"write.parquet.compression-codec", "uncompressed"}});
  ASSERT_TRUE(w);
  ASSERT_TRUE((*w)->Write(batch));
  ASSERT_TRUE((*w)->Close());
  size_t errors = 0;
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (uint8_t x : {0x01, 0x80}) {
      std::string bad = bytes;
      bad[at] = static_cast<char>(bad[at] ^ x);
      auto b = ReadBytes(bad, schema);
      if (!b) {
        ++errors;
        continue;
      }
      for (const Column& c : b->columns) ASSERT_EQ(c.length, b->num_rows);
    }
  }
  for (size_t len = 0; len < bytes.size(); len += 7) errors += !ReadBytes(bytes.substr(0, len), schema).has_value();
  EXPECT_GT(errors, 0u);

  // A shredded variant in a list, every byte flipped.
  auto shredded = VariantListSchema({BinaryLeaf("metadata", kReq), BinaryLeaf("value", kOpt),
                                     level_files::Leaf("typed_value", kOpt, physical::kInt32)});
  const std::vector<uint8_t> rep = {0, 1, 0, 0};
  std::string file = BuildLevelFile(shredded, {{LeafLevels{rep, {3, 3, 0, 2}, {}, {kEmptyMetadata, kEmptyMetadata}},
                                                LeafLevels{rep, {4, 3, 0, 2}, {}, {kX}},
                                                LeafLevels{rep, {3, 4, 0, 2}, {7}, {}}}});
  ASSERT_TRUE(TagRows(file));
  for (size_t at = 0; at < file.size(); ++at) {
    std::string bad = file;
    bad[at] = static_cast<char>(bad[at] ^ 0x41);
    (void)TagRows(bad);  // an error or rows, never a crash
  }
}

}  // namespace floe::parquet::variant_nested_test
