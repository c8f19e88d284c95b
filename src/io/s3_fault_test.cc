// The S3 FileIO under faults injected between it and the server (s3_fault_proxy_for_tests.h):
// throttling, lost answers, connections cut mid-upload, a writer killed mid-upload.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "io/s3_fault_proxy_for_tests.h"
#include "io/s3_test_env.h"

namespace floe {
namespace {

std::string Bytes(size_t size, char seed) {
  std::string out(size, '\0');
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<char>(seed + i * 31 + i / 4093);
  return out;
}

class S3FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto config = TestS3Config();
    if (!config) GTEST_SKIP() << kNoS3Message;
    direct_ = TestS3FileIO();
    ASSERT_NE(direct_, nullptr) << "cannot reach the test S3 server at " << config->endpoint;
    proxy_ = S3FaultProxy::Start(config->endpoint);
    ASSERT_NE(proxy_, nullptr);
    config->endpoint = proxy_->endpoint();
    io_ = std::make_shared<S3FileIO>(*config);
    root_ = TestS3Prefix("fault");
  }
  std::string At(const std::string& name) const { return root_ + "/" + name; }
  std::string Key(const std::string& name) const { return root_.substr(root_.find('/', 5)) + "/" + name; }

  std::shared_ptr<S3FileIO> direct_;  // straight to the server
  std::unique_ptr<S3FaultProxy> proxy_;
  std::shared_ptr<S3FileIO> io_;  // through the proxy
  std::string root_;
};

TEST_F(S3FaultTest, SlowDownAndBrokenConnectionsAreRetried) {
  proxy_->Inject("PUT", Key("a"), S3FaultProxy::Fault::kUnavailable, 3);
  ASSERT_TRUE(io_->CreateIfAbsent(At("a"), "alpha"));
  EXPECT_EQ(direct_->ReadAll(At("a")).value_or(""), "alpha");
  proxy_->Inject("GET", Key("a"), S3FaultProxy::Fault::kDropRequest, 2);
  EXPECT_EQ(io_->ReadAll(At("a")).value_or(""), "alpha");
  EXPECT_EQ(proxy_->Faulted(), 5);
}

TEST_F(S3FaultTest, RetriesAreBoundedAndTheErrorSaysWhy) {
  auto config = TestS3Config();
  config->endpoint = proxy_->endpoint();
  config->max_attempts = 3;
  S3FileIO impatient(*config);
  proxy_->Inject("PUT", Key("never"), S3FaultProxy::Fault::kUnavailable, 100);
  auto created = impatient.CreateIfAbsent(At("never"), "x");
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kUnavailable);
  EXPECT_NE(created.error().message.find("3 attempts"), std::string::npos) << created.error().message;
  EXPECT_NE(created.error().message.find("SlowDown"), std::string::npos) << created.error().message;
  EXPECT_EQ(created.error().message.find("testing-secret"), std::string::npos);
  EXPECT_FALSE(direct_->Exists(At("never")).value_or(true));
}

// The PUT lands, its answer is lost, the retry gets 412: the object there is ours, so the
// create succeeded. Calling it lost would make a committer retry as the next version.
TEST_F(S3FaultTest, ConditionalPutWhoseAnswerWasLostIsRecognizedAsOurs) {
  proxy_->Inject("PUT", Key("v2.metadata.json"), S3FaultProxy::Fault::kLoseAnswer);
  ASSERT_TRUE(io_->CreateIfAbsent(At("v2.metadata.json"), "{\"ours\":1}"));
  EXPECT_EQ(proxy_->Faulted(), 1);
  EXPECT_EQ(direct_->ReadAll(At("v2.metadata.json")).value_or(""), "{\"ours\":1}");
}

// The first attempt never arrived while a rival created the name: the retry's 412 is the
// rival's object, and the create lost.
TEST_F(S3FaultTest, ConditionalPutRetriedOntoARivalsObjectLoses) {
  ASSERT_TRUE(direct_->CreateIfAbsent(At("v3.metadata.json"), "{\"rival\":1}"));
  proxy_->Inject("PUT", Key("v3.metadata.json"), S3FaultProxy::Fault::kDropRequest);
  auto created = io_->CreateIfAbsent(At("v3.metadata.json"), "{\"ours\":1}");
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(direct_->ReadAll(At("v3.metadata.json")).value_or(""), "{\"rival\":1}");
}

