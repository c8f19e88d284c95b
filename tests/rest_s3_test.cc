// `floe serve` over a catalog whose warehouse is on S3 (moto, scripts/s3.sh): a REST client
// creates a table, appends rows and reads them back, with data, manifests and metadata on S3.
// The server takes its S3 settings from the catalog URI (PyIceberg's s3.* names); the client,
// which writes the data files itself, from the standard AWS variables.
#include <gtest/gtest.h>
#include <httplib.h>

#include <cstdlib>
#include <set>

#include <nlohmann/json.hpp>

#include "catalog/catalog_test_env.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "types/schema_text.h"

namespace floe {
namespace {

using testing_env::Backend;
using testing_env::ServeProcess;

const TableIdentifier kTable{{"db"}, "events"};

ColumnBatch Rows(int64_t first, int count) {
  ColumnBatch rows(*ParseSchemaText("id long not null, data string"));
  for (int i = 0; i < count; ++i) (void)rows.AppendRow({Literal::Long(first + i), Literal::String("row")});
  return rows;
}

class RestOverS3 : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    auto config = TestS3Config();
    if (!config) GTEST_SKIP() << kNoS3Message;
    ASSERT_NE(TestS3FileIO(), nullptr) << "cannot reach the test S3 server at " << config->endpoint;
    // The backing catalog: the storage catalog at s3://, or SQLite with an S3 warehouse.
    place_ = testing_env::MakePlace(GetParam(), dir_.path());
    ASSERT_FALSE(place_.uri.empty()) << place_.skip_reason;
    std::string error;
    server_ =
        ServeProcess::Start(FLOE_BINARY, {"--catalog", place_.uri, "--catalog-name", place_.name, "serve"}, &error);
    ASSERT_TRUE(server_) << error;
    // What a user of the REST catalog sets to reach the same bucket.
    setenv("AWS_ENDPOINT_URL", config->endpoint.c_str(), 1);
    setenv("AWS_ACCESS_KEY_ID", config->credentials.access_key_id.c_str(), 1);
    setenv("AWS_SECRET_ACCESS_KEY", config->credentials.secret_access_key.c_str(), 1);
    setenv("AWS_REGION", config->region.c_str(), 1);
  }
  void TearDown() override {
    for (const char* v : {"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"}) unsetenv(v);
  }

  std::unique_ptr<Catalog> Client() {
    auto c = OpenCatalog(server_->url());
    EXPECT_TRUE(c) << c.error().ToString();
    return c ? std::move(*c) : nullptr;
  }

  testing_env::TempDir dir_{"floe-rest-s3"};
  testing_env::CatalogPlace place_;
  std::unique_ptr<ServeProcess> server_;
};

TEST_P(RestOverS3, ARestClientCreatesAppendsAndReadsBack) {
  auto client = Client();
  ASSERT_TRUE(client);
  ASSERT_TRUE(client->CreateNamespace(kTable.ns, {}));
  CreateTableRequest request;
  request.schema = *ParseSchemaText("id long not null, data string");
  auto created = client->CreateTable(kTable, request);
  ASSERT_TRUE(created) << created.error().ToString();
  EXPECT_TRUE(created->metadata.location.starts_with("s3://")) << created->metadata.location;
  EXPECT_TRUE(created->metadata_location.starts_with("s3://")) << created->metadata_location;

  ASSERT_TRUE(AppendBatch(*client, kTable, Rows(0, 5))) << "first append";
  auto second = AppendBatch(*client, kTable, Rows(5, 3));
  ASSERT_TRUE(second) << second.error().ToString();

  // Another client, as another program would: the server's answer names S3 files it reads.
  auto reader = Client();
  ASSERT_TRUE(reader);
  auto table = reader->LoadTable(kTable);
  ASSERT_TRUE(table) << table.error().ToString();
  ASSERT_NE(table->metadata.CurrentSnapshot(), nullptr);
  EXPECT_TRUE(table->metadata.CurrentSnapshot()->manifest_list.starts_with("s3://"));
  auto rows = ReadTable(*reader->io(), table->metadata, ScanOptions{});
  ASSERT_TRUE(rows) << rows.error().ToString();
  ASSERT_EQ(rows->num_rows, 8u);
  std::set<int64_t> ids(rows->columns[0].longs.begin(), rows->columns[0].longs.end());
  EXPECT_EQ(ids, (std::set<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));

  // The same table through the backing catalog directly: the server committed to S3.
  auto direct = testing_env::OpenPlace(place_);
  ASSERT_TRUE(direct) << direct.error().ToString();
  auto backing = (*direct)->LoadTable(kTable);
  ASSERT_TRUE(backing) << backing.error().ToString();
  EXPECT_EQ(backing->metadata_location, table->metadata_location);
  EXPECT_EQ(backing->metadata.snapshots.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Backends, RestOverS3, ::testing::Values(Backend::kStorageS3, Backend::kSqliteS3),
                         [](const auto& info) { return std::string(testing_env::BackendName(info.param)); });

}  // namespace
}  // namespace floe
