// The storage catalog on S3: commits are conditional PUTs, loads avoid listing, a catalog that
// saw the current version asks only whether it still is, and a commit whose answer was lost is
// not committed twice.
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
    folder_ = catalog_->TableFolder(kTable);
    ASSERT_TRUE(catalog_->CreateNamespace(kTable.ns, {}));
    auto created = catalog_->CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()});
    ASSERT_TRUE(created) << created.error().ToString();
    uuid_ = created->metadata.table_uuid;
  }

  Result<LoadedTable> SetProperty(const std::string& key, StorageCatalog* catalog = nullptr) {
    return (catalog ? catalog : catalog_.get())
        ->CommitTable(TableCommit{kTable, {AssertTableUuid{uuid_}}, {SetProperties{{{key, "1"}}}}});
  }
  // Another process's catalog on the same warehouse: it knows nothing yet.
  std::unique_ptr<StorageCatalog> Fresh() const { return std::make_unique<StorageCatalog>("s3", warehouse_, io_); }
  // Background hint writes end with their catalog; counts taken after that are exact.
  S3RequestCounts CountsAfter(std::unique_ptr<StorageCatalog>& catalog) {
    catalog.reset();
    return io_->RequestCounts();
  }
  std::string Metadata(const std::string& name) const { return folder_ + "/metadata/" + name; }

  std::unique_ptr<S3FaultProxy> proxy_;
  std::shared_ptr<S3FileIO> io_;
  std::string warehouse_;
  std::string folder_;
  std::unique_ptr<StorageCatalog> catalog_;
  std::string uuid_;
};

TEST_F(StorageS3Test, LoadFindsTheCurrentVersionWithoutListing) {
  ASSERT_TRUE(SetProperty("a"));
  ASSERT_TRUE(SetProperty("b"));
  auto fresh = Fresh();
  const S3RequestCounts before = CountsAfter(catalog_);
  auto loaded = fresh->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  const S3RequestCounts after = io_->RequestCounts();
  EXPECT_EQ(loaded->metadata_location, Metadata("v3.metadata.json"));
  EXPECT_EQ(after.list, before.list);
  // The hint, v3 and v4 asked at once, then the document.
  EXPECT_EQ(after.get - before.get, 2);
  EXPECT_EQ(after.head - before.head, 2);
  EXPECT_EQ(after.Total() - before.Total(), 4);
}

// The version a catalog committed or found last costs two parallel HEADs to confirm, and its
// parsed document is reused: no GET at all.
TEST_F(StorageS3Test, ALoadAfterACommitAsksOnlyWhetherItIsStillCurrent) {
  ASSERT_TRUE(SetProperty("a"));
  const S3RequestCounts before = io_->RequestCounts();
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  const S3RequestCounts after = io_->RequestCounts();
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  EXPECT_EQ(loaded->metadata.properties.count("a"), 1u);
  EXPECT_EQ(after.head - before.head, 2);
  EXPECT_EQ(after.get - before.get, 0);
  EXPECT_EQ(after.list - before.list, 0);

  // Another writer moved the table: the load walks forward and reads the new document.
  auto other = Fresh();
  ASSERT_TRUE(SetProperty("b", other.get()));
  loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, Metadata("v3.metadata.json"));
  EXPECT_EQ(loaded->metadata.properties.count("b"), 1u);
}

