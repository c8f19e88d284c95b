// TaskLanes: each lane's tasks in submission order and never two at once, whatever the
// threads' timing; lanes at the same time; the queued cost bounded; the first failure stops
// everything; no thread at all when asked for none.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "write/task_lanes.h"

namespace floe {
namespace {

// A one-shot gate tasks can wait on.
class Gate {
 public:
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void Pass() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return open_; });
  }
  // Waits at most `limit` (a guard against a hang, not a timing assertion).
  bool PassWithin(std::chrono::seconds limit) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, limit, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

TEST(TaskLanes, EachLaneRunsItsTasksInOrderOneAtATime) {
  constexpr int kLanes = 5, kTasks = 300;
  TaskLanes lanes(3, 1 << 30);
  std::vector<size_t> ids;
  for (int l = 0; l < kLanes; ++l) ids.push_back(lanes.AddLane());
  std::vector<std::vector<int>> seen(kLanes);
  std::vector<std::atomic<int>> running(kLanes);
  std::atomic<int> overlaps{0};
  std::mt19937 random(7);
  for (int t = 0; t < kTasks; ++t) {
    for (int l = 0; l < kLanes; ++l) {
      const int spin = static_cast<int>(random() % 2000);  // uneven tasks shuffle the threads' timing
      ASSERT_TRUE(lanes.Submit(ids[l], 1, [&, l, t, spin] {
        if (running[l].fetch_add(1) != 0) ++overlaps;
        volatile int sink = 0;
        for (int i = 0; i < spin; ++i) sink = sink + i;
        if (spin % 7 == 0) std::this_thread::yield();
        seen[l].push_back(t);
        running[l].fetch_sub(1);
        return Ok();
      }).has_value());
    }
  }
  ASSERT_TRUE(lanes.Wait().has_value());
  EXPECT_EQ(overlaps.load(), 0);
  for (int l = 0; l < kLanes; ++l) {
    ASSERT_EQ(seen[l].size(), static_cast<size_t>(kTasks)) << "lane " << l;
    for (int t = 0; t < kTasks; ++t) ASSERT_EQ(seen[l][t], t) << "lane " << l;
  }
}

TEST(TaskLanes, LanesRunAtTheSameTime) {
  // Lane a's task can finish only once lane b's has run: with the lanes run one after the
  // other this would hang (the guard gives up after a minute).
  TaskLanes lanes(2, 1 << 30);
  const size_t a = lanes.AddLane(), b = lanes.AddLane();
  Gate b_ran;
  std::atomic<bool> a_saw_b{false};
  ASSERT_TRUE(lanes.Submit(a, 1, [&] {
    a_saw_b = b_ran.PassWithin(std::chrono::seconds(60));
    return Ok();
  }).has_value());
  ASSERT_TRUE(lanes.Submit(b, 1, [&] {
    b_ran.Open();
    return Ok();
  }).has_value());
  ASSERT_TRUE(lanes.Wait().has_value());
  EXPECT_TRUE(a_saw_b.load());
}

TEST(TaskLanes, SubmitWaitsWhileTheQueuedCostIsAtTheBound) {
  constexpr size_t kMax = 10, kCost = 4;
  TaskLanes lanes(1, kMax);
  const size_t lane = lanes.AddLane();
  std::atomic<size_t> finished{0};
  std::atomic<int> submitting{0};
  Gate first;
  // The first task waits until the submitter is inside its fourth Submit, which must wait
  // for room (12 queued >= 10) until the first task is done.
  std::thread opener([&] {
    while (submitting.load() < 4) std::this_thread::yield();
    first.Open();
  });
  size_t submitted = 0, most = 0;
  for (int t = 0; t < 40; ++t) {
    submitting = t + 1;
    ASSERT_TRUE(lanes.Submit(lane, kCost, [&, t] {
      if (t == 0) first.Pass();
      finished += kCost;
      return Ok();
    }).has_value());
    submitted += kCost;
    most = std::max(most, submitted - finished.load());
  }
  ASSERT_TRUE(lanes.Wait().has_value());
  opener.join();
  // Never more than the bound plus one task outstanding.
  EXPECT_LE(most, kMax - 1 + kCost);
  EXPECT_EQ(finished.load(), submitted);
}

TEST(TaskLanes, TheFirstFailureDropsWhatIsQueuedAndIsReturnedFromThenOn) {
  TaskLanes lanes(2, 1 << 30);
  const size_t lane = lanes.AddLane();
  Gate go;
  std::atomic<int> ran_after{0};
  ASSERT_TRUE(lanes.Submit(lane, 1, [&]() -> Status {
    go.Pass();
    return IOError("disk full on partition DE");
  }).has_value());
  for (int t = 0; t < 5; ++t) {
    // Queued behind the failing task of the same lane: it cannot have started.
    ASSERT_TRUE(lanes.Submit(lane, 1, [&] {
      ++ran_after;
      return Ok();
    }).has_value());
  }
  go.Open();
  Status waited = lanes.Wait();
  ASSERT_FALSE(waited.has_value());
  EXPECT_EQ(waited.error().kind, ErrorKind::kIOError);
  EXPECT_EQ(waited.error().message, "disk full on partition DE");
  EXPECT_EQ(ran_after.load(), 0);
  bool ran = false;
  Status later = lanes.Submit(lanes.AddLane(), 1, [&] {
    ran = true;
    return Ok();
  });
  ASSERT_FALSE(later.has_value());
  EXPECT_EQ(later.error().message, "disk full on partition DE");
  EXPECT_FALSE(ran);
}

TEST(TaskLanes, WithNoThreadsTasksRunOnTheCaller) {
  TaskLanes lanes(0, 1);
  const size_t a = lanes.AddLane(), b = lanes.AddLane();
  std::vector<std::thread::id> where;
  std::vector<int> order;
  for (int t = 0; t < 4; ++t) {
    ASSERT_TRUE(lanes.Submit(t % 2 ? a : b, 100, [&, t] {
      where.push_back(std::this_thread::get_id());
      order.push_back(t);
      return Ok();
    }).has_value());
    EXPECT_EQ(order.size(), static_cast<size_t>(t + 1));  // already ran
  }
  for (const auto& id : where) EXPECT_EQ(id, std::this_thread::get_id());
  Status failed = lanes.Submit(a, 1, [] { return InvalidArgument("bad row"); });
  ASSERT_FALSE(failed.has_value());
  EXPECT_FALSE(lanes.Submit(b, 1, [&] {
    order.push_back(99);
    return Ok();
  }).has_value());
  EXPECT_EQ(order.size(), 4u);
  EXPECT_FALSE(lanes.Wait().has_value());
}

TEST(TaskLanes, AfterStopNothingRuns) {
  TaskLanes lanes(2, 1 << 30);
  const size_t lane = lanes.AddLane();
  std::atomic<int> ran{0};
  for (int t = 0; t < 50; ++t) ASSERT_TRUE(lanes.Submit(lane, 1, [&] {
    ++ran;
    return Ok();
  }).has_value());
  lanes.Stop();
  const int at_stop = ran.load();  // the tasks that had started finished; the rest are dropped
  EXPECT_FALSE(lanes.Submit(lane, 1, [&] {
    ++ran;
    return Ok();
  }).has_value());
  EXPECT_FALSE(lanes.Wait().has_value());
  EXPECT_EQ(ran.load(), at_stop);
}

}  // namespace
}  // namespace floe
