// Table's branches and tags (floe/refs.h) over txn/snapshot_refs.
#include "api/api_internal.h"
#include "commit/snapshot_refs.h"

namespace floe {
namespace {

// What `name` points at in `table` once a change landed.
RefInfo RefOf(const LoadedTable& table, const std::string& name) {
  RefInfo info;
  info.name = name;
  auto it = table.metadata.refs.find(name);
  if (it != table.metadata.refs.end()) {
    info.is_tag = it->second.type == RefType::kTag;
    info.snapshot_id = it->second.snapshot_id;
  }
  return info;
}

}  // namespace

Result<std::vector<RefInfo>> Table::Refs() const {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, impl_->catalog->LoadTable(impl_->id));
  std::vector<RefInfo> out;
  for (const auto& [name, ref] : table.metadata.refs) out.push_back(RefOf(table, name));
  return out;
}

Result<RefInfo> Table::CreateBranch(const std::string& name, std::optional<int64_t> snapshot_id) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, floe::CreateBranch(*impl_->catalog, impl_->id, name, snapshot_id));
  return RefOf(table, name);
}

Result<RefInfo> Table::CreateTag(const std::string& name, std::optional<int64_t> snapshot_id) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, floe::CreateTag(*impl_->catalog, impl_->id, name, snapshot_id));
  return RefOf(table, name);
}

Status Table::DropBranch(const std::string& name) {
  FLOE_RETURN_IF_ERROR(floe::DropBranch(*impl_->catalog, impl_->id, name));
  return Ok();
}

Status Table::DropTag(const std::string& name) {
  FLOE_RETURN_IF_ERROR(floe::DropTag(*impl_->catalog, impl_->id, name));
  return Ok();
}

Result<RefInfo> Table::RollbackTo(int64_t snapshot_id, const std::string& branch) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, floe::RollbackTo(*impl_->catalog, impl_->id, snapshot_id, branch));
  return RefOf(table, branch);
}

Result<RefInfo> Table::RollbackToTime(int64_t timestamp_ms, const std::string& branch) {
  FLOE_ASSIGN_OR_RETURN(LoadedTable table, floe::RollbackToTime(*impl_->catalog, impl_->id, timestamp_ms, branch));
  return RefOf(table, branch);
}

Result<CommitInfo> Table::CherryPick(int64_t snapshot_id, const WriteOptions& options) {
  CommitOptions commit;
  commit.branch = options.branch;
  commit.idempotency_key = options.idempotency_key;
  commit.before_swap = options.before_swap;
  FLOE_ASSIGN_OR_RETURN(CommitReport report, floe::CherryPick(*impl_->catalog, impl_->id, snapshot_id, commit));
  return ToCommitInfo(report);
}

}  // namespace floe
