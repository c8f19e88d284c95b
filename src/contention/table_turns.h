// Threads of one process that commit to one table through separate Catalog objects take turns,
// so that they do not lose races to each other.
//
// Without turns such threads race as separate processes would: each loads the table, builds
// its attempt and swaps; all but one of the attempts that overlap lose, and on an object store
// each lost attempt costs about eight requests (bench/RESULTS.md, "8 writers on one table on
// S3"). The commit engine (commit_engine.h) therefore holds a turn on the table for every
// attempt, from its (re)load to the swap's answer; its waits between attempts and its own work
// before the first one (writing manifests) hold none, so those still overlap.
//
// Who may overlap. A turn belongs to a party: the attempts of one party may run together,
// those of different parties one party at a time. The appends that threads commit through one
// Catalog object are one party, because the group commit (group_commit.h) needs them to
// overlap: they queue behind the one in flight and share its swap. Every other commit is a
// party of its own.
//
// The queue. An attempt whose table is idle, or held by its own party while nobody waits,
// starts at once (one writer pays a lock and nothing else). Otherwise it waits in arrival
// order; when the front waiter's turn begins, every waiter of its party goes with it (so a
// party's queued appends still share one swap, and parties alternate). Turns are keyed by the table's identity (its uuid), not the catalog object, so two
// catalog objects of one warehouse share them; two different tables that share a uuid (one
// registered twice) only take turns needlessly.
//
// Bounded, never a deadlock. A turn lasts as long as its attempts, but a waiter at the front
// waits at most a turn limit for them: TurnLimits::turn_attempts times the mean of recent
// turns that landed, at least min_turn_us and at most max_turn_us. Past it the waiter takes
// the turn anyway and the late attempts run beside it (racing, as without turns; their end no
// longer counts for the turn). A waiter that has waited wait_turns turn limits in all goes
// without a turn. A thread that holds a turn on a table (a test hook committing from inside an
// attempt, a nested commit) gets its next turn on that table at once. A commit of several
// tables takes their turns in the order of their keys.
//
// TurnQueue is the queue itself, with the caller's clock and no blocking (the tests drive it);
// TableTurns wraps it for threads: it blocks. The process keeps one per table (contention_scheduler.h).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "meta/table_metadata.h"

namespace floe {

struct TurnLimits {
  int64_t min_turn_us = 1'000'000;
  int64_t max_turn_us = 30'000'000;
  int turn_attempts = 4;  // a turn limit is this many mean landed turns
  int wait_turns = 8;     // a waiter goes without a turn after this many turn limits
};

class TurnQueue {
 public:
  using Party = const void*;

  // A waiter's leave to start its attempt.
  struct Grant {
    uint64_t turn = 0;     // 0: none (the waiter waited too long and goes beside the turns)
    int64_t start_us = 0;  // when it was granted
  };

  explicit TurnQueue(TurnLimits limits = {}) : limits_(limits) {}

  // Queues an attempt of `party` at `now`; the id names it to TryAdmit.
  uint64_t Enter(Party party, int64_t now);
  // Whether waiter `id` may start at `now`; if so it is out of the queue and holds the grant.
  std::optional<Grant> TryAdmit(uint64_t id, int64_t now);
  // The latest time until which TryAdmit(id, ...) keeps saying no unless a turn ends.
  int64_t WaitUntil(uint64_t id) const;
  // The attempt granted `grant` has ended; `landed_location`: its swap took effect and left
  // the table at that metadata document (empty: it did not land).
  void Leave(const Grant& grant, int64_t now, const std::string& landed_location);

  // The time of the last attempt that landed (-1: none yet): a base loaded before it is stale.
  int64_t last_landed_us() const { return last_landed_us_; }
  // The metadata document the last attempt that landed left the table at.
  const std::string& last_landed_location() const { return last_landed_location_; }
  int64_t TurnLimitUs() const;
  bool idle() const { return holders_ == 0 && waiting_.empty(); }

 private:
  struct Waiter {
    uint64_t id = 0;
    Party party = nullptr;
    int64_t enter_us = 0;
    int64_t front_us = 0;  // when it reached the front of the queue
    std::optional<Grant> granted;  // its party's turn began while it waited
  };
  // Whether waiter `w` (at the front of the queue or not) may start at `now`.
  std::optional<Grant> Decide(const Waiter& w, bool front, int64_t now);
  // Starts the front waiter's attempt: in its party's turn, or in a new one.
  Grant Admit(const Waiter& front, int64_t now);

  TurnLimits limits_;
  std::deque<Waiter> waiting_;
  uint64_t next_id_ = 1;
  uint64_t turn_ = 0;  // the current turn's number; a turn taken over gets a new one
  Party holder_ = nullptr;
  int holders_ = 0;  // attempts of the current turn still running
  int64_t turn_us_ = 0;  // mean duration of recent turns that landed
  int64_t last_landed_us_ = -1;
  std::string last_landed_location_;
};

class TableTurns {
 public:
  // Monotonic microseconds (MonotonicMicros unless a test drives time).
  using Now = std::function<int64_t()>;

  // A table's identity for its turns: its uuid (its location when it has none).
  static std::string KeyOf(const TableMetadata& metadata);

  explicit TableTurns(TurnLimits limits = {}, Now now = nullptr);

  // One attempt's turn; ends (at the latest) when destroyed.
  class Turn {
   public:
    Turn() = default;
    Turn(Turn&& other) noexcept { *this = std::move(other); }
    Turn& operator=(Turn&& other) noexcept;
    ~Turn() { End(); }
    // Ends the turn; `landed_location`: the attempt's swap took effect and left the table at
    // that document (empty: it did not land). Later calls do nothing.
    void End(const std::string& landed_location = {});
    // Whether an attempt on the table landed after `us` (a base loaded then is stale) as far
    // as this process knows, when the turn began, and the document it left the table at.
    bool LandedSince(int64_t us) const { return last_landed_us_ > us; }
    const std::string& landed_location() const { return last_landed_location_; }
    int64_t waited_us() const { return waited_us_; }
    // The thread already held a turn on the table: this one was granted without waiting.
    bool nested() const { return nested_; }

   private:
    friend class TableTurns;
    TableTurns* turns_ = nullptr;  // null once ended (or for a nested turn, never set)
    TurnQueue::Grant grant_;
    int64_t last_landed_us_ = -1;
    std::string last_landed_location_;
    int64_t waited_us_ = 0;
    bool nested_ = false;
  };

  // Waits for `party`'s turn (see the top of this file) and returns it.
  Turn Take(TurnQueue::Party party);

 private:
  void End(Turn& turn, const std::string& landed_location);

  Now now_;
  std::mutex mu_;
  std::condition_variable changed_;
  TurnQueue queue_;
};

}  // namespace floe