// A commit from the version this catalog knows sends one PUT for the document and one for the
// hint, nothing else; a stale base is refused by the conditional PUT, and the next try asks.
TEST_F(StorageS3Test, ACommitFromAKnownVersionIsOneConditionalPut) {
  ASSERT_TRUE(SetProperty("a"));
  catalog_->WaitForHintWrite();
  const S3RequestCounts before = io_->RequestCounts();
  ASSERT_TRUE(SetProperty("b"));
  ASSERT_TRUE(SetProperty("c"));
  const S3RequestCounts after = CountsAfter(catalog_);
  EXPECT_EQ(after.put - before.put, 4) << "a document and a hint per commit";
  EXPECT_EQ(after.Total() - before.Total(), 4);
  EXPECT_EQ(after.del, before.del) << "the hint is replaced, not deleted";
  auto reader = Fresh();
  EXPECT_EQ(reader->LoadTable(kTable).value().metadata_location, Metadata("v4.metadata.json"));
  EXPECT_EQ(io_->ReadAll(Metadata("version-hint.text")).value(), "4");

  auto one = Fresh();
  auto two = Fresh();
  ASSERT_TRUE(one->LoadTable(kTable));
  ASSERT_TRUE(SetProperty("d", two.get()));  // v5
  auto stale = SetProperty("e", one.get());
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().kind, ErrorKind::kCommitConflict) << stale.error().ToString();
  EXPECT_FALSE(io_->Exists(Metadata("v6.metadata.json")).value_or(true));
  auto retried = SetProperty("e", one.get());
  ASSERT_TRUE(retried) << retried.error().ToString();
  EXPECT_EQ(retried->metadata_location, Metadata("v6.metadata.json"));
  EXPECT_EQ(retried->metadata.properties.count("d"), 1u) << "the retry started from the new version";
}

// A commit that lost v<N+1> to another writer learned that v<N+1> exists: the next load reads
// it at once with a HEAD of v<N+2> (one round trip: no hint, no probe of v<N+1> first), and the
// load after that trusts the ETag that GET gave.
TEST_F(StorageS3Test, ALoadAfterALostRaceReadsTheWinnersVersionAtOnce) {
  auto winner = Fresh();
  ASSERT_TRUE(winner->LoadTable(kTable));
  ASSERT_TRUE(catalog_->LoadTable(kTable));  // v1, known to both
  ASSERT_TRUE(SetProperty("won", winner.get()));  // v2
  winner->WaitForHintWrite();
  auto lost = SetProperty("lost");
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().kind, ErrorKind::kCommitConflict) << lost.error().ToString();

  const S3RequestCounts before = io_->RequestCounts();
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  const S3RequestCounts after = io_->RequestCounts();
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  EXPECT_EQ(loaded->metadata.properties.count("won"), 1u);
  EXPECT_EQ(after.get - before.get, 1) << "v2, and not the hint";
  EXPECT_EQ(after.head - before.head, 1) << "v3 only";
  EXPECT_EQ(after.Total() - before.Total(), 2);

  const S3RequestCounts again = io_->RequestCounts();
  ASSERT_TRUE(catalog_->LoadTable(kTable));
  EXPECT_EQ(io_->RequestCounts().get - again.get, 0) << "the document read with its ETag stays cached";
  EXPECT_EQ(io_->RequestCounts().head - again.head, 2);

  // The version the lost race proved is where a retry without a load starts, too.
  auto retried = SetProperty("lost");
  ASSERT_TRUE(retried) << retried.error().ToString();
  EXPECT_EQ(retried->metadata_location, Metadata("v3.metadata.json"));
  EXPECT_EQ(retried->metadata.properties.count("won"), 1u);
}

// A version learned from a lost race that is gone by the next load (the table was dropped) is
// not taken for the table: the load falls back to what storage holds.
TEST_F(StorageS3Test, AVersionLearnedFromALostRaceIsCheckedBeforeItIsUsed) {
  auto winner = Fresh();
  ASSERT_TRUE(winner->LoadTable(kTable));
  ASSERT_TRUE(catalog_->LoadTable(kTable));
  ASSERT_TRUE(SetProperty("won", winner.get()));  // v2
  ASSERT_FALSE(SetProperty("lost"));
  ASSERT_TRUE(winner->DropTable(kTable, false));
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, ErrorKind::kNotFound) << loaded.error().ToString();
}

// The names v<N> come back when a table is dropped and created again: a catalog that knew the
// old v<N> must not take it for the new one.
TEST_F(StorageS3Test, ATableDroppedAndCreatedAgainIsNotTheOneRemembered) {
  ASSERT_TRUE(SetProperty("old"));  // v2, known to catalog_
  auto other = Fresh();
  ASSERT_TRUE(other->DropTable(kTable, false));
  auto again = other->CreateTable(kTable, CreateTableRequest{testing_env::SimpleSchema()});
  ASSERT_TRUE(again) << again.error().ToString();
  ASSERT_TRUE(other->CommitTable(
      TableCommit{kTable, {AssertTableUuid{again->metadata.table_uuid}}, {SetProperties{{{"new", "1"}}}}}));  // v2
  auto loaded = catalog_->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  EXPECT_EQ(loaded->metadata.table_uuid, again->metadata.table_uuid);
  EXPECT_EQ(loaded->metadata.properties.count("old"), 0u);
}