TEST_F(S3FaultTest, MultipartUploadSurvivesACutPartAndALostCompletion) {
  const std::string data = Bytes((5 << 20) + 1000, 'm');
  proxy_->Inject("PUT", "partNumber=1", S3FaultProxy::Fault::kCutUpload);
  proxy_->Inject("POST", "uploadId=", S3FaultProxy::Fault::kLoseAnswer);
  auto out = io_->NewOutputFile(At("big.parquet"));
  ASSERT_TRUE(out) << out.error().ToString();
  ASSERT_TRUE((*out)->Write(data));
  auto closed = (*out)->Close();
  ASSERT_TRUE(closed) << closed.error().ToString();
  EXPECT_EQ(proxy_->Faulted(), 2);
  EXPECT_EQ(direct_->ReadAll(At("big.parquet")).value_or(""), data);
}

TEST_F(S3FaultTest, DeleteWhoseAnswerWasLostSucceeds) {
  ASSERT_TRUE(direct_->CreateIfAbsent(At("d"), "x"));
  proxy_->Inject("DELETE", Key("d"), S3FaultProxy::Fault::kLoseAnswer);
  ASSERT_TRUE(io_->Delete(At("d")));
  EXPECT_FALSE(direct_->Exists(At("d")).value_or(true));
}

// kill -9 after the first part was uploaded: no object appears under the name, and a listing
// shows nothing (the incomplete upload is invisible until a lifecycle rule reclaims it).
TEST_F(S3FaultTest, WriterKilledMidMultipartUploadLeavesNoObject) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(ready[0]);
    auto config = TestS3Config();
    S3FileIO child(*config);
    auto out = child.NewOutputFile(At("dead.parquet"));
    if (!out || !(*out)->Write(Bytes((5 << 20) + 10, 'k'))) _exit(1);  // part 1 is uploaded
    (void)!write(ready[1], "r", 1);
    pause();
    _exit(0);
  }
  close(ready[1]);
  char r = 0;
  ASSERT_EQ(read(ready[0], &r, 1), 1);
  close(ready[0]);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  EXPECT_FALSE(direct_->Exists(At("dead.parquet")).value_or(true));
  EXPECT_TRUE(direct_->ListPrefix(root_ + "/").value_or(std::vector<FileInfo>{FileInfo{}}).empty());
  // The name is still free.
  EXPECT_TRUE(direct_->CreateIfAbsent(At("dead.parquet"), "x"));
}

// Get reads the store's object, never this FileIO's memory of what it wrote, with the ETag a
// HEAD gives (what the storage catalog compares versions by).
TEST_F(S3FaultTest, GetGivesTheStoresBytesAndETag) {
  ASSERT_TRUE(io_->CreateUnreferenced(At("g"), "gamma"));
  proxy_->Inject("GET", Key("g"), S3FaultProxy::Fault::kDropRequest);
  auto got = io_->Get(At("g"));
  ASSERT_TRUE(got) << got.error().ToString();
  EXPECT_EQ(proxy_->Faulted(), 1) << "asked the store (and retried the dropped request)";
  EXPECT_EQ(got->bytes, "gamma");
  EXPECT_EQ(got->etag, io_->ETag(At("g")).value().value_or("?"));
  EXPECT_EQ(got->etag, io_->ContentETag("gamma"));
  auto missing = io_->Get(At("nothing"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message.find(At("nothing")), std::string::npos) << missing.error().message;
}

TEST_F(S3FaultTest, MissingBucketAndMalformedLocationsAreNamed) {
  auto missing = direct_->ReadAll("s3://no-such-bucket-floe/k");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(missing.error().message.find("no-such-bucket-floe"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("does not exist"), std::string::npos) << missing.error().message;
  auto put = direct_->CreateIfAbsent("s3://no-such-bucket-floe/k", "x");
  ASSERT_FALSE(put);
  EXPECT_NE(put.error().message.find("no-such-bucket-floe"), std::string::npos) << put.error().message;
  auto size = direct_->Size("s3://no-such-bucket-floe/k");
  ASSERT_FALSE(size);
  EXPECT_NE(size.error().message.find("bucket 'no-such-bucket-floe' does not exist"), std::string::npos)
      << size.error().message;
  auto malformed = direct_->ReadAll("s3://Bad_Bucket/k");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(malformed.error().message.find("s3://Bad_Bucket/k"), std::string::npos);
}

}  // namespace
}  // namespace floe
