#include "util/uuid.h"

#include <sys/wait.h>
#include <unistd.h>

#include <set>

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Uuid, ParsesTextToBigEndianBytesAndBack) {
  auto uuid = Uuid::Parse("f79c3e09-677c-4bbd-a479-3f349cb785e7");
  ASSERT_TRUE(uuid) << uuid.error().ToString();
  EXPECT_EQ(uuid->bytes[0], 0xf7);
  EXPECT_EQ(uuid->bytes[1], 0x9c);
  EXPECT_EQ(uuid->bytes[4], 0x67);
  EXPECT_EQ(uuid->bytes[15], 0xe7);
  EXPECT_EQ(uuid->ToString(), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
}

TEST(Uuid, AcceptsUpperCaseAndPrintsLowerCase) {
  auto uuid = Uuid::Parse("F79C3E09-677C-4BBD-A479-3F349CB785E7");
  ASSERT_TRUE(uuid);
  EXPECT_EQ(uuid->ToString(), "f79c3e09-677c-4bbd-a479-3f349cb785e7");
}

TEST(Uuid, RefusesMalformedText) {
  for (const char* text : {"", "f79c3e09677c4bbda4793f349cb785e7",
                           "f79c3e09-677c-4bbd-a479-3f349cb785e",
                           "f79c3e09-677c-4bbd-a479-3f349cb785e7a",
                           "f79c3e0-9677c-4bbd-a479-3f349cb785e7",
                           "g79c3e09-677c-4bbd-a479-3f349cb785e7",
                           "f79c3e09_677c-4bbd-a479-3f349cb785e7"}) {
    auto uuid = Uuid::Parse(text);
    ASSERT_FALSE(uuid) << text;
    EXPECT_EQ(uuid.error().kind, ErrorKind::kInvalidArgument);
  }
}

TEST(Uuid, FromBytesNeedsSixteen) {
  std::string raw(16, '\0');
  raw[0] = '\x12';
  auto uuid = Uuid::FromBytes(raw);
  ASSERT_TRUE(uuid);
  EXPECT_EQ(uuid->ToString(), "12000000-0000-0000-0000-000000000000");
  EXPECT_FALSE(Uuid::FromBytes("short"));
}

TEST(Uuid, RandomIsVersion4Variant1AndParsesBack) {
  for (int i = 0; i < 100; ++i) {
    Uuid uuid = Uuid::Random();
    EXPECT_EQ(uuid.bytes[6] >> 4, 4);
    EXPECT_EQ(uuid.bytes[8] >> 6, 2);
    std::string text = uuid.ToString();
    EXPECT_EQ(text[14], '4');
    auto again = Uuid::Parse(text);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, uuid);
  }
}

TEST(Uuid, RandomDoesNotRepeat) {
  std::set<std::string> seen;
  for (int i = 0; i < 10000; ++i) seen.insert(RandomUuidString());
  EXPECT_EQ(seen.size(), 10000u);
}

// A forked child must not draw the parent's next UUID (file names would clash).
TEST(Uuid, ForkedProcessesDrawDifferentUuids) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string text = RandomUuidString();
    ssize_t n = write(pipe_fds[1], text.data(), text.size());
    _exit(n == 36 ? 0 : 1);
  }
  std::string mine = RandomUuidString();
  char buf[36];
  ASSERT_EQ(read(pipe_fds[0], buf, sizeof(buf)), 36);
  int status = 0;
  waitpid(pid, &status, 0);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  EXPECT_NE(std::string(buf, 36), mine);
}

}  // namespace
}  // namespace floe
