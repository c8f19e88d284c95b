#include "meta/metadata_tolerance.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "util/warning.h"

namespace floe::internal {
namespace {

// Every top-level field of the spec's table metadata, v1 to v3.
constexpr std::array<std::string_view, 25> kKnownFields = {
    "format-version",   "table-uuid",       "location",          "last-sequence-number",
    "last-updated-ms",  "last-column-id",   "schema",            "schemas",
    "current-schema-id", "partition-spec",  "partition-specs",   "default-spec-id",
    "last-partition-id", "properties",      "current-snapshot-id", "snapshots",
    "snapshot-log",     "metadata-log",     "sort-orders",       "default-sort-order-id",
    "refs",             "statistics",       "partition-statistics", "next-row-id",
    "encryption-keys",
};

std::string Where(const TableMetadata& m) { return "the metadata of the table at " + m.location; }

void RaiseLastColumnId(TableMetadata& m) {
  int highest = m.last_column_id;
  const Schema* culprit = nullptr;
  for (const Schema& s : m.schemas) {
    if (s.HighestFieldId() > highest) {
      highest = s.HighestFieldId();
      culprit = &s;
    }
  }
  if (!culprit) return;
  Warn(Where(m) + " has last-column-id " + std::to_string(m.last_column_id) + ", lower than field id " +
       std::to_string(highest) + " in schema " + std::to_string(culprit->schema_id()) + "; read as " +
       std::to_string(highest) + " (floe's next commit writes it so)");
  m.last_column_id = highest;
}

void WarnUnknownFields(const nlohmann::json& j, const TableMetadata& m) {
  std::string unknown;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (std::find(kKnownFields.begin(), kKnownFields.end(), it.key()) != kKnownFields.end()) continue;
    unknown += (unknown.empty() ? "" : ", ") + it.key();
  }
  if (!unknown.empty()) {
    Warn(Where(m) + " has fields floe does not know (" + unknown + "); they are ignored and not written back");
  }
}

}  // namespace

void TolerateOnRead(const nlohmann::json& j, TableMetadata& m) {
  RaiseLastColumnId(m);
  if (j.is_object()) WarnUnknownFields(j, m);
}

}  // namespace floe::internal
