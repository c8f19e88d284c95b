// Shredded variant columns: files laid out as the Parquet variant shredding spec says (metadata,
// value and typed_value, objects shredded field by field) are written with floe's own writer as
// plain groups and read back as a variant column; malformed shredding is refused naming the file,
// the column and the path. (tests/interop/v3_types_peers_test.py reads Spark's shredded files.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"
#include "parquet/parquet_writer.h"
#include "types/variant.h"
#include "types/variant_builder.h"

namespace floe::parquet {
namespace {

TypePtr Pair(int value_id, int typed_id, TypePtr typed) {
  return Type::Struct({{value_id, "value", Type::Binary(), false, ""}, {typed_id, "typed_value", std::move(typed), false, ""}});
}

// doc: metadata, value, typed_value {a: int, b: string}.
Schema ObjectLayout() {
  TypePtr typed = Type::Struct({{6, "a", Pair(7, 8, Type::Int()), true, ""}, {9, "b", Pair(10, 11, Type::String()), true, ""}});
  TypePtr doc = Type::Struct({{3, "metadata", Type::Binary(), true, ""}, {4, "value", Type::Binary(), false, ""},
                              {5, "typed_value", typed, false, ""}});
  return Schema(0, {{1, "id", Type::Long(), true, ""}, {2, "doc", doc, false, ""}});
}

// Appends a JSON description of a value to a column: null is null, a struct takes an object by
// field name (absent fields null, absent required groups empty), binary takes the string's bytes
// as they are.
void Put(Column* c, const nlohmann::json& j) {
  if (j.is_null()) {
    c->AppendNull();
    return;
  }
  if (c->type->id() == TypeId::kStruct) {
    for (size_t k = 0; k < c->children.size(); ++k) {
      const NestedField& f = c->type->fields()[k];
      // A required group left out (a shredded field the row lacks) is there with its columns null.
      const bool group = f.type->id() == TypeId::kStruct && f.required;
      Put(&c->children[k], j.contains(f.name) ? j[f.name] : group ? nlohmann::json::object() : nlohmann::json());
    }
    if (!c->nulls.empty()) c->nulls.push_back(0);
    ++c->length;
    return;
  }
  Literal v;
  switch (c->type->id()) {
    case TypeId::kInt: v = Literal::Int(j.get<int32_t>()); break;
    case TypeId::kLong: v = Literal::Long(j.get<int64_t>()); break;
    case TypeId::kString: v = Literal::String(j.get<std::string>()); break;
    default: v = Literal::Binary(j.get<std::string>()); break;
  }
  ASSERT_TRUE(c->Append(v));
}

std::string WriteFile(const Schema& schema, const std::vector<nlohmann::json>& docs) {
  ColumnBatch batch(schema);
  for (size_t r = 0; r < docs.size(); ++r) {
    Put(&batch.columns[0], static_cast<int64_t>(r));
    Put(&batch.columns[1], docs[r]);
  }
  batch.num_rows = docs.size();
  std::string file;
  StringSink sink(&file);
  auto w = ParquetWriter::Open(&sink, schema, {});
  EXPECT_TRUE(w) << w.error().ToString();
  auto written = (*w)->Write(batch);
  EXPECT_TRUE(written) << written.error().ToString();
  EXPECT_TRUE((*w)->Close());
  return file;
}

Result<ColumnBatch> ReadAsVariant(const std::string& file) {
  auto f = ParquetFile::Open(std::make_shared<BufferSource>(std::string_view(file), "shred.parquet"));
  if (!f) return std::unexpected(f.error());
  Schema read(0, {{1, "id", Type::Long(), true, ""}, {2, "doc", Type::Variant(), false, ""}});
  return (*f)->ReadRowGroup(0, read, 1);
}

std::string Json(const ColumnBatch& b, size_t row) {
  if (b.columns[1].IsNull(row)) return "NULL";
  return b.columns[1].Get(row).ToJson().dump();
}

struct Dict {
  std::string metadata;  // a dictionary of the given keys
  explicit Dict(const std::vector<std::string>& keys) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& k : keys) o[k] = 0;
    metadata = EncodeVariant(o)->metadata;
  }
  // An object of the given fields (each value already encoded), using this dictionary.
  std::string Object(const std::vector<std::pair<std::string, std::string>>& fields) const {
    auto b = *VariantMetadataBuilder::FromMetadata(metadata);
    std::vector<VariantField> out;
    for (const auto& [k, v] : fields) out.push_back({b.KeyId(k), v});
    return *BuildVariantObject(out, b);
  }
};

std::string Prim(const Literal& v) { return *EncodeVariantPrimitive(v); }

