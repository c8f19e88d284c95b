#include "commit/commit_report.h"

#include <cstdio>

namespace floe {

std::string CommitReport::ToString() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "snapshot %lld (sequence %lld) after %d attempt%s, %d conflict%s; validate %.1f ms, write %.1f ms, "
                "swap %.1f ms, total %.1f ms",
                static_cast<long long>(snapshot_id), static_cast<long long>(sequence_number), attempts,
                attempts == 1 ? "" : "s", conflicts, conflicts == 1 ? "" : "s", validate_ms, write_ms, swap_ms,
                total_ms);
  std::string out = buf;
  if (idempotent_replay) out += " (idempotency key already committed: nothing written)";
  return out;
}

}  // namespace floe
