#include "table_files/moved_paths_file_io.h"

#include <gtest/gtest.h>

#include "io/memory_file_io.h"

namespace floe {
namespace {

std::string Mapped(const std::string& recorded, const std::string& actual, const std::string& path) {
  return MovedPathsFileIO(std::make_shared<MemoryFileIO>(), recorded, actual).Map(path);
}

TEST(MovedPathsFileIO, PathsUnderTheRecordedLocationMoveToTheActualOne) {
  EXPECT_EQ(Mapped("/test-warehouse/t", "/tmp/copy/t", "/test-warehouse/t/data/a.parquet"), "/tmp/copy/t/data/a.parquet");
  EXPECT_EQ(Mapped("/test-warehouse/t/", "/tmp/copy/t/", "/test-warehouse/t/metadata/v1.metadata.json"),
            "/tmp/copy/t/metadata/v1.metadata.json");
  EXPECT_EQ(Mapped("hdfs://nn:8020/test-warehouse/t", "s3://bucket/t", "hdfs://nn:8020/test-warehouse/t/data/a.parquet"),
            "s3://bucket/t/data/a.parquet");
  // Impala names files without the scheme and host its location has.
  EXPECT_EQ(Mapped("hdfs://nn:8020/test-warehouse/t", "/tmp/t", "/test-warehouse/t/data/a.parquet"), "/tmp/t/data/a.parquet");
  // file: URIs in any spelling, and relative locations (PyIceberg's relative warehouses).
  EXPECT_EQ(Mapped("file:/w/t", "/tmp/t", "file:///w/t/data/a.parquet"), "/tmp/t/data/a.parquet");
  EXPECT_EQ(Mapped("file:///w/t", "/tmp/t", "/w/t/data/a.parquet"), "/tmp/t/data/a.parquet");
  EXPECT_EQ(Mapped("data/persistent/t", "/tmp/t", "data/persistent/t/metadata/snap-1.avro"), "/tmp/t/metadata/snap-1.avro");
  // A listing prefix keeps its trailing '/'.
  EXPECT_EQ(Mapped("/w/t", "/tmp/t", "/w/t/metadata/"), "/tmp/t/metadata/");
}

TEST(MovedPathsFileIO, OtherPathsPassUnchanged) {
  EXPECT_EQ(Mapped("/w/t", "/tmp/t", "/w/t2/data/a.parquet"), "/w/t2/data/a.parquet");
  EXPECT_EQ(Mapped("/w/t", "/tmp/t", "/elsewhere/a.parquet"), "/elsewhere/a.parquet");
  EXPECT_EQ(Mapped("hdfs://nn:8020/w/t", "/tmp/t", "hdfs://other:8020/w/t/a.parquet"), "hdfs://other:8020/w/t/a.parquet");
  EXPECT_EQ(Mapped("s3://b/w/t", "/tmp/t", "s3://c/w/t/a.parquet"), "s3://c/w/t/a.parquet");
}

TEST(MovedPathsFileIO, ReadsGoToTheMappedPath) {
  auto memory = std::make_shared<MemoryFileIO>();
  ASSERT_TRUE(memory->CreateIfAbsent("/copy/t/data/a.parquet", "bytes"));
  MovedPathsFileIO io(memory, "hdfs://nn:8020/test-warehouse/t", "/copy/t");
  auto text = io.ReadAll("hdfs://nn:8020/test-warehouse/t/data/a.parquet");
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "bytes");
  auto size = io.Size("/test-warehouse/t/data/a.parquet");
  ASSERT_TRUE(size);
  EXPECT_EQ(*size, 5);
}

}  // namespace
}  // namespace floe
