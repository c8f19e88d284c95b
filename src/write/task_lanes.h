// Runs tasks on a few threads, in lanes: the tasks of one lane run one at a time, in the order
// they were submitted, while tasks of different lanes run at the same time. DataWriter gives
// each partition a lane, so each partition's rows reach its files in input order whatever the
// threads' timing, while several partitions are encoded at once.
//
//   TaskLanes lanes(2, 1 << 17);
//   size_t de = lanes.AddLane(), fr = lanes.AddLane();
//   FLOE_RETURN_IF_ERROR(lanes.Submit(de, rows, [&] { return WriteSome(...); }));  // waits for room
//   FLOE_RETURN_IF_ERROR(lanes.Wait());                                            // all have run
//
// Invariants:
//   - A lane's tasks run in submission order, never two at once; a task's effects are visible
//     to the next task of its lane and, after Wait or Stop, to the caller.
//   - Memory: Submit waits while tasks of `max_cost` or more (each task's cost as submitted)
//     are queued or running, so the tasks given to the lanes and not yet finished cost at most
//     max_cost + the cost of one task.
//   - The first task that fails stops everything: tasks not yet started are dropped, and
//     Submit and Wait return that error from then on.
//   - With 0 threads no thread is started: Submit runs the task on the calling thread.
//   - Threads are started as lanes are added, never more than there are lanes.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "floe/result.h"

namespace floe {

class TaskLanes {
 public:
  using Task = std::function<Status()>;

  TaskLanes(int threads, size_t max_cost);
  ~TaskLanes();  // Stop(), then joins the threads
  TaskLanes(const TaskLanes&) = delete;
  TaskLanes& operator=(const TaskLanes&) = delete;

  // A new lane's index (0, 1, ...). Called by the submitting thread only.
  size_t AddLane();

  // Queues `task` at the end of `lane`, first waiting for room (see above). The first failure
  // of any task so far, if there was one (then `task` is not queued).
  Status Submit(size_t lane, size_t cost, Task task);

  // Waits until every task submitted has run (or was dropped after a failure); the first failure.
  Status Wait();

  // Drops the tasks not yet started, waits for the running ones and lets the threads go.
  // Later Submits fail.
  void Stop();

  // Raises the bound on queued cost (never lowers it).
  void RaiseMaxCost(size_t max_cost);

  int threads() const { return threads_; }

 private:
  struct Lane {
    std::deque<std::pair<size_t, Task>> tasks;
    bool ready = false;    // in ready_ (it has tasks and no thread runs one of them)
    bool running = false;  // a thread runs one of its tasks
  };
  void Loop();
  void FailLocked(Status error);  // records the first failure and drops every queued task

  const int threads_;
  std::mutex mu_;
  std::condition_variable work_cv_;  // threads wait for a ready lane
  std::condition_variable done_cv_;  // the submitter waits for room, or for all to finish
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::deque<size_t> ready_;  // lanes with a task to start, served in turn
  size_t max_cost_;
  size_t queued_cost_ = 0;  // of tasks queued or running
  size_t unfinished_ = 0;   // tasks queued or running
  Status failed_ = Ok();
  bool stopping_ = false;  // threads leave once no lane is ready
  std::vector<std::thread> workers_;
};

}  // namespace floe
