#include "util/utf8.h"

#include <gtest/gtest.h>

namespace floe {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));  // é € 😀
}

TEST(Utf8, RefusesIllFormedSequences) {
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xe0\x80\xaf"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("ok\x80"));            // stray continuation byte
}

TEST(Utf8, EscapesOnlyTheBadBytes) {
  EXPECT_EQ(EscapeInvalidUtf8("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(EscapeInvalidUtf8("a\xff" "b\xc3"), "a\\xffb\\xc3");
  // A backslash in text that needed escaping is doubled, so "\x41" in the input stays distinguishable.
  EXPECT_EQ(EscapeInvalidUtf8("\\x41\xfe"), "\\\\x41\\xfe");
  EXPECT_EQ(EscapeInvalidUtf8("\\x41"), "\\x41");  // valid text is returned as it is
}

}  // namespace
}  // namespace floe
