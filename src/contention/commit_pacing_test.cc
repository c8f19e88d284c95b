#include "contention/commit_pacing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <vector>

namespace floe {
namespace {

RetryPolicy Policy(int64_t min_wait_ms, int64_t max_wait_ms) {
  RetryPolicy p;
  p.min_wait_ms = min_wait_ms;
  p.max_wait_ms = max_wait_ms;
  return p;
}

// Time that moves only when a test moves it (microseconds).
struct TestClock {
  int64_t us = 1'000'000'000;
  CommitPacer::Now now() {
    return [this] { return us; };
  }
};

// Races lost to threads of the same process: one of them landed while each lost attempt ran.
// The test's clock does not move, so one landing (`Landed`) falls inside every later attempt.

TEST(CommitPacer, WithoutContentionAFirstAttemptStartsAtOnce) {
  CommitPacer pacer(1);
  EXPECT_EQ(pacer.FirstAttemptWaitUs(Policy(100, 60000)), 0);
  pacer.Landed(5000);
  EXPECT_EQ(pacer.FirstAttemptWaitUs(Policy(100, 60000)), 0);
}

TEST(CommitPacer, RetryWaitsHonourMinAndMaxWaitAndAreSpread) {
  const RetryPolicy policy = Policy(100, 400);
  CommitPacer pacer(2);
  std::set<int64_t> distinct;
  for (int i = 0; i < 200; ++i) {
    // Full jitter: anywhere from 0 up to the window, which max-wait-ms bounds.
    const int64_t wait = pacer.LostAttemptWaitUs(policy, 50'000);
    EXPECT_GE(wait, 0);
    EXPECT_LE(wait, 400'000);
    distinct.insert(wait);
  }
  EXPECT_GT(distinct.size(), 100u);  // jittered, so processes do not wake in lock step
}

TEST(CommitPacer, LossesRaiseTheLevelAndLandingsLowerIt) {
  TestClock clock;
  CommitPacer pacer(3, clock.now());
  const RetryPolicy policy = Policy(1, 50);
  for (int i = 0; i < 3; ++i) (void)pacer.LostAttemptWaitUs(policy, 1000);
  EXPECT_EQ(pacer.level(), 3);
  pacer.Landed(1000);
  EXPECT_EQ(pacer.level(), 2);
  pacer.Landed(1000);
  pacer.Landed(1000);
  pacer.Landed(1000);
  EXPECT_EQ(pacer.level(), 0);
  clock.us += 1'100'000;  // more than a second since the last loss: the contention has passed
  EXPECT_EQ(pacer.FirstAttemptWaitUs(policy), 0);
}

TEST(CommitPacer, BetweenThreadsWaitsGrowWithContentionUpToFourAttemptsAndNeverPastMaxWait) {
  auto mean_wait_at = [](int losses, const RetryPolicy& policy) {
    TestClock clock;
    CommitPacer pacer(4, clock.now());
    int64_t sum = 0;
    const int draws = 400;
    pacer.Landed(2000);  // another thread's, inside every attempt below
    for (int i = 0; i < losses - 1; ++i) (void)pacer.LostAttemptWaitUs(policy, 2000);
    for (int i = 0; i < draws; ++i) {
      sum += pacer.LostAttemptWaitUs(policy, 2000);
      pacer.Landed(2000);  // back to `losses - 1`, so the next draw is at `losses` again
    }
    return static_cast<double>(sum) / draws;
  };
  const RetryPolicy roomy = Policy(0, 1000);
  // Level n: span = 2 ms * 2^min(n, 2), mean about half of it.
  const double at1 = mean_wait_at(1, roomy), at2 = mean_wait_at(2, roomy), at12 = mean_wait_at(12, roomy);
  EXPECT_GT(at2, 1.5 * at1);
  EXPECT_LT(at12, 8'000 * 0.6);  // four attempts of 2 ms at most, however many losses: mean 4 ms
  EXPECT_GT(at12, 8'000 * 0.4);
  const RetryPolicy tight = Policy(0, 3);
  EXPECT_LE(mean_wait_at(12, tight), 3'000);  // max-wait-ms still bounds every wait
}

TEST(CommitPacer, AcrossProcessesTheRetryWindowDoesNotGrowWithTheProcesssOwnLosses) {
  // Quick attempts (1 ms), Iceberg's defaults, and races lost to another process (none of
  // this process's attempts landed): however many in a row, a retry waits in [0, min-wait-ms].
  // A window doubling per loss would push this process back behind the one that keeps winning.
  TestClock clock;
  CommitPacer pacer(8, clock.now());
  const RetryPolicy defaults = Policy(100, 60'000);
  pacer.Landed(1000);
  int64_t longest = 0, sum = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    clock.us += 10'000;
    const int64_t wait = pacer.LostAttemptWaitUs(defaults, 1000);
    longest = std::max(longest, wait);
    sum += wait;
  }
  EXPECT_EQ(pacer.level(), 16);  // the level still counts the losses (it widens waits between threads)
  EXPECT_LE(longest, 100'000);
  EXPECT_GT(longest, 90'000);
  EXPECT_NEAR(static_cast<double>(sum) / draws, 50'000, 10'000);
}

TEST(CommitPacer, AfterLosingToAnotherProcessAWinnerWaitsAsTheLosersDo) {
  // Process A lost one race and then won several; process B lost race after race. A's next
  // first attempt and B's next retry wait in the same window, so A's wins give it no head
  // start. A minute without contention later, A starts at once again.
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer a(9, clock.now()), b(10, clock.now());
  (void)a.LostAttemptWaitUs(defaults, 3000);
  for (int i = 0; i < 5; ++i) {
    clock.us += 5000;
    a.Landed(3000);
    (void)b.LostAttemptWaitUs(defaults, 3000);
  }
  EXPECT_EQ(a.level(), 0);
  int64_t a_sum = 0, b_sum = 0, a_longest = 0, b_longest = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    const int64_t a_wait = a.FirstAttemptWaitUs(defaults);
    const int64_t b_wait = b.LostAttemptWaitUs(defaults, 3000);
    a_sum += a_wait;
    b_sum += b_wait;
    a_longest = std::max(a_longest, a_wait);
    b_longest = std::max(b_longest, b_wait);
  }
  EXPECT_LE(a_longest, 100'000);
  EXPECT_LE(b_longest, 100'000);
  EXPECT_NEAR(static_cast<double>(a_sum) / draws, 50'000, 10'000);
  EXPECT_NEAR(static_cast<double>(b_sum) / draws, 50'000, 10'000);
  clock.us += 1'100'000;
  EXPECT_EQ(a.FirstAttemptWaitUs(defaults), 0);
}

TEST(CommitPacer, BetweenThreadsAWinnerKeepsASmallHeadStart) {
  // Races lost only to threads of this process: a first attempt waits at most an eighth of
  // the window (threads share the pacer, so the waits of those it beat are as long).
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer pacer(11, clock.now());
  pacer.Landed(3000);  // another thread's, inside every attempt below
  for (int i = 0; i < 3; ++i) (void)pacer.LostAttemptWaitUs(defaults, 3000);
  int64_t longest = 0;
  for (int i = 0; i < 200; ++i) longest = std::max(longest, pacer.FirstAttemptWaitUs(defaults));
  EXPECT_GT(longest, 0);
  EXPECT_LE(longest, 100'000 / 8);
}

TEST(CommitPacer, WaitsFollowLandedAttemptsNotTheLongerLostOnes) {
  // A lost attempt also parses the winner's document: it runs longer than a landed one. If
  // those durations set the waits, a writer would wait longer the more it lost.
  const RetryPolicy policy = Policy(0, 1000);
  TestClock clock;
  CommitPacer pacer(6, clock.now());
  pacer.Landed(2000);
  int64_t sum = 0;
  const int draws = 400;
  for (int i = 0; i < draws; ++i) {
    sum += pacer.LostAttemptWaitUs(policy, 40'000);
    pacer.Landed(2000);
  }
  EXPECT_LT(static_cast<double>(sum) / draws, 4'000);  // level 1: span 4 ms, mean about 2 ms
}

TEST(CommitPacer, UnderContentionFirstAttemptsWaitTooButNoLongerThanMaxWait) {
  const RetryPolicy policy = Policy(10, 200);
  TestClock clock;
  CommitPacer pacer(5, clock.now());
  for (int i = 0; i < 10; ++i) (void)pacer.LostAttemptWaitUs(policy, 100'000);
  int64_t longest = 0, sum = 0;
  for (int i = 0; i < 200; ++i) {
    const int64_t wait = pacer.FirstAttemptWaitUs(policy);
    EXPECT_GE(wait, 0);
    EXPECT_LE(wait, 200'000);
    longest = std::max(longest, wait);
    sum += wait;
  }
  EXPECT_GT(sum, 0);  // a writer that just won does not simply go first
  EXPECT_GT(longest, 20'000);
}

// Processes that share no memory, each with its own pacer, committing to one table in a
// tight loop as commit_bench's do: an event simulation on a clock of its own (no sleeping).
// An attempt lands if no other landed since it loaded the table. It takes 2-4 ms, and 2 ms
// more when the table it loads is not the one it just landed (parsing another writer's
// document), so a writer that just won starts its next attempt at once and runs the
// shortest attempt in flight, as in the real bench.
struct TightLoops {
  std::vector<int> landed;  // per process
  int most_in_a_row = 0;    // the longest run of one process's commits in the table's order
};

TightLoops SimulateTightLoops(int processes, int64_t simulated_us) {
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  std::mt19937_64 durations(42);
  struct Writer {
    std::unique_ptr<CommitPacer> pacer;
    int64_t next_us = 0;       // when its current wait or attempt ends
    bool attempting = false;
    int64_t loaded = 0;        // the table's version its attempt loaded
    int64_t own = -1;          // the version it last landed
    int64_t attempt_us = 0;
    int landed = 0;
  };
  std::vector<Writer> writers(processes);
  for (int p = 0; p < processes; ++p) writers[p].pacer = std::make_unique<CommitPacer>(100 + p, clock.now());
  const int64_t start = clock.us;
  int64_t version = 0;
  int last_winner = -1, run = 0, most_in_a_row = 0;
  while (clock.us - start < simulated_us) {
    Writer& w = *std::min_element(writers.begin(), writers.end(),
                                  [](const Writer& x, const Writer& y) { return x.next_us < y.next_us; });
    clock.us = std::max(clock.us, w.next_us);
    if (!w.attempting) {
      w.attempting = true;
      w.loaded = version;
      w.pacer->Loaded(version);
      w.attempt_us = std::uniform_int_distribution<int64_t>(2000, 4000)(durations) + (version == w.own ? 0 : 2000);
      w.next_us = clock.us + w.attempt_us;
      continue;
    }
    w.attempting = false;
    if (w.loaded == version) {
      w.own = ++version;
      ++w.landed;
      const int me = static_cast<int>(&w - writers.data());
      run = me == last_winner ? run + 1 : 1;
      last_winner = me;
      most_in_a_row = std::max(most_in_a_row, run);
      w.pacer->Landed(w.attempt_us, version);
      w.next_us = clock.us + w.pacer->FirstAttemptWaitUs(defaults);
    } else {
      w.next_us = clock.us + w.pacer->LostAttemptWaitUs(defaults, w.attempt_us);
    }
  }
  TightLoops result;
  for (const Writer& w : writers) result.landed.push_back(w.landed);
  result.most_in_a_row = most_in_a_row;
  return result;
}

TEST(CommitPacer, ProcessesInTightLoopsShareTheTable) {
  for (int processes : {2, 6, 16, 32}) {
    const TightLoops loops = SimulateTightLoops(processes, 20'000'000);  // 20 simulated seconds
    const double mean =
        static_cast<double>(std::accumulate(loops.landed.begin(), loops.landed.end(), 0)) / processes;
    const int fewest = *std::min_element(loops.landed.begin(), loops.landed.end());
    EXPECT_GT(mean, 20) << processes << " processes";
    if (std::getenv("FLOE_PRINT_SIMULATION"))
      std::printf("%d processes: %.0f commits/s, mean %.0f, fewest %d (%.2f of the mean), most in a row %d\n",
                  processes, mean * processes / 20, mean, fewest, fewest / mean, loops.most_in_a_row);
    // None starves: the unluckiest lands at least half the mean.
    EXPECT_GE(fewest, mean / 2) << processes << " processes, fewest " << fewest << " of mean " << mean;
    // No one captures the table, not even at the start, when the first winner has lost no race
    // and cannot know the others exist: its probes let them in (without probes one process
    // lands thousands in a row and the others next to nothing).
    EXPECT_LE(loops.most_in_a_row, 150) << processes << " processes";
  }
}

// A writer alone, committing back to back, pauses only for its probes: after half a window, then
// at intervals doubling to sixteen windows, each a random part of a window.
TEST(CommitPacer, AWriterAloneProbesRarely) {
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer pacer(7, clock.now());
  int64_t paused_us = 0, version = 0;
  std::vector<int64_t> probes_at, pauses;
  const int64_t start = clock.us;
  while (clock.us - start < 20'000'000) {
    const int64_t wait = pacer.FirstAttemptWaitUs(defaults);
    if (wait > 0) {
      probes_at.push_back(clock.us - start);
      pauses.push_back(wait);
    }
    EXPECT_LE(wait, 100'000);
    paused_us += wait;
    clock.us += wait;
    pacer.Loaded(version);  // only its own commits
    clock.us += 4000;
    pacer.Landed(4000, ++version);
  }
  ASSERT_GE(probes_at.size(), 8u);
  // The run starts at the first landing (4 ms in); the clock moves a commit at a time.
  EXPECT_NEAR(probes_at[0], 4000 + 50'000, 4000);
  // An interval counts the commits between probes, not the pause before them.
  EXPECT_NEAR(probes_at[1] - probes_at[0] - pauses[0], 100'000, 4000);
  const size_t last = probes_at.size() - 1;
  EXPECT_NEAR(probes_at[last] - probes_at[last - 1] - pauses[last - 1], 1'600'000, 4000);
  // 20 s alone: a pause of 50 ms on average about every 1.6 s once the interval has grown.
  EXPECT_LT(paused_us, 20'000'000 / 20) << probes_at.size() << " probes";

  // Commits further apart than a window are no run: never a pause.
  for (int i = 0; i < 20; ++i) {
    clock.us += 150'000;
    EXPECT_EQ(pacer.FirstAttemptWaitUs(defaults), 0);
    pacer.Loaded(version);
    clock.us += 4000;
    pacer.Landed(4000, ++version);
  }
}

// Through a REST server (probe_runs false) a run never pauses: the server orders the commits.
TEST(CommitPacer, WithoutProbesARunNeverPauses) {
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer pacer(17, clock.now());
  for (int64_t version = 0; version < 2000; ++version) {
    ASSERT_EQ(pacer.FirstAttemptWaitUs(defaults, /*probe_runs=*/false), 0) << "commit " << version;
    clock.us += 4000;
    pacer.Landed(4000, version + 1);
  }
}

// Waits drawn before 20 first attempts on `pacer`: all 0 for a writer that starts at once.
std::set<int64_t> FirstAttemptWaits(CommitPacer& pacer, const RetryPolicy& policy) {
  std::set<int64_t> waits;
  for (int i = 0; i < 20; ++i) waits.insert(pacer.FirstAttemptWaitUs(policy));
  return waits;
}

// Commits back to back (4 ms attempts whose loads find only this writer's commits, the last
// at `version`) until a first attempt pauses for a probe; returns that pause, 0 if none came
// within 4 s.
int64_t CommitUntilProbe(CommitPacer& pacer, TestClock& clock, const RetryPolicy& policy, int64_t& version) {
  for (int i = 0; i < 1000; ++i) {
    if (const int64_t wait = pacer.FirstAttemptWaitUs(policy); wait > 0) return wait;
    pacer.Loaded(version);
    clock.us += 4000;
    pacer.Landed(4000, ++version);
  }
  return 0;
}

// A load that finds another process's commit while this one commits in a run counts as a race
// lost to it: the next first attempts wait in the window, as after a lost race. A probe's
// pause is how a writer that wins every race comes to find one.
TEST(CommitPacer, ALoadThatFindsAnotherProcesssCommitInARunCountsAsALostRace) {
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer pacer(9, clock.now());
  int64_t version = 0;
  int64_t wait = CommitUntilProbe(pacer, clock, defaults, version);
  ASSERT_GT(wait, 0) << "no probe in 4 s of back-to-back commits";
  clock.us += wait;
  pacer.Loaded(version + 1);  // another process landed during the pause
  clock.us += 4000;
  pacer.Landed(4000, version + 2);
  std::set<int64_t> waits = FirstAttemptWaits(pacer, defaults);
  EXPECT_GT(waits.size(), 10u);  // drawn from the window, not 0
  EXPECT_LE(*waits.rbegin(), 100'000);

  // The same run finding only this process's own commits goes on at once after its probe.
  CommitPacer alone(9, clock.now());
  version = 0;
  wait = CommitUntilProbe(alone, clock, defaults, version);
  ASSERT_GT(wait, 0);
  clock.us += wait;
  alone.Loaded(version);
  clock.us += 4000;
  alone.Landed(4000, ++version);
  EXPECT_EQ(alone.FirstAttemptWaitUs(defaults), 0);

  // In a run without a probe: one landed 10 ms ago, then its load finds a commit of another.
  CommitPacer between(11, clock.now());
  between.Loaded(0);
  between.Landed(4000, 1);
  clock.us += 10'000;
  between.Loaded(2);
  waits = FirstAttemptWaits(between, defaults);
  EXPECT_GT(waits.size(), 10u);
}

// A process's first load of a table finds other processes' old commits: no sign of a race,
// so a fresh `floe append` starts at once; nor does one that last landed long ago.
TEST(CommitPacer, OldCommitsOfOthersAreNoSignOfARace) {
  const RetryPolicy defaults = Policy(100, 60'000);
  TestClock clock;
  CommitPacer fresh(13, clock.now());
  fresh.Loaded(500);
  EXPECT_EQ(fresh.FirstAttemptWaitUs(defaults), 0);

  CommitPacer idle(15, clock.now());
  idle.Loaded(10);
  idle.Landed(4000, 11);
  clock.us += 5'000'000;
  idle.Loaded(40);
  EXPECT_EQ(idle.FirstAttemptWaitUs(defaults), 0);
}

}  // namespace
}  // namespace floe
