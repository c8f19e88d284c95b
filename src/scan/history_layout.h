// The layout of a table's snapshot history as a graph, the way `git log --graph` lays out
// commits: one row per snapshot, newest first, one lane per line of descent. The CLI draws it
// with characters (floe history --graph), the server's web view as SVG; both draw this layout.
//
// Rows are ordered by sequence number (timestamps never order commits), then time, then id.
// Every snapshot of the document gets exactly one row; one that no ref reaches (left by a
// rollback or a dropped branch) starts a lane of its own. Lanes that wait for the same parent
// join at the parent's row.
#pragma once

#include <string>
#include <vector>

#include "meta/table_metadata.h"

namespace floe {

struct HistoryRow {
  const Snapshot* snapshot = nullptr;  // points into the TableMetadata laid out
  size_t lane = 0;                     // the snapshot's own lane
  size_t lanes = 0;                    // lanes drawn on this row
  // Ref names at this snapshot: "main" first, then other branches, then "tag: NAME".
  std::vector<std::string> labels;
  // How lanes continue to the next row: (lane on this row, lane on the next row). A lane that
  // joins another ends in that lane's next position; a lane whose last snapshot this is has no
  // edge.
  std::vector<std::pair<size_t, size_t>> edges;
};

std::vector<HistoryRow> LayoutHistory(const TableMetadata& table);

}  // namespace floe
