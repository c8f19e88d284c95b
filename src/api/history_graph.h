// A table's snapshot history (TableReader::HistoryGraph, floe/table_reader.h) drawn like `git log --graph` (layout: scan/history_layout.h):
//
//   * 7712... (main, tag: v2) 2026-12-01 10:02:11 overwrite  +1 -2 files  +10 -20 rows
//   | * 5120... (audit) 2026-12-01 10:01:40 append  +1 files  +5 rows
//   |/
//   * 4001... 2026-12-01 10:00:00 append  +2 files  +100 rows
#pragma once

#include <string>
#include <vector>

#include "meta/table_metadata.h"

namespace floe {

// The lines of the graph, without trailing newlines; whole snapshot ids (what rollback takes).
std::vector<std::string> DrawHistoryGraph(const TableMetadata& table);

}  // namespace floe
