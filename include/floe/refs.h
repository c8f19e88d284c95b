// Branches and tags: named pointers to snapshots (Table::CreateBranch, CreateTag, RollbackTo,
// CherryPick, ...). Writes go to a branch (WriteOptions::branch); a tag never moves. Reading a
// branch or tag, or a snapshot by id or time, is ScanRequest's business (time travel).
#pragma once

#include <cstdint>
#include <string>

namespace floe {

struct RefInfo {
  std::string name;
  bool is_tag = false;
  int64_t snapshot_id = 0;  // the snapshot it points at
};

}  // namespace floe
