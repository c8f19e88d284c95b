// BatchText writes a batch's rows as CSV / JSON lines / a JSON array straight from the column vectors: its
// text must be, byte for byte, what the row listing (PrintListing of each cell's
// Literal::ToJson) prints, for every type, nulls and the odd values included.
#include "api/batch_text.h"

#include <algorithm>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/output.h"
#include "types/nested_json.h"

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
    std::vector<nlohmann::ordered_json> row;
    for (const Column& c : batch.columns) row.push_back(c.Get(r).ToJson());
    listing.rows.push_back(std::move(row));
  }
  std::ostringstream out;
  PrintListing(listing, format, out);
  return out.str();
}

// Rows [0, rows) of `batch` through a BatchTextWriter, formatted in pieces of `piece_rows` rows
// (as the reading threads hand them over), header and array brackets included.
std::string Streamed(const std::vector<std::string>& columns, BatchText::Format format, const ColumnBatch& batch,
                     size_t rows, size_t piece_rows) {
  const BatchText text(columns, format);
  std::ostringstream out;
  BatchTextWriter writer(text, out);
  for (size_t begin = 0; begin < rows; begin += piece_rows) {
    std::string piece;
    text.Append(batch, begin, std::min(rows, begin + piece_rows), &piece);
    writer.Write(piece);
  }
  writer.Finish();
  return out.str();
}

constexpr std::pair<BatchText::Format, OutputFormat> kFormats[] = {{BatchText::Format::kCsv, OutputFormat::kCsv},
                                                                   {BatchText::Format::kJsonl, OutputFormat::kJsonl},
                                                                   {BatchText::Format::kJson, OutputFormat::kJson}};

TEST(BatchText, PrintsWhatTheRowListingPrintsForEveryType) {
  Schema schema = EveryType();
  ColumnBatch batch = OddRows(schema);
  std::vector<std::string> columns;
  for (const auto& f : schema.fields()) columns.push_back(f.name);
  for (auto [format, listed] : kFormats) {
    const std::string want = Listed(schema, batch, listed);
    for (size_t piece_rows : {size_t{1}, size_t{7}, batch.num_rows}) {
      EXPECT_EQ(Streamed(columns, format, batch, batch.num_rows, piece_rows), want) << piece_rows << " rows a piece";
    }
    std::ostringstream written;
    const BatchText text(columns, format);
    BatchTextWriter writer(text, written);
    writer.WriteRows(batch, batch.num_rows);
    writer.Finish();
    EXPECT_EQ(written.str(), want);
  }
}

TEST(BatchText, JsonArrayIsTheListingsForNoRowsOneRowAndNoColumns) {
  Schema schema = EveryType();
  ColumnBatch batch = OddRows(schema);
  std::vector<std::string> columns;
  for (const auto& f : schema.fields()) columns.push_back(f.name);
  ColumnBatch none(schema);
  for (auto [format, listed] : kFormats) {
    EXPECT_EQ(Streamed(columns, format, none, 0, 1), Listed(schema, none, listed));
  }
  EXPECT_EQ(Streamed(columns, BatchText::Format::kJson, none, 0, 1), "[]\n");
  ColumnBatch first(schema);
  std::vector<Literal> row;
  for (const Column& c : batch.columns) row.push_back(c.Get(0));  // the first row, nulls included
  ASSERT_TRUE(first.AppendRow(row));
  EXPECT_EQ(Streamed(columns, BatchText::Format::kJson, batch, 1, 1), Listed(schema, first, OutputFormat::kJson));

  // A projection of no column: each row an empty object, as the listing prints it.
  Schema empty(0, {});
  ColumnBatch rows(empty);
  rows.num_rows = 3;
  for (auto [format, listed] : kFormats) {
    EXPECT_EQ(Streamed({}, format, rows, 3, 2), Listed(empty, rows, listed));
  }
  EXPECT_EQ(Streamed({}, BatchText::Format::kJson, rows, 2, 2), "[\n  {},\n  {}\n]\n");
}

