// The storage catalog on S3: commits are conditional PUTs, loads avoid listing, and a commit
// whose answer was lost is not committed twice.
#include <gtest/gtest.h>

#include "catalog/catalog_test_env.h"
#include "catalog/storage/storage_catalog.h"
#include "io/s3_fault_proxy_for_tests.h"

namespace floe {
namespace {

const TableIdentifier kTable{{"db"}, "t"};

class StorageS3Test : public ::testing::Test {
 protected:
  void SetUp() override {
    auto config = TestS3Config();
    if (!config) GTEST_SKIP() << kNoS3Message;
    ASSERT_NE(TestS3FileIO(), nullptr) << "cannot reach the test S3 server at " << config->endpoint;
    proxy_ = S3FaultProxy::Start(config->endpoint);
    ASSERT_NE(proxy_, nullptr);
    config->endpoint = proxy_->endpoint();
    io_ = std::make_shared<S3FileIO>(*config);
    warehouse_ = TestS3Prefix("storage");
    catalog_ = std::make_unique<StorageCatalog>("s3", warehouse_, io_);
    ASSERT_TRUE(catalog_->CreateNamespace(kTable.ns, {}));
    auto created = catalog_->CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()});
    ASSERT_TRUE(created) << created.error().ToString();
    uuid_ = created->metadata.table_uuid;
  }

  Result<LoadedTable> SetProperty(const std::string& key) {
    return catalog_->CommitTable(TableCommit{kTable, {AssertTableUuid{uuid_}}, {SetProperties{{{key, "1"}}}}});
  }
  std::string Metadata(const std::string& name) const { return catalog_->TableFolder(kTable) + "/metadata/" + name; }

  std::unique_ptr<S3FaultProxy> proxy_;
  std::shared_ptr<S3FileIO> io_;
  std::string warehouse_;
  std::unique_ptr<StorageCatalog> catalog_;
  std::string uuid_;
};

TEST_F(StorageS3Test, LoadFindsTheCurrentVersionWithoutListing) {
  ASSERT_TRUE(SetProperty("a"));
  ASSERT_TRUE(SetProperty("b"));
  const S3RequestCounts before = io_->RequestCounts();
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  const S3RequestCounts after = io_->RequestCounts();
  EXPECT_EQ(loaded->metadata_location, Metadata("v3.metadata.json"));
  EXPECT_EQ(after.list, before.list);
  // The hint, v3 and v4 asked at once, then the document.
  EXPECT_EQ(after.Total() - before.Total(), 4);
}

TEST_F(StorageS3Test, AWrongOrMissingHintFallsBackToTheListing) {
  ASSERT_TRUE(SetProperty("a"));  // v2
  // A hint naming a version that is not there (a dropped and re-created table).
  ASSERT_TRUE(io_->Delete(Metadata("version-hint.text")));
  ASSERT_TRUE(io_->CreateIfAbsent(Metadata("version-hint.text"), "9"));
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  // A lagging hint is walked forward.
  ASSERT_TRUE(io_->Delete(Metadata("version-hint.text")));
  ASSERT_TRUE(io_->CreateIfAbsent(Metadata("version-hint.text"), "1"));
  ASSERT_TRUE(io_->CreateIfAbsent(Metadata("v3.metadata.json"), io_->ReadAll(Metadata("v2.metadata.json")).value()));
  EXPECT_EQ(catalog_->LoadTable(kTable).value().metadata_location, Metadata("v3.metadata.json"));
  ASSERT_TRUE(io_->Delete(Metadata("version-hint.text")));
  EXPECT_EQ(catalog_->LoadTable(kTable).value().metadata_location, Metadata("v3.metadata.json"));
}

// The metadata PUT lands but its answer is lost; the retried PUT gets 412. The commit must be
// reported as done, once: not retried as v3, not reported as a conflict.
TEST_F(StorageS3Test, CommitWhoseConditionalWriteAnswerWasLostLandsOnce) {
  proxy_->Inject("PUT", "/metadata/v2.metadata.json", S3FaultProxy::Fault::kLoseAnswer);
  auto committed = SetProperty("once");
  ASSERT_TRUE(committed) << committed.error().ToString();
  EXPECT_EQ(proxy_->Faulted(), 1);
  EXPECT_EQ(committed->metadata_location, Metadata("v2.metadata.json"));
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  EXPECT_EQ(loaded->metadata.properties.count("once"), 1u);
  EXPECT_EQ(loaded->metadata.metadata_log.size(), 1u);
  EXPECT_FALSE(io_->Exists(Metadata("v3.metadata.json")).value_or(true));
}

TEST_F(StorageS3Test, ThrottledCommitStillLandsOnce) {
  proxy_->Inject("PUT", "/metadata/v2.metadata.json", S3FaultProxy::Fault::kUnavailable, 2);
  proxy_->Inject("HEAD", "/metadata/v", S3FaultProxy::Fault::kDropRequest, 2);
  ASSERT_TRUE(SetProperty("x"));
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  EXPECT_EQ(loaded->metadata.properties.count("x"), 1u);
}

TEST_F(StorageS3Test, CatalogUrisNameWhatIsWrong) {
  auto malformed = OpenCatalog("s3://Not_A_Bucket/wh");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(malformed.error().message.find("Not_A_Bucket"), std::string::npos) << malformed.error().message;
  auto no_bucket = OpenCatalog("s3:///wh");
  ASSERT_FALSE(no_bucket);
  EXPECT_NE(no_bucket.error().message.find("no bucket"), std::string::npos) << no_bucket.error().message;
  auto half = OpenCatalog("s3://bkt1/wh?s3.access-key-id=x");
  ASSERT_FALSE(half);
  EXPECT_NE(half.error().message.find("s3.secret-access-key"), std::string::npos) << half.error().message;
  auto style = OpenCatalog("sqlite://:memory:?warehouse=s3://Bad/x");
  ASSERT_FALSE(style);
  EXPECT_NE(style.error().message.find("s3://Bad/x"), std::string::npos) << style.error().message;

  // A bucket that does not exist: the first request says so, naming it.
  auto missing = OpenCatalog("s3://no-such-bucket-floe/wh?" + TestS3UriParams());
  ASSERT_TRUE(missing) << missing.error().ToString();
  auto ns = (*missing)->CreateNamespace({"db"}, {});
  ASSERT_FALSE(ns);
  EXPECT_NE(ns.error().message.find("no-such-bucket-floe"), std::string::npos) << ns.error().message;
}

}  // namespace
}  // namespace floe
