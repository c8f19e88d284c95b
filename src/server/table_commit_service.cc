#include "server/table_commit_service.h"

#include <cstdlib>
#include <string_view>

#include "contention/group_commit.h"

namespace floe {
namespace {

using Ticket = CommitQueue::Ticket;

bool CreatesTable(const TableCommit& commit) {
  for (const auto& r : commit.requirements) {
    if (std::holds_alternative<AssertCreate>(r)) return true;
  }
  return false;
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
  const GroupCommitOptions group_options{options.max_attempts, "the server"};
  auto run = [&](const std::vector<Ticket*>& group) { CommitGroup(catalog, group_options, group); };
  Ticket ticket;
  ticket.commit = &commit;
  Result<SharedTable> result = Unavailable("not run");
  if (options.path == ServerCommitPath::kRetry || options.contention == nullptr) {
    run({&ticket});
    ticket.group_size = 1;
    result = std::move(*ticket.result);
  } else {
    // Keyed by the database, not the catalog object: the server's catalogs share one queue.
    result = options.contention
                 ->QueueOf(catalog.warehouse_location() + "|" + catalog.name() + "|" + commit.id.ToString())
                 ->Submit(ticket, run);
  }
  *report = ServerCommitReport{ticket.attempts, ticket.rebased, ticket.group_size};
  return result;
}

}  // namespace floe
