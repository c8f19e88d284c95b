// BatchText writes a batch's rows as CSV / JSON lines straight from the column vectors: its
// text must be, byte for byte, what the row listing (PrintListing of each cell's
// Literal::ToJson) prints, for every type, nulls and the odd values included.
#include "cli/batch_text.h"

#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/output.h"

namespace floe::cli {
namespace {

Schema EveryType() {
  int id = 0;
  auto field = [&](const char* name, TypePtr type) { return NestedField{++id, name, std::move(type), false, ""}; };
  return Schema(0, {field("b", Type::Boolean()), field("i", Type::Int()), field("l", Type::Long()),
                    field("f", Type::Float()), field("d", Type::Double()), field("dec", Type::Decimal(38, 4)),
                    field("dec0", Type::Decimal(9, 0)), field("day", Type::Date()), field("t", Type::Time()),
                    field("ts", Type::Timestamp()), field("tstz", Type::TimestampTz()),
                    field("tsns", Type::TimestampNs()), field("tstzns", Type::TimestampTzNs()),
                    field("s", Type::String()), field("u", Type::Uuid()), field("bin", Type::Binary())});
}

// Rows of odd values: nulls, negatives, pre-1970 and far-future instants, text needing quotes.
ColumnBatch OddRows(const Schema& schema) {
  ColumnBatch batch(schema);
  const int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
  const std::vector<std::string> texts = {"", "plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", "tab\there",
                                          "\x01\x1f", "caf\xc3\xa9", "bad \xff utf8", "  spaced  "};
  for (size_t r = 0; r < 40; ++r) {
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      Column& col = batch.columns[c];
      if ((r + c) % 9 == 0) {
        col.AppendNull();
        continue;
      }
      int64_t k = static_cast<int64_t>(r) - 20;
      int64_t wide = k * 123456789012345 + (r % 3 == 0 ? small / 4 : r % 3 == 1 ? big / 3 : 0);
      Literal v;
      switch (col.type->id()) {
        case TypeId::kBoolean: v = Literal::Boolean(r % 2 == 0); break;
        case TypeId::kInt: v = Literal::Int(static_cast<int32_t>(k * 100000007)); break;
        case TypeId::kLong: v = Literal::Long(r == 0 ? small : r == 1 ? big : wide); break;
        case TypeId::kFloat: v = Literal::Float(static_cast<float>(k) / 3.0f); break;
        case TypeId::kDouble: v = Literal::Double(r == 5 ? 1e300 : static_cast<double>(k) / 7.0); break;
        case TypeId::kDecimal: v = Literal(col.type, static_cast<__int128>(wide) * 1000 + k); break;
        case TypeId::kDate: v = Literal(col.type, static_cast<int32_t>(k * 40000 + (r == 3 ? -719528 : 0))); break;
        case TypeId::kTime: v = Literal(col.type, static_cast<int64_t>(r * 3600123457 % 86400000000)); break;
        case TypeId::kString: v = Literal::String(texts[r % texts.size()]); break;
        case TypeId::kUuid: v = Literal(col.type, std::string(16, static_cast<char>(r * 17))); break;
        case TypeId::kBinary: v = Literal(col.type, texts[(r + 3) % texts.size()]); break;
        default: v = Literal(col.type, r == 2 ? small + 1 : r == 4 ? big : wide); break;  // timestamps
      }
      EXPECT_TRUE(col.Append(v)) << col.type->ToString();
    }
  }
  batch.num_rows = 40;
  return batch;
}

std::string Listed(const Schema& schema, const ColumnBatch& batch, OutputFormat format) {
  Listing listing;
  for (const auto& f : schema.fields()) listing.columns.push_back(f.name);
  for (size_t r = 0; r < batch.num_rows; ++r) {
    std::vector<nlohmann::json> row;
    for (const Column& c : batch.columns) row.push_back(c.Get(r).ToJson());
    listing.rows.push_back(std::move(row));
  }
  std::ostringstream out;
  PrintListing(listing, format, out);
  return out.str();
}

TEST(BatchText, PrintsWhatTheRowListingPrintsForEveryType) {
  Schema schema = EveryType();
  ColumnBatch batch = OddRows(schema);
  std::vector<std::string> columns;
  for (const auto& f : schema.fields()) columns.push_back(f.name);
  for (auto [format, listed] : {std::pair{BatchText::Format::kCsv, OutputFormat::kCsv},
                                std::pair{BatchText::Format::kJsonl, OutputFormat::kJsonl}}) {
    std::string want = Listed(schema, batch, listed);
    if (format == BatchText::Format::kCsv) want = want.substr(want.find('\n') + 1);  // the header is printed apart
    std::string got;
    BatchText(columns, format).Append(batch, 0, batch.num_rows, &got);
    EXPECT_EQ(got, want);
    std::ostringstream written;
    std::string scratch;
    BatchText(columns, format).Write(batch, batch.num_rows, written, &scratch);
    EXPECT_EQ(written.str(), want);
  }
}

TEST(BatchText, TemporalAndDecimalTextAsUsersReadIt) {
  Schema schema(0, {NestedField{1, "d", Type::Date(), false, ""}, NestedField{2, "ts", Type::Timestamp(), false, ""},
                    NestedField{3, "tz", Type::TimestampTz(), false, ""}, NestedField{4, "m", Type::Decimal(10, 2), false, ""},
                    NestedField{5, "s", Type::String(), false, ""}});
  ColumnBatch batch(schema);
  ASSERT_TRUE(batch.AppendRow({Literal(Type::Date(), int32_t{19723}), Literal(Type::Timestamp(), int64_t{1704067200000001}),
                               Literal(Type::TimestampTz(), int64_t{-1}), Literal(Type::Decimal(10, 2), __int128{-5}),
                               Literal::String("x,\"y\"")}));
  ASSERT_TRUE(batch.AppendRow({Literal::Null(Type::Date()), Literal::Null(Type::Timestamp()),
                               Literal::Null(Type::TimestampTz()), Literal::Null(Type::Decimal(10, 2)), Literal::String("")}));
  std::string csv, jsonl;
  BatchText({"d", "ts", "tz", "m", "s"}, BatchText::Format::kCsv).Append(batch, 0, 2, &csv);
  BatchText({"d", "ts", "tz", "m", "s"}, BatchText::Format::kJsonl).Append(batch, 0, 2, &jsonl);
  EXPECT_EQ(csv,
            "2024-01-01,2024-01-01T00:00:00.000001,1969-12-31T23:59:59.999999+00:00,-0.05,\"x,\"\"y\"\"\"\n"
            ",,,,\"\"\n");
  EXPECT_EQ(jsonl,
            "{\"d\":\"2024-01-01\",\"ts\":\"2024-01-01T00:00:00.000001\",\"tz\":\"1969-12-31T23:59:59.999999+00:00\","
            "\"m\":\"-0.05\",\"s\":\"x,\\\"y\\\"\"}\n"
            "{\"d\":null,\"ts\":null,\"tz\":null,\"m\":null,\"s\":\"\"}\n");
}

}  // namespace
}  // namespace floe::cli