TEST_F(StorageS3Test, AWrongOrMissingHintFallsBackToTheListing) {
  ASSERT_TRUE(SetProperty("a"));  // v2
  catalog_.reset();               // its hint write has landed
  // A hint naming a version that is not there (a dropped and re-created table).
  ASSERT_TRUE(io_->Overwrite(Metadata("version-hint.text"), "9"));
  auto loaded = Fresh()->LoadTable(kTable);
  ASSERT_TRUE(loaded) << loaded.error().ToString();
  EXPECT_EQ(loaded->metadata_location, Metadata("v2.metadata.json"));
  // A lagging hint is walked forward.
  ASSERT_TRUE(io_->Overwrite(Metadata("version-hint.text"), "1"));
  ASSERT_TRUE(io_->CreateIfAbsent(Metadata("v3.metadata.json"), io_->ReadAll(Metadata("v2.metadata.json")).value()));
  EXPECT_EQ(Fresh()->LoadTable(kTable).value().metadata_location, Metadata("v3.metadata.json"));
  ASSERT_TRUE(io_->Delete(Metadata("version-hint.text")));
  EXPECT_EQ(Fresh()->LoadTable(kTable).value().metadata_location, Metadata("v3.metadata.json"));
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

namespace floe {
namespace {

// Against a moto that checks credentials (scripts/s3.sh starts one that knows no key, so every
// key is refused): each catalog on S3 says the access was refused and names the key, never
// the secret, and nothing changes.
TEST(S3Credentials, WrongCredentialsAreNamedAndChangeNothing) {
  const char* endpoint = std::getenv("FLOE_TEST_S3_AUTH_ENDPOINT");
  if (endpoint == nullptr || *endpoint == '\0') {
    GTEST_SKIP() << "skipped: no S3 endpoint that checks credentials (FLOE_TEST_S3_AUTH_ENDPOINT; scripts/s3.sh "
                    "starts one)";
  }
  const std::string secret = "the-wrong-secret-42";
  const std::string params = std::string("s3.endpoint=") + endpoint +
                             "&s3.access-key-id=AKIAFLOEWRONGKEY&s3.secret-access-key=" + secret +
                             "&s3.region=us-east-1";
  auto expect_refused = [&](const Error& e, const std::string& what) {
    EXPECT_NE(e.message.find("access refused"), std::string::npos) << what << ": " << e.message;
    EXPECT_NE(e.message.find("AKIAFLOEWRONGKEY"), std::string::npos) << what << ": " << e.message;
    EXPECT_EQ(e.message.find(secret), std::string::npos) << what << " shows the secret: " << e.message;
    EXPECT_NE(e.kind, ErrorKind::kNotFound) << what;
  };

  auto storage = OpenCatalog("s3://floe-test/wh?" + params);
  ASSERT_TRUE(storage) << storage.error().ToString();
  auto ns = (*storage)->CreateNamespace({"db"}, {});
  ASSERT_FALSE(ns);
  expect_refused(ns.error(), "storage catalog: create namespace");
  auto load = (*storage)->LoadTable({{"db"}, "t"});
  ASSERT_FALSE(load);
  expect_refused(load.error(), "storage catalog: load table");

  testing_env::TempDir dir("floe-s3-auth");
  auto sqlite = OpenCatalog("sqlite://" + dir.path() + "/catalog.db?warehouse=s3://floe-test/wh&" + params);
  ASSERT_TRUE(sqlite) << sqlite.error().ToString();
  ASSERT_TRUE((*sqlite)->CreateNamespace({"db"}, {}));  // SQLite's own row: no S3 request
  auto table = (*sqlite)->CreateTable({{"db"}, "t"}, CreateTableRequest{testing_env::SimpleSchema()});
  ASSERT_FALSE(table);
  expect_refused(table.error(), "sqlite catalog: create table");
  EXPECT_TRUE((*sqlite)->ListTables({"db"}).value().empty()) << "the refused table was not registered";
}

}  // namespace
}  // namespace floe
