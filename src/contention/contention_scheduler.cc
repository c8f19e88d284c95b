#include "contention/contention_scheduler.h"

#include <cstdio>

namespace floe {
namespace {

class ContentionTurn : public CommitScheduler::Turn {
 public:
  explicit ContentionTurn(TableTurns::Turn turn) : turn_(std::move(turn)) {}
  void End(const std::string& landed_location) override { turn_.End(landed_location); }
  bool LandedSince(int64_t us) const override { return turn_.LandedSince(us); }
  const std::string& landed_location() const override { return turn_.landed_location(); }
  int64_t waited_us() const override { return turn_.waited_us(); }

 private:
  TableTurns::Turn turn_;
};

}  // namespace

ContentionScheduler& ContentionScheduler::Process() {
  static auto* process = new ContentionScheduler();
  return *process;
}

CatalogOptions ProcessCatalogOptions(CatalogOptions options) {
  options.commit_scheduler = &ContentionScheduler::Process();
  return options;
}

CommitPacer& ContentionScheduler::PacingOf(const std::string& table_key) {
  std::lock_guard lock(mu_);
  auto& pacer = pacers_[table_key];
  if (!pacer) pacer = std::make_unique<CommitPacer>();
  return *pacer;
}

std::string ContentionScheduler::TurnKeyOf(const TableMetadata& table) { return TableTurns::KeyOf(table); }

TableTurns& ContentionScheduler::TurnsOf(const std::string& turn_key) {
  std::lock_guard lock(mu_);
  auto& turns = turns_[turn_key];
  if (!turns) turns = std::make_unique<TableTurns>();
  return *turns;
}

std::unique_ptr<CommitScheduler::Turn> ContentionScheduler::TakeTurn(const std::string& turn_key, const void* party) {
  return std::make_unique<ContentionTurn>(TurnsOf(turn_key).Take(party));
}

std::shared_ptr<CommitQueue> ContentionScheduler::QueueOf(const std::string& key) {
  std::lock_guard lock(mu_);
  std::weak_ptr<CommitQueue>& slot = queues_[key];
  std::shared_ptr<CommitQueue> queue = slot.lock();
  if (!queue) {
    std::erase_if(queues_, [](const auto& entry) { return entry.second.expired(); });
    queue = std::make_shared<CommitQueue>();
    queues_[key] = queue;
  }
  return queue;
}

Result<SharedTable> ContentionScheduler::CommitAppend(Catalog& catalog, const TableCommit& commit,
                                                      const ManifestListNamer& namer) {
  using Ticket = CommitQueue::Ticket;
  // The same catalog object: the leader swaps everyone's commit through its own.
  char key[64];
  std::snprintf(key, sizeof key, "process|%p|", static_cast<const void*>(&catalog));
  std::shared_ptr<CommitQueue> queue = QueueOf(key + commit.id.ToString());
  Ticket ticket;
  ticket.commit = &commit;
  ticket.name_manifest_list = namer;
  return queue->Submit(ticket, [&catalog](const std::vector<Ticket*>& group) {
    if (group.size() == 1) {
      group.front()->attempts = 1;
      group.front()->result = catalog.CommitSharedTable(*group.front()->commit);
      return;
    }
    // One attempt: a lost swap goes back to each writer's own commit loop, which waits its
    // turn (commit_pacing.h), rebuilds on the new base and comes back here.
    CommitGroup(catalog, GroupCommitOptions{1, "this process"}, group);
  });
}

}  // namespace floe
