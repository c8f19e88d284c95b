#include "io/local_path.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(LocalPath, FileUrisBecomePaths) {
  EXPECT_EQ(LocalPath("file:///w/t/data/a.parquet").value_or(""), "/w/t/data/a.parquet");
  EXPECT_EQ(LocalPath("file:/w/t").value_or(""), "/w/t");
  EXPECT_EQ(LocalPath("file://localhost/w/t").value_or(""), "/w/t");
  EXPECT_EQ(LocalPath("FILE:///w").value_or(""), "/w");
  EXPECT_EQ(LocalPath("file:///").value_or(""), "/");
}

TEST(LocalPath, PlainPathsStayAsTheyAre) {
  EXPECT_EQ(LocalPath("/w/t").value_or(""), "/w/t");
  EXPECT_EQ(LocalPath("warehouse/t").value_or(""), "warehouse/t");
  EXPECT_EQ(LocalPath("./a").value_or(""), "./a");
  // ':' inside a name (a Hive-style partition value) is not a scheme.
  EXPECT_EQ(LocalPath("ts=2020-01-01T00:00/x").value_or(""), "ts=2020-01-01T00:00/x");
}

TEST(LocalPath, NothingIsUrlDecoded) {
  EXPECT_EQ(LocalPath("file:///d/ts=2020%3A00/f%20g.parquet").value_or(""),
            "/d/ts=2020%3A00/f%20g.parquet");
}

TEST(LocalPath, RefusesWhatIsNotALocalFile) {
  EXPECT_EQ(LocalPath("").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(LocalPath(std::string_view("a\0b", 3)).error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(LocalPath("file://server/share/x").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(LocalPath("file:relative/x").error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(LocalPath("file://").error().kind, ErrorKind::kInvalidArgument);
  auto s3 = LocalPath("s3://bucket/key");
  ASSERT_FALSE(s3);
  EXPECT_EQ(s3.error().kind, ErrorKind::kNotSupported);
  EXPECT_NE(s3.error().message.find("s3"), std::string::npos);
}

TEST(LocalPath, HasUriScheme) {
  EXPECT_TRUE(HasUriScheme("s3://b/k"));
  EXPECT_TRUE(HasUriScheme("file:/a"));
  EXPECT_TRUE(HasUriScheme("gs+x.y-z://b"));
  EXPECT_FALSE(HasUriScheme("/a/b"));
  EXPECT_FALSE(HasUriScheme("a:b"));
  EXPECT_FALSE(HasUriScheme("1s3://b"));
}

TEST(ParentPath, FolderOfAPath) {
  EXPECT_EQ(ParentPath("/a/b"), "/a");
  EXPECT_EQ(ParentPath("/a/b/"), "/a");
  EXPECT_EQ(ParentPath("/a"), "/");
  EXPECT_EQ(ParentPath("/"), "/");
  EXPECT_EQ(ParentPath("a"), ".");
  EXPECT_EQ(ParentPath("a/b"), "a");
}

}  // namespace
}  // namespace floe
