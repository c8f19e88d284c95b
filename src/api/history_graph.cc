#include "api/history_graph.h"

#include <algorithm>

#include "scan/history_layout.h"
#include "types/temporal.h"

namespace floe {
namespace {

std::string SummaryCount(const Snapshot& s, const char* added, const char* removed, const char* noun) {
  auto get = [&](const char* key) {
    auto it = s.summary.find(key);
    return it == s.summary.end() || it->second == "0" ? std::string() : it->second;
  };
  std::string plus = get(added), minus = get(removed);
  if (plus.empty() && minus.empty()) return "";
  std::string out = "  ";
  if (!plus.empty()) out += "+" + plus;
  if (!minus.empty()) out += (plus.empty() ? "-" : " -") + minus;
  return out + " " + noun;
}

std::string Describe(const Snapshot& s, const std::vector<std::string>& labels) {
  std::string out = std::to_string(s.snapshot_id);
  if (!labels.empty()) {
    out += " (";
    for (size_t i = 0; i < labels.size(); ++i) out += (i ? ", " : "") + labels[i];
    out += ")";
  }
  out += " " + FormatCommitTime(s.timestamp_ms);
  std::string op = s.operation();
  if (!op.empty()) out += " " + op;
  out += SummaryCount(s, "added-data-files", "deleted-data-files", "files");
  out += SummaryCount(s, "added-delete-files", "removed-delete-files", "delete files");
  out += SummaryCount(s, "added-records", "deleted-records", "rows");
  return out;
}

// The row's own line: '*' in its lane, '|' in the others.
std::string StarLine(const HistoryRow& row) {
  std::string out;
  for (size_t i = 0; i < row.lanes; ++i) out += std::string(i ? " " : "") + (i == row.lane ? '*' : '|');
  return out;
}

// The line between a row and the next, or "" when every lane goes straight down: a lane that
// moves left (joining another, or closing a gap) leans '/'.
std::string TransitionLine(const HistoryRow& row) {
  bool straight = true;
  for (const auto& [from, to] : row.edges) straight = straight && from == to;
  if (straight) return "";
  std::string out(2 * row.lanes, ' ');
  for (const auto& [from, to] : row.edges) {
    if (from == to) out[2 * from] = '|';
    else out[2 * from - 1] = '/';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::vector<std::string> DrawHistoryGraph(const TableMetadata& table) {
  std::vector<std::string> lines;
  for (const HistoryRow& row : LayoutHistory(table)) {
    lines.push_back(StarLine(row) + " " + Describe(*row.snapshot, row.labels));
    std::string between = TransitionLine(row);
    if (!between.empty()) lines.push_back(between);
  }
  return lines;
}

}  // namespace floe
