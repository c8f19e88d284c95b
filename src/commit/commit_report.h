// What a commit tells its caller, success or not: attempts, conflicts and where the time went.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace floe {

struct CommitReport {
  int attempts = 0;
  int conflicts = 0;                      // swaps lost to another writer
  std::vector<std::string> conflict_reasons;
  double validate_ms = 0;                 // checking what landed since the starting snapshot
  double write_ms = 0;                    // manifests, manifest lists (metadata only on retries)
  double swap_ms = 0;                     // the catalog's compare-and-swap (incl. the metadata document)
  double backoff_ms = 0;
  double turn_wait_ms = 0;                // waiting for the turns of this process's other writers (commit_scheduler.h)
  double total_ms = 0;
  int64_t snapshot_id = 0;
  int64_t sequence_number = 0;
  std::string metadata_location;
  bool idempotent_replay = false;         // the key was already committed: nothing was written
  bool reconciled_unknown = false;        // an answer was lost and the reload found our snapshot

  std::string ToString() const;
};

}  // namespace floe
