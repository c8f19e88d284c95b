#include "scan/history_layout.h"

#include <algorithm>
#include <map>
#include <set>

namespace floe {
namespace {

std::map<int64_t, std::vector<std::string>> RefLabels(const TableMetadata& table) {
  std::vector<std::pair<std::string, const SnapshotRef*>> refs;
  for (const auto& [name, ref] : table.refs) refs.emplace_back(name, &ref);
  auto rank = [](const std::pair<std::string, const SnapshotRef*>& r) {
    if (r.first == kMainBranch) return 0;
    return r.second->type == RefType::kBranch ? 1 : 2;
  };
  std::stable_sort(refs.begin(), refs.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  std::map<int64_t, std::vector<std::string>> labels;
  for (const auto& [name, ref] : refs) {
    labels[ref->snapshot_id].push_back(ref->type == RefType::kTag ? "tag: " + name : name);
  }
  return labels;
}

std::vector<const Snapshot*> NewestFirst(const TableMetadata& table) {
  std::vector<const Snapshot*> order;
  for (const Snapshot& s : table.snapshots) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](const Snapshot* a, const Snapshot* b) {
    if (a->sequence_number != b->sequence_number) return a->sequence_number > b->sequence_number;
    if (a->timestamp_ms != b->timestamp_ms) return a->timestamp_ms > b->timestamp_ms;
    return a->snapshot_id > b->snapshot_id;
  });
  return order;
}

}  // namespace

std::vector<HistoryRow> LayoutHistory(const TableMetadata& table) {
  std::set<int64_t> known;
  for (const Snapshot& s : table.snapshots) known.insert(s.snapshot_id);
  auto labels = RefLabels(table);

  // lanes[i] is the snapshot lane i waits for. Invariant between rows: no two lanes wait for
  // the same snapshot (the moment two would, the right one joins the left one).
  std::vector<int64_t> lanes;
  std::vector<HistoryRow> rows;
  for (const Snapshot* s : NewestFirst(table)) {
    auto waiting = std::find(lanes.begin(), lanes.end(), s->snapshot_id);
    if (waiting == lanes.end()) waiting = lanes.insert(lanes.end(), s->snapshot_id);
    HistoryRow row;
    row.snapshot = s;
    row.lane = static_cast<size_t>(waiting - lanes.begin());
    row.lanes = lanes.size();
    if (auto found = labels.find(s->snapshot_id); found != labels.end()) row.labels = found->second;

    // Where each lane of this row goes: on, into another lane, or nowhere.
    std::vector<size_t> into(lanes.size());
    for (size_t i = 0; i < lanes.size(); ++i) into[i] = i;
    std::vector<bool> kept(lanes.size(), true);
    if (s->parent_snapshot_id && known.count(*s->parent_snapshot_id) > 0) {
      lanes[row.lane] = *s->parent_snapshot_id;
      auto other = std::find(lanes.begin(), lanes.end(), *s->parent_snapshot_id);
      if (static_cast<size_t>(other - lanes.begin()) == row.lane) {
        other = std::find(other + 1, lanes.end(), *s->parent_snapshot_id);
      }
      if (other != lanes.end()) {
        size_t a = row.lane, b = static_cast<size_t>(other - lanes.begin());
        into[std::max(a, b)] = std::min(a, b);
        kept[std::max(a, b)] = false;
      }
    } else {
      kept[row.lane] = false;
      into[row.lane] = lanes.size();  // no edge
    }
    std::vector<size_t> next_index(lanes.size(), 0);
    std::vector<int64_t> next_lanes;
    for (size_t i = 0; i < lanes.size(); ++i) {
      next_index[i] = next_lanes.size();
      if (kept[i]) next_lanes.push_back(lanes[i]);
    }
    for (size_t i = 0; i < lanes.size(); ++i) {
      if (into[i] < lanes.size()) row.edges.emplace_back(i, next_index[into[i]]);
    }
    lanes = std::move(next_lanes);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace floe
