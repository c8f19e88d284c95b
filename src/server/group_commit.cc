#include "server/group_commit.h"

#include <map>
#include <memory>

namespace floe {

CommitQueue& CommitQueue::For(const std::string& key) {
  static std::mutex registry_mu;
  // Queues live as long as the server: one small object per table it ever committed to.
  static auto* registry = new std::map<std::string, std::unique_ptr<CommitQueue>>();
  std::lock_guard lock(registry_mu);
  auto& queue = (*registry)[key];
  if (!queue) queue = std::make_unique<CommitQueue>();
  return *queue;
}

Result<SharedTable> CommitQueue::Submit(const TableCommit& commit, const GroupRunner& run, Ticket* report) {
  Ticket mine;
  mine.commit = &commit;
  std::unique_lock lock(mu_);
  waiting_.push_back(&mine);
  while (!mine.done) {
    if (leading_) {
      turn_.wait(lock);
      continue;
    }
    // Lead the next group: this request and whoever waits, oldest first.
    leading_ = true;
    std::vector<Ticket*> group;
    group.push_back(&mine);
    for (auto it = waiting_.begin(); it != waiting_.end() && group.size() < kMaxGroup;) {
      if (*it == &mine) {
        it = waiting_.erase(it);
        continue;
      }
      group.push_back(*it);
      it = waiting_.erase(it);
    }
    std::erase(waiting_, &mine);
    lock.unlock();
    run(group);
    for (Ticket* t : group) {
      t->group_size = group.size();
      if (!t->result) t->result = Result<SharedTable>(Unavailable("the server's group commit left this request unanswered"));
    }
    lock.lock();
    for (Ticket* t : group) t->done = true;  // under the lock: waiters read results only after this
    leading_ = false;
    turn_.notify_all();
  }
  if (report != nullptr) {
    report->attempts = mine.attempts;
    report->rebased = mine.rebased;
    report->group_size = mine.group_size;
  }
  return std::move(*mine.result);
}

}  // namespace floe
