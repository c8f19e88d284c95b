#include "server/table_commit_service.h"

#include <chrono>
#include <cstdlib>
#include <set>
#include <string_view>
#include <thread>

#include "catalog/intent_store.h"
#include "meta/metadata_builder.h"
#include "server/append_rebase.h"
#include "server/group_commit.h"
#include "util/backoff.h"
#include "util/clock.h"

namespace floe {
namespace {

using Ticket = CommitQueue::Ticket;

bool CreatesTable(const TableCommit& commit) {
  for (const auto& r : commit.requirements) {
    if (std::holds_alternative<AssertCreate>(r)) return true;
  }
  return false;
}

// A request the group took: the updates it contributes (its own, or rebased ones).
struct Accepted {
  Ticket* ticket = nullptr;
  std::vector<TableUpdate> updates;
};

// Requirements that hold exactly when the table is still at `base` in everything a request's
// requirement can assert: its uuid, every ref a request names, and the five ids. Each request
// was checked against `base` plus the requests before it, so if these hold on the catalog's
// current metadata, every request's own requirements hold there too.
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

void DeleteQuietly(FileIO& io, const std::vector<std::string>& paths) {
  for (const auto& p : paths) (void)io.Delete(p);
}

// One attempt's plan: which requests go in (in order) and which fail on this base.
struct Plan {
  std::vector<Accepted> accepted;
  std::vector<std::pair<Ticket*, Error>> refused;
  std::vector<std::string> written;  // rebased manifest lists
};

// Why a request cannot go in: every requirement that fails on `running` (the first alone
// would hide the one a client must fix when its branch also moved on), else `error`.
Error RefusalOf(const TableMetadata& running, const TableCommit& commit, const Error& error) {
  if (error.kind != ErrorKind::kCommitConflict) return error;
  std::string failed;
  for (const auto& r : commit.requirements) {
    if (Status held = CheckRequirement(r, &running); !held) failed += (failed.empty() ? "" : "; ") + held.error().message;
  }
  return failed.empty() ? error : Error{ErrorKind::kCommitConflict, failed};
}

// Checks and applies each request in order on `base` plus the ones before it.
// Rebased manifest lists are named by `names`, in the attempt's write intent.
Plan PlanGroup(Catalog& catalog, const SharedTable& base, const std::vector<Ticket*>& tickets, FileNamer& names) {
  Plan plan;
  TableMetadata running = *base.metadata;
  const int64_t now = NowMillis();
  for (Ticket* t : tickets) {
    const TableCommit& c = *t->commit;
    auto applied = ApplyCommit(&running, base.metadata_location, c.requirements, c.updates, now);
    std::vector<TableUpdate> updates = c.updates;
    if (!applied && applied.error().kind == ErrorKind::kCommitConflict) {
      auto rebased = RebaseAppend(*catalog.io(), running, c, &names);
      if (!rebased) {
        plan.refused.emplace_back(t, rebased.error().WithContext("rebasing the append onto the new head"));
        continue;
      }
      if (*rebased) {
        t->rebased = true;
        plan.written.push_back((*rebased)->manifest_list);
        applied = ApplyCommit(&running, base.metadata_location, (*rebased)->requirements, (*rebased)->updates, now);
        updates = std::move((*rebased)->updates);
      }
    }
    if (!applied) {
      plan.refused.emplace_back(t, RefusalOf(running, c, applied.error()));
      continue;
    }
    running = std::move(*applied);
    plan.accepted.push_back(Accepted{t, std::move(updates)});
  }
  return plan;
}

// Runs one group to the end: every ticket gets its result.
void RunGroup(Catalog& catalog, const ServerCommitOptions& options, const std::vector<Ticket*>& tickets) {
  const TableIdentifier& id = tickets.front()->commit->id;
  Backoff backoff(BackoffPolicy{1, 50});
  std::string last_conflict;
  for (int attempt = 1; attempt <= options.max_attempts; ++attempt) {
    for (Ticket* t : tickets) t->attempts = attempt;
    auto base = catalog.LoadSharedTable(id);
    if (!base) {
      for (Ticket* t : tickets) t->result = std::unexpected(base.error());
      return;
    }
    // The intent is cleared once the lists it names are referenced or deleted; an unknown
    // outcome leaves it for the reclamation (io/file_namer.h).
    const std::unique_ptr<FileNamer> names = NewWriteNamer(catalog, id, *base->metadata);
    Plan plan = PlanGroup(catalog, *base, tickets, *names);
    auto answer_refused = [&] {
      for (auto& [t, error] : plan.refused) t->result = std::unexpected(std::move(error));
    };
    if (plan.accepted.empty()) {
      answer_refused();
      return;
    }
    TableCommit combined{id, PinBase(*base->metadata, plan.accepted), {}};
    for (Accepted& a : plan.accepted) {
      for (auto& u : a.updates) combined.updates.push_back(std::move(u));
    }
    auto committed = catalog.CommitSharedTable(combined);
    if (committed) {
      (void)names->Clear();
      answer_refused();
      for (Accepted& a : plan.accepted) a.ticket->result = *committed;
      return;
    }
    const Error& error = committed.error();
    bool moved = error.kind == ErrorKind::kCommitConflict;
    if (error.kind != ErrorKind::kCommitStateUnknown) {
      DeleteQuietly(*catalog.io(), plan.written);  // the swap certainly did not happen
      (void)names->Clear();
      if (!moved) {
        // A base that moved in what the pins do not cover (a snapshot on another branch took
        // the sequence number) fails to apply rather than to swap: that is a lost race too.
        auto now = catalog.LoadSharedTable(id);
        moved = now && now->metadata_location != base->metadata_location;
      }
    }
    if (!moved) {
      // Unknown outcome, or an error the base does not explain: each request learns it.
      answer_refused();
      for (Accepted& a : plan.accepted) a.ticket->result = std::unexpected(error);
      return;
    }
    last_conflict = error.message;
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff.WaitMs(attempt)));
  }
  for (Ticket* t : tickets) {
    t->result = CommitConflict("commit to " + id.ToString() + " lost the race " + std::to_string(options.max_attempts) +
                               " times on the server; last: " + last_conflict);
  }
}

}  // namespace

