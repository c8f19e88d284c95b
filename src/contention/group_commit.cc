#include "contention/group_commit.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "catalog/intent_store.h"
#include "meta/metadata_builder.h"
#include "table_files/metadata_location.h"
#include "util/backoff.h"
#include "util/clock.h"

namespace floe {

Result<SharedTable> CommitQueue::Submit(Ticket& mine, const GroupRunner& run) {
  std::unique_lock lock(mu_);
  waiting_.push_back(&mine);
  while (!mine.done) {
    if (leading_) {
      turn_.wait(lock);
      continue;
    }
    // Lead the next group: this commit and whoever waits, oldest first.
    leading_ = true;
    std::erase(waiting_, &mine);
    std::vector<Ticket*> group{&mine};
    while (!waiting_.empty() && group.size() < kMaxGroup) {
      group.push_back(waiting_.front());
      waiting_.pop_front();
    }
    lock.unlock();
    run(group);
    for (Ticket* t : group) {
      t->group_size = group.size();
      if (!t->result) t->result = Result<SharedTable>(Unavailable("the group commit left this commit unanswered"));
    }
    lock.lock();
    for (Ticket* t : group) t->done = true;  // under the lock: waiters read results only after this
    leading_ = false;
    turn_.notify_all();
  }
  return std::move(*mine.result);
}

namespace {

using Ticket = CommitQueue::Ticket;

// A commit the group took: the updates it contributes (its own, or rebased ones).
struct Accepted {
  Ticket* ticket = nullptr;
  std::vector<TableUpdate> updates;
};

// Requirements that hold exactly when the table is still at `base` in everything a commit's
// requirement can assert: its uuid, every ref a commit names, and the five ids. Each commit
// was checked against `base` plus the commits before it, so if these hold on the catalog's
// current metadata, every commit's own requirements hold there too.
std::vector<TableRequirement> PinBase(const TableMetadata& base, const std::vector<Accepted>& accepted) {
  std::set<std::string> refs;
  for (const Accepted& a : accepted) {
    for (const auto& r : a.ticket->commit->requirements) {
      if (auto* ref = std::get_if<AssertRefSnapshotId>(&r)) refs.insert(ref->ref);
    }
    for (const auto& u : a.updates) {
      if (auto* set = std::get_if<SetSnapshotRef>(&u)) refs.insert(set->ref_name);
      if (auto* remove = std::get_if<RemoveSnapshotRef>(&u)) refs.insert(remove->ref_name);
    }
  }
  std::vector<TableRequirement> pins{AssertTableUuid{base.table_uuid},
                                     AssertCurrentSchemaId{base.current_schema_id},
                                     AssertLastAssignedFieldId{base.last_column_id},
                                     AssertLastAssignedPartitionId{base.last_partition_id},
                                     AssertDefaultSpecId{base.default_spec_id},
                                     AssertDefaultSortOrderId{base.default_sort_order_id}};
  for (const auto& name : refs) {
    auto it = base.refs.find(name);
    pins.push_back(AssertRefSnapshotId{name, it == base.refs.end() ? std::nullopt
                                                                   : std::optional<int64_t>(it->second.snapshot_id)});
  }
  return pins;
}

// One attempt's plan: which commits go in (in order) and which fail on this base.
struct Plan {
  std::vector<Accepted> accepted;
  std::vector<std::pair<Ticket*, Error>> refused;
  std::vector<std::string> written;  // files the rebases of accepted commits wrote
  // Rebased manifest lists of commits that then did not go in (their rebase failed after
  // naming its list, or the rebased commit failed to apply): referenced by nothing, whatever
  // the swap does.
  std::vector<std::string> unused;
};

// Why a commit cannot go in: every requirement that fails on `running` (the first alone
// would hide the one a writer must fix when its branch also moved on), else `error`.
Error RefusalOf(const TableMetadata& running, const TableCommit& commit, const Error& error) {
  if (error.kind != ErrorKind::kCommitConflict) return error;
  std::string failed;
  for (const auto& r : commit.requirements) {
    if (Status held = CheckRequirement(r, &running); !held) failed += (failed.empty() ? "" : "; ") + held.error().message;
  }
  return failed.empty() ? error : Error{ErrorKind::kCommitConflict, failed};
}

// Checks and applies each commit in order on `base` plus the ones before it. A rebased
// manifest list is named by its writer's namer when the ticket has one (the library), else by
// `names`, the group attempt's own write intent (the server's requests).
Plan PlanGroup(Catalog& catalog, const SharedTable& base, const std::vector<Ticket*>& tickets, FileNamer& names) {
  Plan plan;
  // The table as the commits before this one leave it: the base until one applied (never
  // copied: on a long history a copy of the document is most of a commit's work).
  const TableMetadata* running = base.metadata.get();
  std::optional<TableMetadata> applied_so_far;
  // A commit alone in its group is not applied here, only its requirements checked: the
  // catalog's commit applies it to the same base (refusing a bad update there), so a trial
  // apply would only copy the document. Its answer is the same: the catalog's error when that
  // refuses it.
  const bool alone = tickets.size() == 1;
  auto requirements_hold = [&running](const TableCommit& c) {
    for (const auto& r : c.requirements) {
      if (!CheckRequirement(r, running)) return false;
    }
    return true;
  };
  const int64_t now = NowMillis();
  for (Ticket* t : tickets) {
    const TableCommit& c = *t->commit;
    // Its files are read (by a rebase) and then published: they must be written, and a commit
    // whose files failed fails alone.
    if (c.await_files) {
      if (Status written = c.await_files(); !written) {
        plan.refused.emplace_back(t, written.error());
        continue;
      }
    }
    if (alone && requirements_hold(c)) {
      plan.accepted.push_back(Accepted{t, c.updates});
      continue;
    }
    auto applied = ApplyCommit(running, base.metadata_location, c.requirements, c.updates, now);
    std::vector<TableUpdate> updates = c.updates;
    if (!applied && applied.error().kind == ErrorKind::kCommitConflict) {
      ManifestListNamer namer = t->name_manifest_list;
      if (!namer) {
        namer = [&names](const TableMetadata& table, int64_t snapshot_id) {
          return names.NewPath(MetadataFolder(table), "snap-" + std::to_string(snapshot_id) + "-rebased-", ".avro");
        };
      }
      std::vector<std::string> named;  // the files the rebase named (each may exist even if its write failed)
      auto rebased = RebaseAppend(*catalog.io(), *running, c,
                                  [&namer, &named](const TableMetadata& table, int64_t snapshot_id) {
                                    auto name = namer(table, snapshot_id);
                                    if (name) named.push_back(*name);
                                    return name;
                                  });
      if (!rebased) {
        plan.unused.insert(plan.unused.end(), named.begin(), named.end());
        plan.refused.emplace_back(t, rebased.error().WithContext("rebasing the append onto the new head"));
        continue;
      }
      if (*rebased && alone) {
        // Its requirements were rebuilt on `running` from ones that held there.
        t->rebased = true;
        plan.written.insert(plan.written.end(), (*rebased)->written.begin(), (*rebased)->written.end());
        plan.accepted.push_back(Accepted{t, std::move((*rebased)->updates)});
        continue;
      }
      if (*rebased) {
        t->rebased = true;
        applied = ApplyCommit(running, base.metadata_location, (*rebased)->requirements, (*rebased)->updates, now);
        auto& files = applied ? plan.written : plan.unused;
        files.insert(files.end(), (*rebased)->written.begin(), (*rebased)->written.end());
        updates = std::move((*rebased)->updates);
      }
    }
    if (!applied) {
      plan.refused.emplace_back(t, RefusalOf(*running, c, applied.error()));
      continue;
    }
    applied_so_far = std::move(*applied);
    running = &*applied_so_far;
    plan.accepted.push_back(Accepted{t, std::move(updates)});
  }
  return plan;
}

}  // namespace

void CommitGroup(Catalog& catalog, const GroupCommitOptions& options, const std::vector<Ticket*>& tickets) {
  const TableIdentifier& id = tickets.front()->commit->id;
  Backoff backoff(BackoffPolicy{1, 50});
  std::string last_conflict;
  for (int attempt = 1; attempt <= options.max_attempts; ++attempt) {
    for (Ticket* t : tickets) {
      t->attempts = attempt;
      t->rebased = false;
    }
    auto base = catalog.LoadSharedTable(id);
    if (!base) {
      for (Ticket* t : tickets) t->result = std::unexpected(base.error());
      return;
    }
    // The intent is cleared once the lists it names are referenced or deleted; an unknown
    // outcome leaves it for the reclamation (table_files/file_namer.h). Nothing is recorded unless a
    // list is named through it.
    const std::unique_ptr<FileNamer> names = NewIntentNamer(catalog, id, *base->metadata);
    Plan plan = PlanGroup(catalog, *base, tickets, *names);
    // Whatever the swap does, the lists of refused commits go now, in one batch; until they
    // are gone the intent naming them stays.
    const bool unused_gone = plan.unused.empty() || catalog.io()->DeleteFiles(plan.unused).has_value();
    auto answer_refused = [&] {
      for (auto& [t, error] : plan.refused) t->result = std::unexpected(std::move(error));
    };
    if (plan.accepted.empty()) {
      if (unused_gone) (void)names->Clear();
      answer_refused();
      return;
    }
    TableCommit combined{id, PinBase(*base->metadata, plan.accepted), {}};
    for (Accepted& a : plan.accepted) {
      for (auto& u : a.updates) combined.updates.push_back(std::move(u));
    }
    // The base is let go before the swap: the catalog's commit loads the same document and, as
    // its sole holder (with the metadata cache), moves its snapshots into the next document
    // instead of copying them (catalog/commit.cc OwnedBase).
    const std::string base_location = base->metadata_location;
    base->metadata.reset();
    auto committed = catalog.CommitSharedTable(combined);
    if (committed) {
      if (unused_gone) (void)names->Clear();
      answer_refused();
      for (Accepted& a : plan.accepted) a.ticket->result = *committed;
      return;
    }
    const Error& error = committed.error();
    bool moved = error.kind == ErrorKind::kCommitConflict;
    if (error.kind != ErrorKind::kCommitStateUnknown) {
      // The swap certainly did not happen: its rebased lists go, in one batch (DeleteObjects on S3).
      const bool written_gone = plan.written.empty() || catalog.io()->DeleteFiles(plan.written).has_value();
      if (written_gone && unused_gone) (void)names->Clear();
      if (!moved) {
        // A base that moved in what the pins do not cover (a snapshot on another branch took
        // the sequence number) fails to apply rather than to swap: that is a lost race too.
        auto now = catalog.LoadSharedTable(id);
        moved = now && now->metadata_location != base_location;
      }
    }
    if (!moved) {
      // Unknown outcome, or an error the base does not explain: each commit learns it.
      answer_refused();
      for (Accepted& a : plan.accepted) a.ticket->result = std::unexpected(error);
      return;
    }
    last_conflict = error.message;
    if (attempt < options.max_attempts) std::this_thread::sleep_for(std::chrono::milliseconds(backoff.WaitMs(attempt)));
  }
  for (Ticket* t : tickets) {
    t->result = CommitConflict("commit to " + id.ToString() + " lost the race " + std::to_string(options.max_attempts) +
                               (options.max_attempts == 1 ? " time " : " times ") + "in " + options.who +
                               "'s group commit; last: " + last_conflict);
  }
}

}  // namespace floe
