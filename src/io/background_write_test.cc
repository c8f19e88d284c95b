#include "io/background_write.h"

#include <gtest/gtest.h>

#include "io/memory_file_io.h"

namespace floe {
namespace {

TEST(BackgroundWriteTest, TheFileExistsWholeOnceWaitSaysOk) {
  MemoryFileIO io;
  const std::string bytes(100000, 'x');
  BackgroundWrite write(io, "/t/metadata/snap-1.avro", bytes);
  ASSERT_TRUE(write.Wait());
  EXPECT_EQ(io.ReadAll("/t/metadata/snap-1.avro").value_or(""), bytes);
  EXPECT_TRUE(write.Wait());  // the same answer again
}

TEST(BackgroundWriteTest, AFailedWriteIsReportedByWaitEveryTime) {
  MemoryFileIO io;
  ASSERT_TRUE(io.CreateIfAbsent("/t/taken.avro", "first"));
  BackgroundWrite write(io, "/t/taken.avro", "second");
  auto result = write.Wait();
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_FALSE(write.Wait());
  EXPECT_EQ(io.ReadAll("/t/taken.avro").value_or(""), "first");
}

TEST(BackgroundWriteTest, DestroyingWithoutWaitingStillFinishesTheWrite) {
  MemoryFileIO io;
  { BackgroundWrite write(io, "/t/late.avro", "bytes"); }
  EXPECT_EQ(io.ReadAll("/t/late.avro").value_or(""), "bytes");
}

TEST(BackgroundWritesTest, WaitAllJoinsEveryWriteAndKeepsTheFirstFailure) {
  MemoryFileIO io;
  ASSERT_TRUE(io.CreateIfAbsent("/t/taken.avro", "first"));
  BackgroundWrites writes;
  writes.Start(io, "/t/a.avro", "a");
  writes.Start(io, "/t/taken.avro", "second");
  writes.Start(io, "/t/b.avro", "b");
  auto all = writes.WaitAll();
  ASSERT_FALSE(all);
  EXPECT_EQ(all.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(io.ReadAll("/t/a.avro").value_or(""), "a");
  EXPECT_EQ(io.ReadAll("/t/b.avro").value_or(""), "b");
  writes.Start(io, "/t/c.avro", "c");  // a later write: joined too, the failure stays
  EXPECT_FALSE(writes.WaitAll());
  EXPECT_EQ(io.ReadAll("/t/c.avro").value_or(""), "c");
  BackgroundWrites fine;
  fine.Start(io, "/t/d.avro", "d");
  EXPECT_TRUE(fine.WaitAll());
}

}  // namespace
}  // namespace floe