const ServerCommitOptions& ServerCommitOptionsFromEnvironment() {
  static const ServerCommitOptions options = [] {
    ServerCommitOptions o;
    const char* path = std::getenv("FLOE_SERVE_COMMIT");
    std::string_view chosen = path ? path : "";
    if (chosen == "direct") o.path = ServerCommitPath::kDirect;
    if (chosen == "retry") o.path = ServerCommitPath::kRetry;
    return o;
  }();
  return options;
}

Result<SharedTable> CommitTableOnServer(Catalog& catalog, const TableCommit& commit,
                                        const ServerCommitOptions& options, ServerCommitReport* report) {
  ServerCommitReport ignored;
  if (report == nullptr) report = &ignored;
  if (options.path == ServerCommitPath::kDirect || CreatesTable(commit)) {
    report->attempts = 1;
    return catalog.CommitSharedTable(commit);
  }
  auto run = [&](const std::vector<Ticket*>& group) { RunGroup(catalog, options, group); };
  Ticket ticket;
  Result<SharedTable> result = Unavailable("not run");
  if (options.path == ServerCommitPath::kRetry) {
    ticket.commit = &commit;
    run({&ticket});
    ticket.group_size = 1;
    result = std::move(*ticket.result);
  } else {
    result = CommitQueue::For(catalog.warehouse_location() + "|" + catalog.name() + "|" + commit.id.ToString())
                 .Submit(commit, run, &ticket);
  }
  *report = ServerCommitReport{ticket.attempts, ticket.rebased, ticket.group_size};
  return result;
}

}  // namespace floe