TEST(BatchText, JsonArrayParsesWithEveryRow) {
  Schema schema = EveryType();
  ColumnBatch batch = OddRows(schema);
  std::vector<std::string> columns;
  for (const auto& f : schema.fields()) columns.push_back(f.name);
  // Invalid UTF-8 in the rows is printed as U+FFFD, so the text is strict JSON.
  auto parsed = nlohmann::json::parse(Streamed(columns, BatchText::Format::kJson, batch, batch.num_rows, 5));
  ASSERT_TRUE(parsed.is_array());
  ASSERT_EQ(parsed.size(), batch.num_rows);
  EXPECT_EQ(parsed[3]["l"], batch.columns[2].Get(3).ToJson());
  EXPECT_EQ(parsed[4]["s"], "two\nlines");
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

// Struct, list and map columns: JSON and JSON lines hold the nested JSON, a CSV cell its text, and
// the streamed text is what the listing (the table format's path) prints of the same cells.
TEST(BatchText, PrintsNestedValuesAsTheListingDoes) {
  TypePtr addr = Type::Struct({NestedField{5, "street", Type::String(), false, ""},
                               NestedField{6, "zip", Type::Int(), false, ""}});
  TypePtr tags = Type::List(NestedField{7, "element", Type::String(), false, ""});
  TypePtr by_day = Type::Map(NestedField{8, "key", Type::Date(), true, ""}, NestedField{9, "value", Type::Long(), false, ""});
  Schema schema(0, {NestedField{1, "id", Type::Long(), false, ""}, NestedField{2, "addr", addr, false, ""},
                    NestedField{3, "tags", tags, false, ""}, NestedField{4, "by_day", by_day, false, ""}});
  ColumnBatch batch(schema);
  const char* rows[] = {R"({"id": 1, "addr": {"zip": 5, "street": "a,\"b\""}, "tags": ["x", null], "by_day": [{"key": "2026-01-02", "value": 3}]})",
                        R"({"id": 2, "addr": null, "tags": [], "by_day": null})"};
  for (const char* row : rows) {
    auto json = nlohmann::json::parse(row);
    for (size_t c = 0; c < schema.fields().size(); ++c)
      ASSERT_TRUE(AppendJsonValue(json[schema.fields()[c].name], &batch.columns[c], schema.fields()[c].name));
    ++batch.num_rows;
  }
  std::vector<std::string> columns{"id", "addr", "tags", "by_day"};
  EXPECT_EQ(Streamed(columns, BatchText::Format::kJsonl, batch, 2, 1),
            R"({"id":1,"addr":{"street":"a,\"b\"","zip":5},"tags":["x",null],"by_day":[{"key":"2026-01-02","value":3}]})" "\n"
            R"({"id":2,"addr":null,"tags":[],"by_day":null})" "\n");
  EXPECT_EQ(Streamed(columns, BatchText::Format::kCsv, batch, 2, 2),
            "id,addr,tags,by_day\n"
            R"(1,"{""street"":""a,\""b\"""",""zip"":5}","[""x"",null]","[{""key"":""2026-01-02"",""value"":3}]")" "\n"
            "2,,[],\n");
  Listing listing{columns, {}};
  for (size_t r = 0; r < batch.num_rows; ++r) {
    std::vector<ListedCell> cells;
    for (const Column& c : batch.columns) {
      ListedCell cell;
      AppendCellJson(c, r, &cell.text);
      cells.push_back(std::move(cell));
    }
    listing.rows.push_back(ListingRow(std::move(cells)));
  }
  for (auto [format, listed] : kFormats) {
    std::ostringstream want;
    PrintListing(listing, listed, want);
    EXPECT_EQ(Streamed(columns, format, batch, 2, 1), want.str());
  }
  std::ostringstream table;
  PrintListing(listing, OutputFormat::kTable, table);
  EXPECT_NE(table.str().find(R"({"street":"a,\"b\"","zip":5})"), std::string::npos) << table.str();
}

}  // namespace
}  // namespace floe::cli
