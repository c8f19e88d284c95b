// The test S3 server's bulk seed (scripts/s3_server.py --bulk-seed, for benchmarks): the objects
// it makes are, to floe's S3 FileIO, the same as objects PUT one by one (LIST, HEAD, GET, a
// conditional PUT over them, DeleteObjects), and every malformed request is refused with a
// message naming what is wrong and nothing created.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/s3_bulk_seed_for_tests.h"
#include "io/s3_client.h"
#include "io/s3_test_env.h"
#include "util/clock.h"

namespace floe {
namespace {

struct Seeded {
  std::shared_ptr<S3FileIO> io;
  std::string endpoint;
  std::string folder;      // s3://floe-test/bulk-seed-<uuid>/
  std::string key_prefix;  // bulk-seed-<uuid>/o-
};

std::optional<Seeded> Fresh() {
  auto io = TestS3FileIO();
  if (!io) return std::nullopt;
  Seeded s;
  s.io = io;
  s.endpoint = TestS3Config()->endpoint;
  s.folder = TestS3Prefix("bulk-seed") + "/";
  s.key_prefix = ParseS3Location(s.folder)->key + "o-";
  return s;
}

std::string Uri(const std::string& key) { return std::string("s3://") + kTestBucket + "/" + key; }

TEST(S3BulkSeed, SeededObjectsAreToTheFileIOWhatPutObjectsAre) {
  if (!TestS3Config()) GTEST_SKIP() << kNoS3Message;
  auto s = Fresh();
  ASSERT_TRUE(s) << "cannot reach the test S3 server";
  const int64_t before_ms = NowMillis();
  auto seeded = S3BulkSeed(s->endpoint, kTestBucket, s->key_prefix, 1001, ".parquet", "abc");
  ASSERT_TRUE(seeded) << seeded.error().ToString();
  // One object written by floe's PUT beside them, to compare with.
  const std::string put = s->folder + "put.parquet";
  ASSERT_TRUE(s->io->CreateIfAbsent(put, "abc"));

  // LIST: all of them, in order over two pages (1,000 keys a page), with size and mtime.
  auto listed = s->io->ListPrefix(s->folder);
  ASSERT_TRUE(listed) << listed.error().ToString();
  ASSERT_EQ(listed->size(), 1002u);
  for (int i = 0; i < 1001; ++i) {
    const FileInfo& f = (*listed)[i];
    ASSERT_EQ(f.path, Uri(S3BulkSeedKey(s->key_prefix, i, ".parquet")));
    EXPECT_EQ(f.size, 3);
    EXPECT_GE(f.mtime_ms, before_ms - 2'000);  // S3's LastModified has whole seconds
    EXPECT_LE(f.mtime_ms, NowMillis() + 1'000);
  }
  EXPECT_EQ(listed->back().path, put);

  // HEAD, GET, ETag: as the PUT object's.
  const std::string one = Uri(S3BulkSeedKey(s->key_prefix, 1000, ".parquet"));
  EXPECT_EQ(s->io->Size(one).value_or(-1), 3);
  EXPECT_TRUE(s->io->Exists(one).value_or(false));
  EXPECT_EQ(s->io->ReadAll(one).value_or(""), "abc");
  auto seeded_etag = s->io->ETag(one);
  auto put_etag = s->io->ETag(put);
  ASSERT_TRUE(seeded_etag && *seeded_etag && put_etag && *put_etag);
  EXPECT_EQ(**seeded_etag, **put_etag);
  EXPECT_EQ(**seeded_etag, s->io->ContentETag("abc"));
  // A conditional PUT sees a seeded object as existing.
  auto again = s->io->CreateIfAbsent(one, "zz");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists) << again.error().ToString();
  EXPECT_EQ(s->io->ReadAll(one).value_or(""), "abc");

  // DeleteObjects removes them (two batches of at most 1,000).
  std::vector<std::string> paths;
  for (const FileInfo& f : *listed) paths.push_back(f.path);
  ASSERT_TRUE(s->io->DeleteFiles(paths));
  EXPECT_TRUE(s->io->ListPrefix(s->folder).value().empty());
  EXPECT_FALSE(s->io->Exists(one).value_or(true));
}

TEST(S3BulkSeed, RefusesMalformedRequestsAndCreatesNothing) {
  if (!TestS3Config()) GTEST_SKIP() << kNoS3Message;
  auto s = Fresh();
  ASSERT_TRUE(s) << "cannot reach the test S3 server";
  const std::string prefix = UriEncode(s->key_prefix, false);
  const std::string ok = "bucket=floe-test&prefix=" + prefix;
  struct Case {
    std::string query;
    long status;
    std::string says;
  };
  const std::vector<Case> cases = {
      {ok + "&count=0", 400, "count '0'"},
      {ok + "&count=-1", 400, "count '-1'"},
      {ok + "&count=1x", 400, "count '1x'"},
      {ok + "&count=1000001", 400, "count '1000001'"},
      {ok, 400, "'count' is missing"},
      {"bucket=floe-test&count=1", 400, "'prefix' is missing"},
      {"prefix=" + prefix + "&count=1", 400, "'bucket' is missing"},
      {ok + "&count=1&color=red", 400, "unknown parameter 'color'"},
      {ok + "&count=1&count=2", 400, "'count' given twice"},
      {ok + "%01&count=1", 400, "control character"},
      {ok + "&count=1&suffix=%0A", 400, "suffix holds a control character"},
      {ok + "%FF&count=1", 400, "malformed query"},
      {"bucket=floe-test&prefix=&count=1", 400, "prefix is empty"},
      {ok + std::string(1020, 'k') + "&count=1", 400, "over S3's 1024"},
      {"bucket=no-such-bucket-seed&prefix=" + prefix + "&count=1", 404, "bucket 'no-such-bucket-seed'"},
  };
  for (const Case& c : cases) {
    HttpResponse r = SendS3BulkSeed(s->endpoint, c.query, "x");
    EXPECT_EQ(r.status, c.status) << c.query << ": " << r.body;
    EXPECT_NE(r.body.find(c.says), std::string::npos) << c.query << ": " << r.body;
  }
  HttpResponse get = SendS3BulkSeed(s->endpoint, ok + "&count=1", "", "GET");
  EXPECT_EQ(get.status, 405) << get.body;
  HttpResponse big = SendS3BulkSeed(s->endpoint, ok + "&count=1", std::string((1 << 20) + 1, 'x'));
  EXPECT_EQ(big.status, 413) << big.body;
  EXPECT_TRUE(s->io->ListPrefix(s->folder).value().empty()) << "a refused seed created objects";

  // All or nothing: a seed whose keys partly exist creates none of the others.
  ASSERT_TRUE(S3BulkSeed(s->endpoint, kTestBucket, s->key_prefix, 2, "", "x"));
  auto overlap = S3BulkSeed(s->endpoint, kTestBucket, s->key_prefix, 3, "", "y");
  ASSERT_FALSE(overlap);
  EXPECT_NE(overlap.error().message.find("already exists"), std::string::npos) << overlap.error().ToString();
  auto listed = s->io->ListPrefix(s->folder).value();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(s->io->ReadAll(listed[0].path).value_or(""), "x");
  ASSERT_TRUE(s->io->DeleteFiles({listed[0].path, listed[1].path}));
}

}  // namespace
}  // namespace floe
