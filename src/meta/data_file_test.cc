#include "meta/data_file.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(DataFile, Names) {
  EXPECT_EQ(FileContentName(FileContent::kData), "DATA");
  EXPECT_EQ(FileContentName(FileContent::kPositionDeletes), "POSITION_DELETES");
  EXPECT_EQ(FileContentName(FileContent::kEqualityDeletes), "EQUALITY_DELETES");
  for (FileFormat f : {FileFormat::kParquet, FileFormat::kAvro, FileFormat::kOrc, FileFormat::kPuffin}) {
    auto parsed = ParseFileFormat(FileFormatName(f));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, f);
  }
  EXPECT_EQ(ParseFileFormat("parquet").value(), FileFormat::kParquet);
  EXPECT_EQ(ParseFileFormat("Avro").value(), FileFormat::kAvro);
  auto bad = ParseFileFormat("csv");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("csv"), std::string::npos);
}

}  // namespace
}  // namespace floe
