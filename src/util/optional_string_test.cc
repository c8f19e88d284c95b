#include "util/optional_string.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace floe {
namespace {

// OptionalString stands in for std::optional<std::string> in DataFile: every way its users
// read and set it must give what std::optional would, at one pointer's size.
TEST(OptionalString, ReadsAndAssignsLikeStdOptional) {
  static_assert(sizeof(OptionalString) == sizeof(void*));
  OptionalString s;
  EXPECT_FALSE(s.has_value());
  EXPECT_FALSE(s);
  EXPECT_EQ(s.value_or("none"), "none");
  EXPECT_TRUE(s == std::nullopt);
  EXPECT_THROW((void)s.value(), std::bad_optional_access);

  s = std::string(100, 'x');
  ASSERT_TRUE(s);
  const std::string* held = &*s;
  s = "short";  // refilled in place: the same string object
  EXPECT_EQ(&*s, held);
  EXPECT_EQ(*s, "short");
  EXPECT_EQ(s->size(), 5u);
  EXPECT_TRUE(s == OptionalString("short"));
  EXPECT_TRUE(s != OptionalString("other"));
  EXPECT_TRUE(s != OptionalString());

  OptionalString copy = s;
  *copy = "changed";
  EXPECT_EQ(*s, "short");
  OptionalString moved = std::move(copy);
  EXPECT_EQ(moved.value(), "changed");

  s = std::optional<std::string>();  // what a JSON reader hands over for an absent field
  EXPECT_FALSE(s);
  s = std::optional<std::string>("from json");
  EXPECT_EQ(s.ToOptional(), std::optional<std::string>("from json"));
  s = std::nullopt;
  EXPECT_EQ(s.ToOptional(), std::nullopt);
  s = moved;
  EXPECT_EQ(*s, "changed");
  s.reset();
  EXPECT_TRUE(s == OptionalString());
}

}  // namespace
}  // namespace floe
