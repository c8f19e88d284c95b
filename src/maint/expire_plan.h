// Which snapshots and refs an expiry removes: Iceberg's retention rules, as a pure function of
// one metadata document and the time.
//
//   refs     a branch or tag other than main whose snapshot is older than its max-ref-age-ms
//            (else history.expire.max-ref-age-ms; default: never) is removed;
//   branches each kept branch keeps the ancestors of its head, newest first, while fewer than
//            min-snapshots-to-keep are kept or the ancestor is not older than the cutoff; the
//            branch's own min-snapshots-to-keep / max-snapshot-age-ms override the defaults;
//   tags     each kept tag keeps its snapshot;
//   the rest a snapshot no kept ref reaches is kept while it is not older than the cutoff.
// The defaults come from history.expire.min-snapshots-to-keep (1) and
// history.expire.max-snapshot-age-ms (5 days); --retain-last and --older-than replace them.
// Every other snapshot is expired. A snapshot a kept ref needs is therefore never expired.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meta/table_metadata.h"

namespace floe {

struct RetentionOptions {
  std::optional<int64_t> older_than_ms;  // the default cutoff instead of now - max-snapshot-age-ms
  std::optional<int64_t> retain_last;    // the default min-snapshots-to-keep
};

struct ExpirePlan {
  std::vector<int64_t> expired_snapshot_ids;  // in the document's order
  std::vector<std::string> removed_refs;
  bool empty() const { return expired_snapshot_ids.empty() && removed_refs.empty(); }
};

// Checks the options (InvalidArgument naming the argument: an older-than in the future, a
// retain-last below 1) and the table's expiry properties (InvalidArgument naming the property).
Status CheckRetentionOptions(const RetentionOptions& options, int64_t now_ms);

Result<ExpirePlan> PlanExpiry(const TableMetadata& table, const RetentionOptions& options, int64_t now_ms);

}  // namespace floe
