#include "types/variant_builder.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "types/variant.h"

namespace floe {
namespace {

std::string Text(const std::string& metadata, const std::string& value) { return *VariantToJsonText(metadata, value); }

TEST(VariantBuilder, ValueSizesMatchTheEncoding) {
  auto v = EncodeVariant(nlohmann::json::parse(R"({"k":[1,"two",3.5,{"x":null}],"s":"a long string that is longer than sixty four bytes, to be a string"})"));
  ASSERT_TRUE(v);
  auto size = VariantValueSize(v->value);
  ASSERT_TRUE(size) << size.error().ToString();
  EXPECT_EQ(*size, v->value.size());
  for (size_t cut = 0; cut < v->value.size(); ++cut) {
    EXPECT_FALSE(VariantValueSize(v->value.substr(0, cut))) << cut;  // a cut value never sizes
  }
}

TEST(VariantBuilder, ObjectsAreRebuiltInKeyOrderWithAddedKeys) {
  auto v = EncodeVariant(nlohmann::json::parse(R"({"m":1,"z":"q"})"));
  ASSERT_TRUE(v);
  auto meta = VariantMetadataBuilder::FromMetadata(v->metadata);
  ASSERT_TRUE(meta);
  auto fields = VariantObjectFields(v->value);
  ASSERT_TRUE(fields) << fields.error().ToString();
  ASSERT_EQ(fields->size(), 2u);
  fields->push_back({meta->KeyId("a"), *EncodeVariantPrimitive(Literal::Decimal(12345, 9, 2))});
  fields->push_back({meta->KeyId("d"), *EncodeVariantPrimitive(Literal::Date(19724))});
  EXPECT_EQ(meta->KeyId("m"), 0u);  // keys already there keep their ids
  auto object = BuildVariantObject(*fields, *meta);
  ASSERT_TRUE(object) << object.error().ToString();
  EXPECT_EQ(Text(meta->Finish(), *object), R"({"a":123.45,"d":"2024-01-02","m":1,"z":"q"})");
  fields->push_back({meta->KeyId("m"), *EncodeVariantPrimitive(Literal::Int(2))});
  auto twice = BuildVariantObject(*fields, *meta);
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("'m' twice"), std::string::npos);
  EXPECT_FALSE(VariantObjectFields(*EncodeVariantPrimitive(Literal::Int(1))));  // not an object
}

TEST(VariantBuilder, PrimitivesKeepTheirWidthAndType) {
  const std::string m = EncodeVariant(1)->metadata;
  EXPECT_EQ(EncodeVariantPrimitive(Literal::Int(-3), 8)->size(), 2u);
  EXPECT_EQ(EncodeVariantPrimitive(Literal::Int(-3), 16)->size(), 3u);
  EXPECT_EQ(Text(m, *EncodeVariantPrimitive(Literal::Int(-3), 8)), "-3");
  EXPECT_EQ(Text(m, *EncodeVariantPrimitive(Literal::Long(-1))), "-1");
  EXPECT_EQ(Text(m, *EncodeVariantPrimitive(Literal::Decimal(-5, 30, 3))), "-0.005");
  EXPECT_EQ(Text(m, *EncodeVariantPrimitive(Literal::TimestampTz(0))), R"("1970-01-01T00:00:00.000000+00:00")");
  EXPECT_EQ(Text(m, *EncodeVariantPrimitive(Literal::Binary("\x01\xff"))), R"("01ff")");
  EXPECT_EQ(Text(m, *EncodeVariantPrimitive(Literal::String(std::string(70, 'x')))), "\"" + std::string(70, 'x') + "\"");
  EXPECT_EQ(Text(m, VariantNullValue()), "null");
  EXPECT_FALSE(EncodeVariantPrimitive(Literal(Type::Geometry(), std::string("x"))));
}

}  // namespace
}  // namespace floe
