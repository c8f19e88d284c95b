#include "scan/ordered_streams.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace floe {
namespace {

// A part that counts how many of its kind exist, to check what OrderedStreams holds at once.
struct Counted {
  Counted(int item, int index, std::atomic<int>* alive, std::atomic<int>* peak) : item(item), index(index), alive(alive) {
    int now = ++*alive;
    int seen = peak->load();
    while (now > seen && !peak->compare_exchange_weak(seen, now)) {
    }
  }
  Counted(Counted&& other) noexcept : item(other.item), index(other.index), alive(std::exchange(other.alive, nullptr)) {}
  Counted& operator=(Counted&& other) noexcept {
    if (alive) --*alive;
    item = other.item;
    index = other.index;
    alive = std::exchange(other.alive, nullptr);
    return *this;
  }
  ~Counted() {
    if (alive) --*alive;
  }
  int item, index;
  std::atomic<int>* alive;
};

// Item i makes (i * 7) % 5 parts, slower for low items so that later items finish first.
TEST(OrderedStreams, PartsArriveInItemThenEmitOrderAtAnyWorkerCount) {
  const size_t n = 12;
  std::vector<std::pair<int, int>> want;
  for (size_t i = 0; i < n; ++i)
    for (int k = 0; k < static_cast<int>(i * 7 % 5); ++k) want.emplace_back(static_cast<int>(i), k);
  for (int workers : {1, 2, 3, 8}) {
    for (size_t depth : {1, 3}) {
      std::atomic<int> alive{0}, peak{0};
      std::vector<std::pair<int, int>> got;
      auto st = OrderedStreams<Counted>(
          n, {.workers = workers, .window = static_cast<size_t>(workers), .depth = depth},
          [&](size_t i, const PartSink<Counted>& emit) -> Status {
            for (int k = 0; k < static_cast<int>(i * 7 % 5); ++k) {
              std::this_thread::sleep_for(std::chrono::microseconds(200 * (n - i)));
              if (!emit(Counted(static_cast<int>(i), k, &alive, &peak))) return Ok();
            }
            return Ok();
          },
          [&](size_t i, Counted&& part) -> Result<bool> {
            EXPECT_EQ(static_cast<int>(i), part.item);
            got.emplace_back(part.item, part.index);
            return true;
          });
      ASSERT_TRUE(st) << st.error().ToString();
      EXPECT_EQ(got, want) << workers << " workers, depth " << depth;
      EXPECT_EQ(alive.load(), 0);
      // window x depth queued, one being handed on by each producer, one with the consumer.
      EXPECT_LE(peak.load(), static_cast<int>(workers * depth) + workers + 1) << workers << " workers, depth " << depth;
    }
  }
}

TEST(OrderedStreams, MemoryIsBoundedByTheWindowNotByTheItemsSize) {
  std::atomic<int> alive{0}, peak{0};
  int consumed = 0;
  auto st = OrderedStreams<Counted>(
      4, {.workers = 2, .window = 2, .depth = 2},
      [&](size_t i, const PartSink<Counted>& emit) -> Status {
        for (int k = 0; k < 500; ++k)
          if (!emit(Counted(static_cast<int>(i), k, &alive, &peak))) return Ok();
        return Ok();
      },
      [&](size_t, Counted&&) -> Result<bool> {
        if (++consumed % 50 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // a slow writer
        return true;
      });
  ASSERT_TRUE(st) << st.error().ToString();
  EXPECT_EQ(consumed, 2000);
  EXPECT_LE(peak.load(), 2 * 2 + 2 + 1);
}

TEST(OrderedStreams, TheLowestFailingItemsErrorComesAfterItsEarlierParts) {
  for (int workers : {1, 2, 4}) {
    std::vector<std::pair<size_t, int>> got;
    auto st = OrderedStreams<int>(
        8, {.workers = workers, .window = 4, .depth = 1},
        [&](size_t i, const PartSink<int>& emit) -> Status {
          for (int k = 0; k < 3; ++k) {
            if ((i == 3 || i == 5) && k == 2) return Corrupt("item " + std::to_string(i));
            if (!emit(int{k})) return Ok();
          }
          return Ok();
        },
        [&](size_t i, int&& k) -> Result<bool> {
          got.emplace_back(i, k);
          return true;
        });
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().message, "item 3") << workers << " workers";
    std::vector<std::pair<size_t, int>> want;
    for (size_t i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) want.emplace_back(i, k);
    want.emplace_back(3, 0);
    want.emplace_back(3, 1);
    EXPECT_EQ(got, want) << workers << " workers";
  }
}

TEST(OrderedStreams, AConsumerThatStopsStopsTheProducers) {
  for (int workers : {1, 2, 4}) {
    std::atomic<int> refused{0};
    int consumed = 0;
    auto st = OrderedStreams<int>(
        100, {.workers = workers, .window = 4, .depth = 2},
        [&](size_t, const PartSink<int>& emit) -> Status {
          for (int k = 0; k < 1000; ++k)
            if (!emit(int{k})) {
              ++refused;
              return Ok();
            }
          return Ok();
        },
        [&](size_t, int&&) -> Result<bool> { return ++consumed < 10; });
    ASSERT_TRUE(st) << st.error().ToString();
    EXPECT_EQ(consumed, 10) << workers << " workers";
    EXPECT_GE(refused.load(), 1) << "the producer of item 0 was told to stop";
    auto failed = OrderedStreams<int>(
        100, {.workers = workers, .window = 4, .depth = 2},
        [&](size_t, const PartSink<int>& emit) -> Status {
          for (int k = 0; k < 1000; ++k)
            if (!emit(int{k})) return Ok();
          return Ok();
        },
        [&](size_t i, int&&) -> Result<bool> {
          if (i == 1) return IOError("disk full");
          return true;
        });
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().message, "disk full");
  }
}

}  // namespace
}  // namespace floe
