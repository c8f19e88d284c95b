// The server's commit of one table (POST /v1/.../tables/{table}): what `floe serve` does for a
// hot table, so that many clients writing it at once do not spend their retries on round trips.
//
//   server-side retry  The server checks each request's requirements itself, against the
//                      table's current metadata, and swaps with requirements that pin that
//                      base. Losing the swap is not the client's problem: the server reloads,
//                      checks again and swaps again, at most kMaxAttempts times. Only a failed
//                      requirement (or a bad update) reaches the client, as 409 (or 400).
//   append rebase      An append whose only failed requirement is that its branch moved on is
//                      put on top of the new head by the server (contention/append_rebase.h).
//   group commit       Requests for one table that arrive while its swap is in flight wait and
//                      go together into the next one (contention/group_commit.h): checked in arrival order,
//                      each on the state the ones before it leave, so their snapshots form one
//                      chain with their own ids and sequence numbers, written as one metadata
//                      document and one compare-and-swap. A request that fails fails alone;
//                      every request gets its own answer.
//
// A create (assert-create) goes straight to the catalog. The environment variable
// FLOE_SERVE_COMMIT chooses the path, for measuring it: "direct" (the catalog's commit as it is,
// every lost swap a 409), "retry" (retry and rebase, one request per swap), "group" (all three,
// the default).
#pragma once

#include "catalog/catalog.h"
#include "contention/contention_scheduler.h"

namespace floe {

enum class ServerCommitPath { kDirect, kRetry, kGroup };

struct ServerCommitOptions {
  ServerCommitPath path = ServerCommitPath::kGroup;
  int max_attempts = 10;  // swaps per group before the server gives the conflict to the client
  // Owns the group-commit queues of the server's tables (keyed by database and table, so the
  // server's catalogs share them); supplied by whoever starts the server. Null: every request
  // is retried and rebased alone, as kRetry.
  ContentionScheduler* contention = nullptr;
};

// The path from FLOE_SERVE_COMMIT (read once per process), no contention state.
const ServerCommitOptions& ServerCommitOptionsFromEnvironment();

// What one commit took on the server, for its metrics and access log.
struct ServerCommitReport {
  int attempts = 0;       // swaps tried by the group that answered it (0: none, e.g. a refusal)
  bool rebased = false;   // the server put the append on a newer head
  size_t group_size = 1;  // requests committed with it in one swap
};

// One table commit as `floe serve` runs it (see the top of this file).
Result<SharedTable> CommitTableOnServer(Catalog& catalog, const TableCommit& commit,
                                        const ServerCommitOptions& options = ServerCommitOptionsFromEnvironment(),
                                        ServerCommitReport* report = nullptr);

}  // namespace floe
