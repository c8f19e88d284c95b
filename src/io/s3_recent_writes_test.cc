#include "io/s3_recent_writes.h"

#include <gtest/gtest.h>

#include "io/s3_test_env.h"

namespace floe {
namespace {

TEST(S3RecentWrites, KeepsSmallObjectsWithinItsBoundsOldestDroppedFirst) {
  S3RecentWrites recent;
  recent.Remember("s3://b/big", std::string(S3RecentWrites::kMaxObjectBytes + 1, 'x'));
  EXPECT_FALSE(recent.Find("s3://b/big"));
  const std::string mib(S3RecentWrites::kMaxObjectBytes, 'm');
  const size_t fit = S3RecentWrites::kMaxBytes / mib.size();
  for (size_t i = 0; i <= fit; ++i) recent.Remember("s3://b/" + std::to_string(i), mib);
  EXPECT_FALSE(recent.Find("s3://b/0")) << "the oldest went first";
  EXPECT_TRUE(recent.Find("s3://b/" + std::to_string(fit)));
  recent.Forget("s3://b/1");
  EXPECT_FALSE(recent.Find("s3://b/1"));
}

// A manifest list written by this FileIO is read back without a request; once deleted through
// it, reading it asks S3 again and finds nothing.
TEST(S3RecentWrites, AnUnreferencedObjectIsReadBackWithoutARequest) {
  auto io = TestS3FileIO();
  if (!io) GTEST_SKIP() << kNoS3Message;
  const std::string path = TestS3Prefix("recent") + "/snap-1.avro";
  ASSERT_TRUE(io->CreateUnreferenced(path, "manifest list bytes"));
  const S3RequestCounts before = io->RequestCounts();
  EXPECT_EQ(io->ReadAll(path).value(), "manifest list bytes");
  EXPECT_EQ(io->ReadRange(path, 9, 4).value(), "list");
  EXPECT_FALSE(io->ReadRange(path, 15, 10)) << "a range past the end is refused as S3 would";
  EXPECT_EQ(io->RequestCounts().Total(), before.Total());
  ASSERT_TRUE(io->Delete(path));
  auto gone = io->ReadAll(path);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace floe
