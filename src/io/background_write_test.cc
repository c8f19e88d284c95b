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

}  // namespace
}  // namespace floe
