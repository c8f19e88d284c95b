#include "util/small_list.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace floe {
namespace {

// SmallList stands in for std::vector<int64_t> in DataFile::split_offsets: one value lives in
// the list itself, more go to one heap block; reading, copying and moving keep every value.
TEST(SmallList, HoldsOneValueInlineAndMoreOnTheHeap) {
  static_assert(sizeof(SmallList<int64_t>) == 16);
  SmallList<int64_t> list;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.begin(), list.end());
  list.push_back(4);
  EXPECT_EQ(list.size(), 1u);
  EXPECT_EQ(list.capacity(), 1u) << "one value needs no heap block";
  EXPECT_EQ(list[0], 4);
  for (int64_t v = 5; v < 40; ++v) list.push_back(v);
  ASSERT_EQ(list.size(), 36u);
  for (size_t i = 0; i < list.size(); ++i) EXPECT_EQ(list[i], static_cast<int64_t>(4 + i));
  EXPECT_EQ(list.back(), 39);
  std::vector<int64_t> expected(36);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int64_t>(4 + i);
  EXPECT_EQ(list.ToVector(), expected);
  EXPECT_TRUE(list == expected);

  SmallList<int64_t> copy = list;
  copy[0] = 100;
  EXPECT_EQ(list[0], 4) << "a copy owns its values";
  SmallList<int64_t> moved = std::move(copy);
  EXPECT_EQ(moved[0], 100);
  EXPECT_EQ(moved.size(), 36u);
  EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract

  size_t capacity = moved.capacity();
  moved.clear();
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.capacity(), capacity) << "clear keeps the block, so refilling allocates nothing";
  moved = {1, 2};
  EXPECT_EQ(moved, (SmallList<int64_t>{1, 2}));
  EXPECT_FALSE(moved == (SmallList<int64_t>{1, 2, 3}));

  SmallList<int64_t> one{9};
  SmallList<int64_t> inline_moved = std::move(one);
  EXPECT_EQ(inline_moved.ToVector(), std::vector<int64_t>{9});
  inline_moved = list;  // from inline to heap
  EXPECT_EQ(inline_moved, list);
  inline_moved = std::vector<int64_t>{};
  EXPECT_TRUE(inline_moved.empty());
  SmallList<int> ints = std::vector<int>{1, 2, 3};
  EXPECT_EQ(ints.ToVector(), (std::vector<int>{1, 2, 3}));
}

}  // namespace
}  // namespace floe
