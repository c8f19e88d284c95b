// The table's write.avro.* properties decide how a commit's manifests and manifest list are
// compressed, and a bad value is refused before anything is committed.
#include "table_files/manifest_io.h"

#include <gtest/gtest.h>

#include "avro/avro_file.h"
#include "avro/manifest_list.h"
#include "rows/row_writes.h"
#include "rows/table_test_util.h"

namespace floe {
namespace {

using txn_test::Batch;
using txn_test::Order;
using txn_test::OrdersTable;

// The codec named in the header of the Avro file at `path`.
std::string CodecOf(Catalog& catalog, const std::string& path) {
  auto bytes = catalog.io()->ReadAll(path);
  EXPECT_TRUE(bytes) << path;
  if (!bytes) return "";
  auto reader = avro::FileReader::Open(*bytes, path);
  EXPECT_TRUE(reader) << (reader ? "" : reader.error().message);
  return reader ? std::string(avro::CodecName(reader->codec())) : "";
}

// The codecs of the current snapshot's manifest list and of every manifest it lists.
std::vector<std::string> CodecsOfCurrentSnapshot(OrdersTable& table) {
  TableMetadata m = table.Metadata();
  const Snapshot* head = m.CurrentSnapshot();
  EXPECT_NE(head, nullptr);
  if (!head) return {};
  std::vector<std::string> codecs{CodecOf(table.catalog(), head->manifest_list)};
  auto list = table.catalog().io()->ReadAll(head->manifest_list);
  auto contents = ReadManifestList(*list, head->manifest_list);
  EXPECT_TRUE(contents);
  for (const ManifestFile& mf : contents ? contents->manifests : std::vector<ManifestFile>{})
    codecs.push_back(CodecOf(table.catalog(), mf.manifest_path));
  return codecs;
}

TEST(ManifestOutputTest, ManifestsFollowTheTablesAvroCodec) {
  OrdersTable gzip_table;  // no property: Iceberg's default, gzip (Avro's deflate)
  ASSERT_TRUE(AppendBatch(gzip_table.catalog(), gzip_table.id(), Batch({{1, "DE", 10}})));
  EXPECT_EQ(CodecsOfCurrentSnapshot(gzip_table), (std::vector<std::string>{"deflate", "deflate"}));

  OrdersTable zstd_table("country", {{"write.avro.compression-codec", "zstd"}, {"write.avro.compression-level", "3"}});
  ASSERT_TRUE(AppendBatch(zstd_table.catalog(), zstd_table.id(), Batch({{1, "DE", 10}, {2, "FR", 20}})));
  EXPECT_EQ(CodecsOfCurrentSnapshot(zstd_table), (std::vector<std::string>{"zstandard", "zstandard"}));
  EXPECT_EQ(zstd_table.Rows(), (std::vector<Order>{{1, "DE", 10}, {2, "FR", 20}}));

  OrdersTable plain_table("country", {{"write.avro.compression-codec", "uncompressed"}});
  ASSERT_TRUE(AppendBatch(plain_table.catalog(), plain_table.id(), Batch({{3, "DE", 30}})));
  EXPECT_EQ(CodecsOfCurrentSnapshot(plain_table), (std::vector<std::string>{"null", "null"}));
  EXPECT_EQ(plain_table.Rows(), (std::vector<Order>{{3, "DE", 30}}));
}

TEST(ManifestOutputTest, ABadCodecOrLevelIsRefusedNamingThePropertyAndCommitsNothing) {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"write.avro.compression-codec", "lz4"},
           {"write.avro.compression-level", "fast"},
           {"write.avro.compression-level", "12"}}) {
    OrdersTable table("country", {{key, value}});
    auto appended = AppendBatch(table.catalog(), table.id(), Batch({{1, "DE", 10}}));
    ASSERT_FALSE(appended) << key << "=" << value;
    EXPECT_EQ(appended.error().kind, ErrorKind::kInvalidArgument);
    EXPECT_NE(appended.error().message.find(key + "='" + value + "'"), std::string::npos) << appended.error().message;
    EXPECT_EQ(table.Metadata().CurrentSnapshot(), nullptr);
  }
}

}  // namespace
}  // namespace floe
