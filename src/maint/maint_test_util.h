// Test helpers for the maint room: what a table's files are on disk and what its snapshots
// reach, to check that maintenance deletes exactly the unreachable ones.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "maint/reachable_files.h"
#include "rows/table_test_util.h"

namespace floe::maint_test {

// Every file under `table_dir` (data/ and metadata/), as absolute paths.
inline std::set<std::string> FilesOnDisk(const std::string& table_dir) {
  std::set<std::string> out;
  if (!std::filesystem::exists(table_dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(table_dir))
    if (e.is_regular_file()) out.insert(e.path().string());
  return out;
}

// Manifest lists, manifests and live data/delete files of `snapshot_ids` of `table`.
inline std::set<std::string> ReachedBy(FileIO& io, const TableMetadata& table, const std::set<int64_t>& snapshot_ids) {
  std::vector<const Snapshot*> snapshots;
  for (const auto& s : table.snapshots)
    if (snapshot_ids.contains(s.snapshot_id)) snapshots.push_back(&s);
  ReachableFiles reach;
  EXPECT_TRUE(AddManifests(io, table, snapshots, reach).has_value());
  auto content = ContentFiles(io, table, reach.manifests, true);
  EXPECT_TRUE(content.has_value());
  std::set<std::string> out = reach.manifest_lists;
  for (const auto& [p, m] : reach.manifests) out.insert(p);
  if (content) out.insert(content->begin(), content->end());
  return out;
}

inline std::string LocalPathOf(const std::string& p) { return p.starts_with("file:") ? p.substr(p.find('/')) : p; }

// The local folder of a test table.
inline std::string TableDir(txn_test::OrdersTable& t) { return LocalPathOf(t.Metadata().location); }

// Commits land with distinct, increasing timestamps (so --older-than a snapshot is exact).
inline void Tick() { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }

}  // namespace floe::maint_test
