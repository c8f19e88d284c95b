#include "parquet/puffin.h"

#include <gtest/gtest.h>

#include "parquet/deletion_vector.h"

namespace floe::parquet {
namespace {

Result<PuffinFooter> ReadFooter(const std::string& file) {
  const int64_t size = static_cast<int64_t>(file.size());
  if (file.size() < kPuffinTrailerSize) {
    auto refused = PuffinFooterSize(file, size);
    if (!refused) return std::unexpected(refused.error());
    return Corrupt("a footer size from a file shorter than the trailer");
  }
  auto footer_size = PuffinFooterSize(std::string_view(file).substr(file.size() - kPuffinTrailerSize), size);
  if (!footer_size) return std::unexpected(footer_size.error());
  return ParsePuffinFooter(std::string_view(file).substr(file.size() - *footer_size), size, "test.puffin");
}

TEST(Puffin, DeletionVectorsOfTwoDataFilesInOneFile) {
  PuffinWriter writer(std::map<std::string, std::string>{{"created-by", "floe test"}});
  auto a = EncodeDeletionVector({1, 2, 3});
  auto b = EncodeDeletionVector({int64_t{1} << 40});
  ASSERT_TRUE(a && b);
  writer.Add(*a, DeletionVectorBlob("s3://b/t/data/a.parquet", 3));
  writer.Add(*b, DeletionVectorBlob("s3://b/t/data/b.parquet", 1));
  const std::string file = writer.Finish();
  ASSERT_EQ(file.substr(0, 4), "PFA1");

  auto footer = ReadFooter(file);
  ASSERT_TRUE(footer) << footer.error().message;
  ASSERT_EQ(footer->blobs.size(), 2u);
  EXPECT_EQ(footer->properties.at("created-by"), "floe test");
  const auto& first = footer->blobs[0];
  EXPECT_EQ(first.type, "deletion-vector-v1");
  EXPECT_EQ(first.fields, std::vector<int>{kRowPositionFieldId});
  EXPECT_EQ(first.snapshot_id, -1);
  EXPECT_EQ(first.sequence_number, -1);
  EXPECT_EQ(first.offset, 4);
  EXPECT_FALSE(first.compression_codec);
  EXPECT_EQ(first.properties.at("referenced-data-file"), "s3://b/t/data/a.parquet");
  EXPECT_EQ(first.properties.at("cardinality"), "3");
  for (size_t i = 0; i < 2; ++i) {
    const auto& blob = footer->blobs[i];
    auto positions = DecodeDeletionVector(std::string_view(file).substr(blob.offset, blob.length));
    ASSERT_TRUE(positions) << positions.error().message;
    EXPECT_EQ(positions->size(), i == 0 ? 3u : 1u);
  }
  EXPECT_EQ(footer->blobs[1].offset, 4 + static_cast<int64_t>(a->size()));
}

TEST(Puffin, EmptyFileIsJavasByteForByte) {
  // Iceberg's own empty-puffin-uncompressed.bin: the header, then a footer with no blobs.
  const std::string java = std::string("PFA1PFA1{\"blobs\":[]}") + std::string("\x0c\0\0\0\0\0\0\0", 8) + "PFA1";
  EXPECT_EQ(PuffinWriter().Finish(), java);
  auto footer = ReadFooter(java);
  ASSERT_TRUE(footer) << footer.error().message;
  EXPECT_TRUE(footer->blobs.empty());
}

TEST(Puffin, HostileFootersAreCorruptNamingTheFile) {
  PuffinWriter writer;
  writer.Add(*EncodeDeletionVector({7}), DeletionVectorBlob("a.parquet", 1));
  const std::string good = writer.Finish();
  ASSERT_TRUE(ReadFooter(good));

  auto expect_corrupt = [](const std::string& file, const std::string& phrase) {
    auto footer = ReadFooter(file);
    ASSERT_FALSE(footer) << phrase;
    EXPECT_EQ(footer.error().kind, ErrorKind::kCorrupt) << footer.error().message;
    EXPECT_NE(footer.error().message.find(phrase), std::string::npos) << footer.error().message;
  };
  std::string no_magic = good;
  no_magic.back() = 'X';
  expect_corrupt(no_magic, "magic");

  // A blob whose offset points into the footer, or past the end.
  std::string offset = good;
  const size_t at = offset.find("\"offset\":4");
  ASSERT_NE(at, std::string::npos);
  offset.replace(at, 10, "\"offset\":9");
  expect_corrupt(offset, "lie outside the blobs");

  // A payload size larger than the file.
  std::string size = good;
  size[size.size() - 12] = '\x7f';
  size[size.size() - 11] = '\x7f';
  expect_corrupt(size, "does not fit");

  // Not JSON.
  PuffinWriter empty;
  std::string garbage = empty.Finish();
  garbage.replace(8, 1, "[");
  expect_corrupt(garbage, "test.puffin");

  for (size_t cut = 0; cut < good.size(); ++cut) EXPECT_FALSE(ReadFooter(good.substr(0, cut))) << cut;

  std::string compressed = good;
  compressed[compressed.size() - 8] = 1;
  auto footer = ReadFooter(compressed);
  ASSERT_FALSE(footer);
  EXPECT_EQ(footer.error().kind, ErrorKind::kNotSupported);
}

}  // namespace
}  // namespace floe::parquet
