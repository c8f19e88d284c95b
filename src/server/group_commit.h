// Group commit: requests for one table that arrive while a commit of that table is in flight
// wait, and the next commit takes all of them at once.
//
// The first request to find the table idle becomes the group's leader: it takes every waiting
// request (itself first, then in arrival order, at most kMaxGroup) and runs the group on its
// own thread. Requests that arrive meanwhile queue up for the next group; when the leader is
// done, one of them leads the next. Every request is answered on its own thread with its own
// result, so the caller's per-request work (its Idempotency-Key record, its reply) is unchanged.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace floe {

class CommitQueue {
 public:
  // One request of a group: the leader sets `result` for each.
  struct Ticket {
    const TableCommit* commit = nullptr;
    std::optional<Result<SharedTable>> result;
    bool done = false;  // set under the queue's lock once `result` is final
    // What it took, for the server's metrics: swaps tried for the group that answered this
    // request, whether the server rebased it, and how many requests that group held.
    int attempts = 0;
    bool rebased = false;
    size_t group_size = 0;
  };
  // Runs a group; it must set every ticket's result.
  using GroupRunner = std::function<void(const std::vector<Ticket*>&)>;

  static constexpr size_t kMaxGroup = 64;

  // The queue of one table (`key` names catalog and table), created on first use.
  static CommitQueue& For(const std::string& key);

  // Commits `commit` in a group (see the top of this file) and returns its own result; `report`,
  // when given, receives the ticket's attempts, rebased flag and group size.
  Result<SharedTable> Submit(const TableCommit& commit, const GroupRunner& run, Ticket* report = nullptr);

 private:
  std::mutex mu_;
  std::condition_variable turn_;
  std::deque<Ticket*> waiting_;
  bool leading_ = false;
};

}  // namespace floe
