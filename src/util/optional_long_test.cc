#include "util/optional_long.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <sstream>

namespace floe {
namespace {

// OptionalLong stands in for std::optional<int64_t> in DataFile (first_row_id, content_offset,
// content_size_in_bytes): its users must read and set it as they did the optional, at 8 bytes.
TEST(OptionalLong, ReadsAndAssignsLikeStdOptional) {
  static_assert(sizeof(OptionalLong) == sizeof(int64_t));
  OptionalLong v;
  EXPECT_FALSE(v.has_value());
  EXPECT_FALSE(v);
  EXPECT_EQ(v.value_or(-1), -1);
  EXPECT_TRUE(v == std::nullopt);
  EXPECT_THROW((void)v.value(), std::bad_optional_access);

  v = 0;  // zero is a value, not absence
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, 0);
  v = -5;  // negatives are held too: readers report them with the file's context
  EXPECT_EQ(v.value(), -5);
  v = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(*v, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(v == std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(v == std::nullopt);

  std::optional<int64_t> as_optional = v;  // converts for code written for the optional
  EXPECT_EQ(as_optional, std::numeric_limits<int64_t>::max());
  v = std::optional<int64_t>();
  EXPECT_FALSE(v);
  v = std::optional<int64_t>(7);
  EXPECT_EQ(v, OptionalLong(7));
  EXPECT_TRUE(v == std::optional<int64_t>(7));
  EXPECT_TRUE(v != OptionalLong());
  v.reset();
  EXPECT_EQ(v, OptionalLong(std::nullopt));
  EXPECT_EQ(v.emplace(3), 3);

  std::ostringstream out;
  out << OptionalLong(42) << " " << OptionalLong();
  EXPECT_EQ(out.str(), "42 (none)");
}

// INT64_MIN marks absence, so it cannot be stored: setting it fails loudly instead of reading
// back as absent (manifest decoding turns this into a Corrupt error naming the field).
TEST(OptionalLong, RefusesTheValueThatMarksAbsence) {
  const int64_t min = std::numeric_limits<int64_t>::min();
  OptionalLong v = 1;
  EXPECT_THROW(v = min, std::invalid_argument);
  EXPECT_EQ(v, 1) << "a refused value leaves the old one";
  EXPECT_THROW(OptionalLong{min}, std::invalid_argument);
  EXPECT_THROW(v = std::optional<int64_t>(min), std::invalid_argument);
  EXPECT_THROW(v.emplace(min), std::invalid_argument);
  EXPECT_EQ(std::numeric_limits<int64_t>::min() + 1, *OptionalLong(min + 1));
}

}  // namespace
}  // namespace floe
