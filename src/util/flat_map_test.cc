#include "util/flat_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

namespace floe {
namespace {

// FlatMap must behave as std::map for every operation its users make: the same sequence of
// random inserts, lookups, overwrites, erasures and clears applied to both leaves the same
// contents in the same order.
TEST(FlatMap, MatchesStdMapUnderRandomOperations) {
  std::mt19937 rng(24);
  for (int round = 0; round < 200; ++round) {
    FlatMap<int, std::string> flat;
    std::map<int, std::string> model;
    for (int op = 0; op < 60; ++op) {
      int key = static_cast<int>(rng() % 16) - 4;
      std::string value(rng() % 20, static_cast<char>('a' + rng() % 26));
      switch (rng() % 7) {
        case 0: {  // emplace keeps an existing value, as std::map's does
          auto [it, added] = flat.emplace(key, value);
          auto [mit, madded] = model.emplace(key, value);
          ASSERT_EQ(added, madded);
          ASSERT_EQ(it->second, mit->second);
          break;
        }
        case 1: flat[key] = value, model[key] = value; break;
        case 2: ASSERT_EQ(flat.erase(key), model.erase(key)); break;
        case 3: flat.emplace_hint(flat.end(), key, value), model.emplace_hint(model.end(), key, value); break;
        case 4:
          ASSERT_EQ(flat.count(key), model.count(key));
          ASSERT_EQ(flat.contains(key), model.contains(key));
          if (model.contains(key)) {
            ASSERT_EQ(flat.at(key), model.at(key));
          }
          break;
        case 5: ASSERT_EQ(flat.find(key) == flat.end(), model.find(key) == model.end()); break;
        default:
          if (rng() % 8 == 0) flat.clear(), model.clear();
          break;
      }
      ASSERT_EQ(flat.size(), model.size());
      ASSERT_TRUE(std::equal(flat.begin(), flat.end(), model.begin(), model.end(),
                             [](const auto& a, const auto& b) { return a.first == b.first && a.second == b.second; }));
    }
    ASSERT_TRUE((FlatMap<int, std::string>::From(model) == flat));
  }
}

TEST(FlatMap, InitializerListSortsAndKeepsTheFirstOfARepeatedKey) {
  FlatMap<int, int64_t> m = {{3, 30}, {1, 10}, {3, 31}, {2, 20}};
  std::vector<std::pair<int, int64_t>> items(m.begin(), m.end());
  EXPECT_EQ(items, (std::vector<std::pair<int, int64_t>>{{1, 10}, {2, 20}, {3, 30}}));
  EXPECT_THROW(m.at(4), std::out_of_range);
}

TEST(FlatMap, ClearKeepsTheCapacitySoARefillDoesNotAllocate) {
  FlatMap<int, int64_t> m;
  for (int i = 0; i < 8; ++i) m.emplace_hint(m.end(), i, i);
  const auto* first = &*m.begin();
  m.clear();
  EXPECT_TRUE(m.empty());
  for (int i = 0; i < 8; ++i) m.emplace_hint(m.end(), i, i * 2);
  EXPECT_EQ(&*m.begin(), first);
  EXPECT_EQ(m.at(7), 14);
}

// A decoder appends keys in whatever order the file holds them; RestoreOrder must then leave
// what emplacing them one by one would: ascending keys, the first value of a repeated key.
TEST(FlatMap, AppendUnorderedThenRestoreOrderMatchesEmplacingOneByOne) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    FlatMap<int, std::string> appended;
    std::map<int, std::string> model;
    const int n = static_cast<int>(rng() % 40);
    const bool descending = round % 4 == 0;  // the order a hostile writer would pick
    for (int i = 0; i < n; ++i) {
      int key = descending ? n - i : static_cast<int>(rng() % 24);
      std::string value = std::to_string(i);
      appended.AppendUnordered(key, value);
      model.emplace(key, value);
    }
    appended.RestoreOrder();
    ASSERT_TRUE((FlatMap<int, std::string>::From(model) == appended)) << "round " << round;
  }
}

// A map is one pointer in its owner (a planned data file holds six), and copies and moves
// leave two independent maps: a copy owns its own strings, a moved-from map is empty and usable.
TEST(FlatMap, IsOnePointerAndCopiesAndMovesLikeAValue) {
  static_assert(sizeof(FlatMap<int, std::string>) == sizeof(void*));
  static_assert(sizeof(FlatMap<int, int64_t>) == sizeof(void*));
  FlatMap<int, std::string> a{{3, std::string(40, 'c')}, {1, "one"}, {2, std::string(100, 'b')}};
  FlatMap<int, std::string> copy = a;
  copy[1] = "changed";
  EXPECT_EQ(a.at(1), "one");
  EXPECT_EQ(copy.at(3), std::string(40, 'c'));
  FlatMap<int, std::string> moved = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from map must stay usable
  a.emplace(5, "five");
  EXPECT_EQ(a.size(), 1u);
  EXPECT_EQ(moved.size(), 3u);
  moved = copy;  // copy-assign over a map that holds pairs
  EXPECT_TRUE(moved == copy);
  copy = std::move(a);
  EXPECT_EQ(copy.at(5), "five");
  FlatMap<int, std::string> empty;
  moved = empty;
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.find(1), moved.end());
  EXPECT_EQ(moved.erase(1), 0u);
}

}  // namespace
}  // namespace floe
