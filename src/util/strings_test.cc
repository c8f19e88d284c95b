#include "util/strings.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Strings, TrimRemovesAsciiWhitespaceOnBothSides) {
  EXPECT_EQ(Trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(Trim(" \n "), "");
  EXPECT_EQ(Trim(""), "");
  EXPECT_EQ(Trim("\xc3\xa9"), "\xc3\xa9");  // UTF-8 bytes are not whitespace
}

TEST(Strings, AsciiLowerLeavesOtherBytes) {
  EXPECT_EQ(AsciiLower("SeRiAlIzAbLe"), "serializable");
  EXPECT_EQ(AsciiLower("\xc3\x89T\xc3\x89"), "\xc3\x89t\xc3\x89");
}

TEST(Strings, HexInEitherCase) {
  EXPECT_EQ(Hex(std::string("\x00\xab\x1f", 3)), "00ab1f");
  EXPECT_EQ(Hex(std::string("\x00\xab\x1f", 3), HexCase::kUpper), "00AB1F");
  EXPECT_EQ(Hex(""), "");
}

TEST(Strings, TrailingSlashesKeepTheRoot) {
  EXPECT_EQ(TrimTrailingSlashes("/w/t///"), "/w/t");
  EXPECT_EQ(TrimTrailingSlashes("s3://bucket/"), "s3://bucket");
  EXPECT_EQ(TrimTrailingSlashes("///"), "/");
  EXPECT_EQ(TrimTrailingSlashes(""), "");
}

TEST(Strings, JoinPathNeverDoublesASlash) {
  EXPECT_EQ(JoinPath("/w/t/", "metadata"), "/w/t/metadata");
  EXPECT_EQ(JoinPath("/w/t", "metadata"), "/w/t/metadata");
  EXPECT_EQ(JoinPath("/", "data"), "/data");
  EXPECT_EQ(JoinPath("s3://b//", "x.avro"), "s3://b/x.avro");
}

}  // namespace
}  // namespace floe
