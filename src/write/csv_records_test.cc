#include "write/csv_records.h"

#include <sstream>

#include <gtest/gtest.h>

#include "write/text_rows.h"

namespace floe {
namespace {

// Each record as "line: [field] [\"quoted\"] ...", or the error.
std::string Records(const std::string& text) {
  std::istringstream in(text);
  CsvRecordReader reader(in, "in.csv");
  std::vector<CsvField> fields;
  std::string out;
  while (true) {
    auto more = reader.Next(&fields);
    if (!more) return out + "error: " + more.error().message;
    if (!*more) return out;
    out += std::to_string(reader.record_line()) + ":";
    for (const auto& f : fields) out += f.quoted ? " [\"" + std::string(f.text) + "\"]" : " [" + std::string(f.text) + "]";
    out += "\n";
  }
}

TEST(CsvRecords, QuotedAndUnquotedEmptyFieldsDiffer) {
  EXPECT_EQ(Records("a,b,c\n1,,\n2,\"\",5\n"), "1: [a] [b] [c]\n2: [1] [] []\n3: [2] [\"\"] [5]\n");
}

TEST(CsvRecords, QuotesEscapesCrlfAndFieldsSpanningLines) {
  EXPECT_EQ(Records("x,y\r\n\"two\nlines, \"\"q\"\"\",7\r\n\n3,\"\"\"\"\n4,z"),
            "1: [x] [y]\n2: [\"two\nlines, \"q\"\"] [7]\n5: [3] [\"\"\"]\n6: [4] [z]\n");
}

TEST(CsvRecords, MalformedQuotingIsAnErrorNamingTheLine) {
  EXPECT_EQ(Records("a\n\"open\n"), "1: [a]\nerror: in.csv line 2: unterminated quoted field");
  EXPECT_NE(Records("a,b\n1,2\n\"x\"y,1\n").find("in.csv line 3: text after a closing quote"), std::string::npos);
}

TEST(CsvRecords, RecordsLongerThanTheReadChunk) {
  std::string big(3 << 20, 'v');  // 3 MiB: the buffer must grow past its 1 MiB chunks
  std::string text = "h,i\n\"" + big + "\",1\n" + big + ",2\n";
  std::istringstream in(text);
  CsvRecordReader reader(in, "big.csv");
  std::vector<CsvField> fields;
  ASSERT_TRUE(reader.Next(&fields).value());
  for (int expect = 1; expect <= 2; ++expect) {
    ASSERT_TRUE(reader.Next(&fields).value());
    ASSERT_EQ(fields.size(), 2u);
    EXPECT_EQ(fields[0].text, big);
    EXPECT_EQ(fields[1].text, std::to_string(expect));
  }
  EXPECT_FALSE(reader.Next(&fields).value());
}

TEST(CsvRecords, ManySmallRecordsAcrossChunkBoundaries) {
  std::string text = "n,s\n";
  for (int i = 0; i < 200000; ++i) text += std::to_string(i) + ",\"s" + std::to_string(i) + "\"\"\"\n";
  std::istringstream in(text);
  Schema schema(0, {NestedField{1, "n", Type::Long(), true, ""}, NestedField{2, "s", Type::String(), false, ""}});
  auto reader = TextRowReader::Open(in, TextFormat::kCsv, schema, "many.csv");
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  int64_t rows = 0;
  ColumnBatch batch;
  while ((*reader)->Next(50000, &batch).value()) {
    for (size_t r = 0; r < batch.num_rows; ++r, ++rows) {
      ASSERT_EQ(batch.columns[0].longs[r], rows);
      ASSERT_EQ(batch.columns[1].BytesAt(r), "s" + std::to_string(rows) + "\"");
    }
  }
  EXPECT_EQ(rows, 200000);
}

// Format 3 write-default: a column the input leaves out (absent from a CSV header, a key
// absent from a JSON line) holds the field's write-default; a column given as null stays null.
TEST(TextRows, LeftOutColumnsTakeTheirWriteDefault) {
  NestedField level{2, "level", Type::Int(), true, ""};
  level.initial_default = "1";
  level.write_default = "5";
  Schema schema(0, {NestedField{1, "id", Type::Long(), true, ""}, level,
                    NestedField{3, "note", Type::String(), false, ""}});
  {
    std::istringstream in("id,note\n1,a\n2,\n");
    auto reader = TextRowReader::Open(in, TextFormat::kCsv, schema, "d.csv");
    ASSERT_TRUE(reader.has_value()) << reader.error().message;  // level is required but has a default
    ColumnBatch batch;
    ASSERT_TRUE((*reader)->Next(10, &batch).value());
    ASSERT_EQ(batch.num_rows, 2u);
    EXPECT_EQ(batch.columns[1].Get(0), Literal::Int(5));
    EXPECT_EQ(batch.columns[1].Get(1), Literal::Int(5));
  }
  {
    std::istringstream in("{\"id\": 1}\n{\"id\": 2, \"level\": 9}\n{\"id\": 3, \"note\": null}\n");
    auto reader = TextRowReader::Open(in, TextFormat::kJsonLines, schema, "d.jsonl");
    ASSERT_TRUE(reader.has_value()) << reader.error().message;
    ColumnBatch batch;
    ASSERT_TRUE((*reader)->Next(10, &batch).value());
    ASSERT_EQ(batch.num_rows, 3u);
    EXPECT_EQ(batch.columns[1].Get(0), Literal::Int(5));
    EXPECT_EQ(batch.columns[1].Get(1), Literal::Int(9));
    EXPECT_EQ(batch.columns[1].Get(2), Literal::Int(5));
    EXPECT_TRUE(batch.columns[2].Get(2).is_null());
  }
  // Without a default, a required column absent from the header is still refused.
  Schema plain(0, {NestedField{1, "id", Type::Long(), true, ""}, NestedField{2, "level", Type::Int(), true, ""}});
  std::istringstream in("id\n1\n");
  auto reader = TextRowReader::Open(in, TextFormat::kCsv, plain, "p.csv");
  ASSERT_FALSE(reader.has_value());
  EXPECT_NE(reader.error().message.find("lacks the required column"), std::string::npos);
}

}  // namespace
}  // namespace floe