TEST(ShreddedVariant, ObjectsArePutBackTogether) {
  Dict abc({"a", "b", "c"});
  const std::string none = EncodeVariant(1)->metadata;  // a dictionary without keys
  std::vector<nlohmann::json> docs = {
      {{"metadata", abc.metadata}, {"typed_value", {{"a", {{"typed_value", 1}}}, {"b", {{"typed_value", "x"}}}}}},
      // partly shredded: the residual object holds c
      {{"metadata", abc.metadata}, {"value", abc.Object({{"c", Prim(Literal::Boolean(true))}})},
       {"typed_value", {{"a", nlohmann::json::object()}, {"b", {{"typed_value", "y"}}}}}},
      // not an object: the whole value in `value`
      {{"metadata", abc.metadata}, {"value", Prim(Literal::Int(7))}},
      nullptr,
      // a field whose value does not have the shredded type stays in its own `value`
      {{"metadata", abc.metadata}, {"typed_value", {{"a", {{"value", Prim(Literal::String("s"))}}}, {"b", {{"value", Prim(Literal::Null(Type::Int()))}}}}}},
      // a key the writer's dictionary lacks is added to it
      {{"metadata", none}, {"typed_value", {{"a", {{"typed_value", 5}}}}}},
  };
  auto back = ReadAsVariant(WriteFile(ObjectLayout(), docs));
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(Json(*back, 0), R"({"a":1,"b":"x"})");
  EXPECT_EQ(Json(*back, 1), R"({"b":"y","c":true})");
  EXPECT_EQ(Json(*back, 2), "7");
  EXPECT_EQ(Json(*back, 3), "NULL");
  EXPECT_EQ(Json(*back, 4), R"({"a":"s","b":null})");
  EXPECT_EQ(Json(*back, 5), R"({"a":5})");
}

TEST(ShreddedVariant, APrimitiveShreddedAtTheTop) {
  TypePtr doc = Type::Struct({{3, "metadata", Type::Binary(), true, ""}, {4, "value", Type::Binary(), false, ""},
                              {5, "typed_value", Type::Long(), false, ""}});
  Schema layout(0, {{1, "id", Type::Long(), true, ""}, {2, "doc", doc, false, ""}});
  const std::string m = EncodeVariant(1)->metadata;
  auto back = ReadAsVariant(WriteFile(layout, {{{"metadata", m}, {"typed_value", 1234567890123}},
                                               {{"metadata", m}, {"value", Prim(Literal::String("text"))}},
                                               {{"metadata", m}}}));
  ASSERT_TRUE(back) << back.error().ToString();
  EXPECT_EQ(Json(*back, 0), "1234567890123");
  EXPECT_EQ(Json(*back, 1), R"("text")");
  EXPECT_EQ(Json(*back, 2), "null");  // there, but neither column set: a variant null
}

void ExpectRefused(const std::vector<nlohmann::json>& docs, const std::string& needle, const Schema& layout = ObjectLayout()) {
  auto back = ReadAsVariant(WriteFile(layout, docs));
  ASSERT_FALSE(back) << "read " << back->num_rows << " rows";
  const std::string m = back.error().message;
  EXPECT_NE(m.find("shred.parquet"), std::string::npos) << m;
  EXPECT_NE(m.find("'doc'"), std::string::npos) << m;
  EXPECT_NE(m.find(needle), std::string::npos) << m;
}

TEST(ShreddedVariant, MalformedShreddingIsRefusedByPath) {
  Dict ab({"a", "b"});
  // a primitive set in both columns
  ExpectRefused({{{"metadata", ab.metadata}, {"typed_value", {{"a", {{"value", Prim(Literal::Int(3))}, {"typed_value", 4}}}}}}},
                "'typed_value.a': both value and typed_value are set");
  // typed_value says object, value is not one
  ExpectRefused({{{"metadata", ab.metadata}, {"value", Prim(Literal::Int(7))}, {"typed_value", {{"a", {{"typed_value", 1}}}}}}},
                "is not an object");
  // a shredded field also in the residual object
  ExpectRefused({{{"metadata", ab.metadata}, {"value", ab.Object({{"a", Prim(Literal::Int(2))}})},
                  {"typed_value", {{"a", {{"typed_value", 1}}}}}}},
                "field 'a' twice");
  // residual bytes cut short
  std::string cut = ab.Object({{"b", Prim(Literal::String("long enough"))}});
  cut.resize(cut.size() - 3);
  ExpectRefused({{{"metadata", ab.metadata}, {"value", cut}, {"typed_value", {{"a", {{"typed_value", 1}}}}}}}, "run");
  // metadata that is not a dictionary
  ExpectRefused({{{"metadata", std::string("\x07", 1)}, {"typed_value", {{"a", {{"typed_value", 1}}}}}}}, "version");
}

TEST(ShreddedVariant, LayoutsOutsideTheSpecAreRefused) {
  TypePtr odd = Type::Struct({{3, "metadata", Type::Binary(), true, ""}, {4, "value", Type::Binary(), false, ""},
                              {5, "typed_value", Type::Long(), false, ""}, {6, "extra", Type::Int(), false, ""}});
  const std::string m = EncodeVariant(1)->metadata;
  ExpectRefused({{{"metadata", m}, {"typed_value", 1}}}, "'extra' is not part of a shredded variant",
                Schema(0, {{1, "id", Type::Long(), true, ""}, {2, "doc", odd, false, ""}}));
  TypePtr field_not_group = Type::Struct({{3, "metadata", Type::Binary(), true, ""},
                                          {5, "typed_value", Type::Struct({{6, "a", Type::Int(), false, ""}}), false, ""}});
  ExpectRefused({{{"metadata", m}, {"typed_value", {{"a", 1}}}}}, "'typed_value.a' is not a group of value and typed_value",
                Schema(0, {{1, "id", Type::Long(), true, ""}, {2, "doc", field_not_group, false, ""}}));
}

}  // namespace
}  // namespace floe::parquet
