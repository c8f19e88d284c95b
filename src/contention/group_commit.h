// Group commit: commits to one table that arrive while a commit of that table is in flight
// wait, and the next swap takes all of them at once. One implementation serves two callers:
//   floe serve      the requests of its clients (server/table_commit_service.h), with the
//                   server's own retry of a lost swap;
//   the library     the appends that the threads of one process commit to one table through
//                   one Catalog object (the commit engine, commit/commit_engine.h, hands a
//                   plan that is a single append to its scheduler's CommitAppend,
//                   contention_scheduler.h, instead of swapping it alone).
//
// The queue. The first commit to find its table idle becomes the group's leader: it takes
// every waiting commit (itself first, then in arrival order, at most kMaxGroup) and runs the
// group on its own thread. Commits that arrive meanwhile queue up for the next group; when the
// leader is done, one of them leads the next. Every commit is answered on its own thread with
// its own result, so each caller's own work (its Idempotency-Key record, its files) is unchanged.
//
// The group (CommitGroup). Each attempt loads the table and checks and applies the commits in
// order, each on the state the ones before it leave; a commit whose only failed requirement is
// that its branch moved on is rebased onto the new head (append_rebase.h). Their snapshots
// form one chain, each with its own id and sequence number, written as one metadata document
// and one compare-and-swap whose requirements pin the base they were applied on. A commit that
// fails (its requirement, its update, its files) fails alone, with its own error; the others
// go in. A lost swap is tried again on the new base at most max_attempts times.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "contention/append_rebase.h"

namespace floe {

class CommitQueue {
 public:
  // One commit of a group: the group's runner sets `result` for each.
  struct Ticket {
    const TableCommit* commit = nullptr;
    // Names a manifest list the group writes for this commit when it rebases it (default:
    // RebaseAppend's own names).
    ManifestListNamer name_manifest_list;
    std::optional<Result<SharedTable>> result;
    bool done = false;  // set under the queue's lock once `result` is final
    // What it took (the server's metrics): swaps tried for the group that answered this
    // commit, whether the group rebased it, and how many commits that group held.
    int attempts = 0;
    bool rebased = false;
    size_t group_size = 0;
  };
  // Runs a group; it must set every ticket's result.
  using GroupRunner = std::function<void(const std::vector<Ticket*>&)>;

  static constexpr size_t kMaxGroup = 64;

  // One queue per table: a process's are its scheduler's (ContentionScheduler::QueueOf).

  // Commits `ticket->commit` in a group (see the top of this file) and returns its own result;
  // the ticket then also holds its attempts, rebased flag and group size.
  Result<SharedTable> Submit(Ticket& ticket, const GroupRunner& run);

 private:
  std::mutex mu_;
  std::condition_variable turn_;
  std::deque<Ticket*> waiting_;
  bool leading_ = false;
};

struct GroupCommitOptions {
  int max_attempts = 10;           // swaps per group before each commit gets the conflict
  std::string who = "the server";  // who retried, for the message when they are used up
};

// Commits `tickets` (all to one table) as one group, as described at the top of this file;
// every ticket gets its result.
void CommitGroup(Catalog& catalog, const GroupCommitOptions& options, const std::vector<CommitQueue::Ticket*>& tickets);


}  // namespace floe
