#include "types/literal.h"

#include <cmath>

#include <gtest/gtest.h>

#include "types/column_batch.h"

namespace floe {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

Literal Parse(const TypePtr& type, const std::string& text) {
  auto v = Literal::String(text).CastTo(type);
  EXPECT_TRUE(v.has_value()) << text << ": " << (v ? "" : v.error().message);
  return v ? *v : Literal();
}

TEST(LiteralBinary, UsesTheSpecsSingleValueForms) {
  EXPECT_EQ(*Literal::Boolean(true).ToBinary(), Bytes({1}));
  EXPECT_EQ(*Literal::Int(1).ToBinary(), Bytes({1, 0, 0, 0}));
  EXPECT_EQ(*Literal::Long(-2).ToBinary(), Bytes({0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(*Literal::Float(1.0f).ToBinary(), Bytes({0, 0, 0x80, 0x3f}));
  EXPECT_EQ(*Literal::Double(1.0).ToBinary(), Bytes({0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  EXPECT_EQ(*Literal::String("iceberg").ToBinary(), "iceberg");
  // Decimals: two's complement big-endian in the fewest bytes.
  EXPECT_EQ(*Parse(Type::Decimal(9, 2), "14.20").ToBinary(), Bytes({0x05, 0x8c}));
  EXPECT_EQ(*Parse(Type::Decimal(9, 2), "-0.01").ToBinary(), Bytes({0xff}));
  EXPECT_EQ(*Parse(Type::Decimal(9, 2), "1.28").ToBinary(), Bytes({0x00, 0x80}));
  // UUIDs: 16 bytes big-endian.
  auto uuid = Parse(Type::Uuid(), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
  EXPECT_EQ(uuid.ToBinary()->substr(0, 4), Bytes({0xf7, 0x9c, 0x3e, 0x09}));
}

TEST(LiteralBinary, RoundTripsEveryPrimitive) {
  std::vector<Literal> values = {
      Literal::Boolean(false),
      Literal::Int(-123456),
      Literal::Long(1LL << 40),
      Literal::Float(-2.5f),
      Literal::Double(1e300),
      Parse(Type::Decimal(38, 10), "-1234567890123456789012345678.0123456789"),
      Parse(Type::Date(), "1969-07-20"),
      Parse(Type::Time(), "23:59:59.999999"),
      Parse(Type::Timestamp(), "2026-01-01T00:00:00.000001"),
      Parse(Type::TimestampTz(), "2026-01-01T00:00:00+02:00"),
      Parse(Type::TimestampNs(), "2026-01-01T00:00:00.123456789"),
      Parse(Type::TimestampTzNs(), "2026-01-01T00:00:00.123456789Z"),
      Literal::String("grüße"),
      Parse(Type::Uuid(), "f79c3e09-677c-4bbd-a479-3f349cb785e7"),
      Literal(Type::Fixed(3), std::string("abc")),
      Literal::Binary(Bytes({0, 255, 7})),
  };
  for (const auto& v : values) {
    auto bytes = v.ToBinary();
    ASSERT_TRUE(bytes.has_value()) << v.type()->ToString();
    auto back = Literal::FromBinary(v.type(), *bytes);
    ASSERT_TRUE(back.has_value()) << v.type()->ToString();
    EXPECT_EQ(*back, v) << v.type()->ToString() << " " << v.ToString();
    auto json = Literal::FromJson(v.type(), v.ToJson());
    ASSERT_TRUE(json.has_value()) << v.type()->ToString() << " " << v.ToJson().dump();
    EXPECT_EQ(*json, v) << v.type()->ToString();
  }
}

TEST(LiteralBinary, RefusesWrongLengths) {
  auto r = Literal::FromBinary(Type::Int(), Bytes({1, 2}));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kCorrupt);
  EXPECT_FALSE(Literal::FromBinary(Type::Uuid(), "short").has_value());
}

// The fuzz target found a 36-character text with dashes at the right places and two more, which
// was read as a 15-byte uuid; only the 8-4-4-4-12 form of 32 hex digits is a uuid.
TEST(LiteralText, UuidIsOnlyTheDashedFormOf32HexDigits) {
  auto read = [](std::string_view text) { return Literal::String(std::string(text)).CastTo(Type::Uuid()); };
  ASSERT_TRUE(read("f79c3e09-677c-4bbd-a479-3f349cb785e7").has_value());
  EXPECT_EQ(read("F79C3E09-677C-4BBD-A479-3F349CB785E7")->AsBytes().size(), 16u);
  for (std::string_view bad : {"f79c3e44-677c-4bbd-a479-3f34-677c-43", "f79c3e09-677c-4bbd-a479-3f349cb785e",
                               "f79c3e09-677c-4bbd-a4793-f349cb785e7", "f79c3e09x677c-4bbd-a479-3f349cb785e7",
                               "f79c3e09-677c-4bbd-a479-3f349cb785eg", "------------------------------------"}) {
    auto r = read(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_NE(r.error().message.find(std::string(bad)), std::string::npos) << r.error().message;
  }
}

// A decimal value holds at most its type's precision in digits, whatever it is converted from
// (the fuzz target found 1 accepted as a decimal(4,4), which prints as 1.0000 and reads back as
// an error). Scaling up checks first, so it cannot overflow.
TEST(LiteralCast, DecimalsKeepToTheirPrecision) {
  EXPECT_FALSE(Literal::Long(1).CastTo(Type::Decimal(4, 4)).has_value());
  EXPECT_EQ(Literal::Long(-99).CastTo(Type::Decimal(4, 2))->AsDecimal(), -9900);
  EXPECT_FALSE(Literal::Long(100).CastTo(Type::Decimal(4, 2)).has_value());
  EXPECT_FALSE(Literal::Long(INT64_MAX).CastTo(Type::Decimal(38, 30)).has_value());
  EXPECT_FALSE(Literal::Decimal(12345, 5, 2).CastTo(Type::Decimal(4, 2)).has_value());
  EXPECT_EQ(Literal::Decimal(1234, 5, 2).CastTo(Type::Decimal(5, 3))->AsDecimal(), 12340);
  EXPECT_FALSE(Literal::Decimal(1234, 5, 2).CastTo(Type::Decimal(4, 3)).has_value());
  EXPECT_FALSE(Literal::String("1").CastTo(Type::Decimal(4, 4)).has_value());
  EXPECT_EQ(Literal::String("0.1234").CastTo(Type::Decimal(4, 4))->AsDecimal(), 1234);
  EXPECT_FALSE(Literal::String("99999999999999999999999999999999999999").CastTo(Type::Decimal(38, 10)).has_value());
  EXPECT_EQ(Literal::String("9999999999999999999999999999.9999999999").CastTo(Type::Decimal(38, 10))->ToString(),
            "9999999999999999999999999999.9999999999");
}

TEST(LiteralJson, UsesTheSpecsForms) {
  EXPECT_EQ(Parse(Type::Date(), "2017-11-16").ToJson(), "2017-11-16");
  EXPECT_EQ(Parse(Type::Time(), "22:31:08.123456").ToJson(), "22:31:08.123456");
  EXPECT_EQ(Parse(Type::Timestamp(), "2017-11-16T22:31:08.123456").ToJson(), "2017-11-16T22:31:08.123456");
  EXPECT_EQ(Parse(Type::TimestampTz(), "2017-11-16T22:31:08.123456+00:00").ToJson(),
            "2017-11-16T22:31:08.123456+00:00");
  EXPECT_EQ(Parse(Type::TimestampNs(), "2017-11-16T22:31:08.123456789").ToJson(), "2017-11-16T22:31:08.123456789");
  EXPECT_EQ(Parse(Type::Decimal(9, 2), "14.2").ToJson(), "14.20");
  EXPECT_EQ(Literal::Binary(Bytes({0, 1, 2, 255})).ToJson(), "000102FF");
  EXPECT_EQ(Literal::Long(34).ToJson(), 34);
}

TEST(LiteralCast, RefusesWhatDoesNotFit) {
  EXPECT_FALSE(Literal::String("2023-02-30").CastTo(Type::Date()).has_value());
  EXPECT_FALSE(Literal::String("abc").CastTo(Type::Long()).has_value());
  EXPECT_FALSE(Literal::String("1.234").CastTo(Type::Decimal(9, 2)).has_value());
  EXPECT_FALSE(Literal::String("12345678901").CastTo(Type::Decimal(9, 0)).has_value());
  EXPECT_FALSE(Literal::Long(1LL << 40).CastTo(Type::Int()).has_value());
  EXPECT_EQ(Literal::String("2026-01-01").CastTo(Type::Timestamp())->ToString(), "2026-01-01T00:00:00.000000");
  EXPECT_EQ(Parse(Type::Date(), "1960-03-01").AsInt(), -3593);
}

TEST(LiteralOrder, FollowsIcebergsRules) {
  EXPECT_LT(Literal::String("Z"), Literal::String("a"));
  EXPECT_LT(Literal::String("a"), Literal::String("\xC3\xA9"));  // unsigned bytes
  EXPECT_LT(Literal::Double(-0.0), Literal::Double(0.0));
  EXPECT_LT(Literal::Double(1e308), Literal::Double(std::nan("")));
  EXPECT_LT(Literal::Int(3), Literal::Long(4));
  EXPECT_LT(Literal::Binary(Bytes({0x7f})), Literal::Binary(Bytes({0x80})));
}

TEST(ColumnBatch, AppendsFiltersAndRefusesBadRowsWithoutChange) {
  Schema schema(0, {{1, "id", Type::Long(), true, ""}, {2, "name", Type::String(), false, ""}});
  ColumnBatch batch(schema);
  ASSERT_TRUE(batch.AppendRow({Literal::Long(1), Literal::String("a")}).has_value());
  ASSERT_TRUE(batch.AppendRow({Literal::Long(2), Literal::Null(Type::String())}).has_value());
  ASSERT_TRUE(batch.AppendRow({Literal::String("3"), Literal::String("c")}).has_value());
  auto bad = batch.AppendRow({Literal::String("x"), Literal::String("d")});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("column 'id'"), std::string::npos);
  auto missing = batch.AppendRow({Literal::Null(Type::Long()), Literal::String("d")});
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(batch.num_rows, 3u);
  EXPECT_EQ(batch.columns[0].length, 3u);
  EXPECT_EQ(batch.columns[1].length, 3u);
  EXPECT_TRUE(batch.columns[1].IsNull(1));
  ColumnBatch kept = batch.Filter({1, 0, 1});
  ASSERT_EQ(kept.num_rows, 2u);
  EXPECT_EQ(kept.Row(1)[0].AsLong(), 3);
  EXPECT_EQ(kept.Row(1)[1].AsBytes(), "c");
}

}  // namespace
}  // namespace floe
