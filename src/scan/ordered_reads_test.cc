// The ordered bounded pool: results in index order whatever order the reads finish in, at most
// `window` items in flight, the first error stops it with no thread left reading.
#include "scan/ordered_reads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>

namespace floe {
namespace {

// Later items finish first: item i sleeps longer the smaller i is within its window.
void Stagger(size_t i) { std::this_thread::sleep_for(std::chrono::microseconds(200 * (8 - i % 8))); }

TEST(OrderedReads, ConsumesInIndexOrderWhateverOrderReadsFinish) {
  const size_t n = 40;
  std::vector<size_t> seen;
  std::vector<std::thread::id> consumer_threads;
  auto st = OrderedReads<std::string>(
      n, {.workers = 6, .window = 6},
      [&](size_t i) -> Result<std::string> {
        Stagger(i);
        return "item " + std::to_string(i);
      },
      [&](size_t i, std::string&& item) -> Result<bool> {
        EXPECT_EQ(item, "item " + std::to_string(i));
        seen.push_back(i);
        consumer_threads.push_back(std::this_thread::get_id());
        return true;
      });
  ASSERT_TRUE(st) << st.error().ToString();
  ASSERT_EQ(seen.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], i);
  for (auto id : consumer_threads) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST(OrderedReads, AtMostWindowItemsInFlight) {
  std::atomic<int> in_flight{0}, most{0};
  auto st = OrderedReads<int>(
      60, {.workers = 4, .window = 5},
      [&](size_t i) -> Result<int> {
        int now = ++in_flight;  // started and not yet handed to the consumer
        for (int m = most; now > m && !most.compare_exchange_weak(m, now);) {
        }
        Stagger(i);
        return static_cast<int>(i);
      },
      [&](size_t, int&&) -> Result<bool> {
        // A slow consumer: readers run ahead until the window is full.
        --in_flight;
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        return true;
      });
  ASSERT_TRUE(st) << st.error().ToString();
  // The window, plus one that may start while the consumer is taking its item.
  EXPECT_LE(most.load(), 5 + 1);
  EXPECT_GE(most.load(), 2);  // it did read ahead
  EXPECT_EQ(in_flight.load(), 0);
}

TEST(OrderedReads, FirstErrorInIndexOrderStopsTheReads) {
  std::atomic<int> running{0}, started{0};
  std::vector<size_t> consumed;
  auto st = OrderedReads<int>(
      1000, {.workers = 4, .window = 4},
      [&](size_t i) -> Result<int> {
        ++running;
        ++started;
        // Item 9 fails late, item 11 fails at once: item 9's error is the one returned.
        if (i == 9) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        --running;
        if (i == 9 || i == 11) return Corrupt("data file f" + std::to_string(i) + ".parquet is bad");
        return static_cast<int>(i);
      },
      [&](size_t i, int&&) -> Result<bool> {
        consumed.push_back(i);
        return true;
      });
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().kind, ErrorKind::kCorrupt);
  EXPECT_NE(st.error().message.find("f9.parquet"), std::string::npos) << st.error().message;
  EXPECT_EQ(consumed, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(running.load(), 0);  // every reader has ended
  EXPECT_LE(started.load(), 9 + 4);  // nothing started past the window after the failure
  int after = started.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(started.load(), after);
}

TEST(OrderedReads, ConsumerErrorOrStopEndsTheReads) {
  for (bool fail : {true, false}) {
    std::atomic<int> started{0};
    auto st = OrderedReads<int>(
        500, {.workers = 3, .window = 3},
        [&](size_t i) -> Result<int> {
          ++started;
          return static_cast<int>(i);
        },
        [&](size_t i, int&&) -> Result<bool> {
          if (i < 4) return true;
          if (fail) return IOError("cannot write the output");
          return false;
        });
    EXPECT_EQ(static_cast<bool>(st), !fail);
    if (fail) {
      EXPECT_EQ(st.error().message, "cannot write the output");
    }
    EXPECT_LE(started.load(), 5 + 3);
  }
}

TEST(OrderedReads, OneWorkerReadsOnTheCallingThreadAndEmptyInputDoesNothing) {
  std::vector<std::thread::id> readers;
  auto st = OrderedReads<int>(
      3, {.workers = 1},
      [&](size_t i) -> Result<int> {
        readers.push_back(std::this_thread::get_id());
        return static_cast<int>(i);
      },
      [&](size_t, int&&) -> Result<bool> { return true; });
  ASSERT_TRUE(st);
  ASSERT_EQ(readers.size(), 3u);
  for (auto id : readers) EXPECT_EQ(id, std::this_thread::get_id());
  bool called = false;
  auto none = OrderedReads<int>(
      0, {.workers = 8, .window = 8}, [&](size_t) -> Result<int> { called = true; return 0; },
      [&](size_t, int&&) -> Result<bool> { called = true; return true; });
  EXPECT_TRUE(none);
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace floe
