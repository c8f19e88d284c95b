#include "commit/commit_base.h"

#include <utility>

#include "util/clock.h"

namespace floe {

Result<std::shared_ptr<CommitBase>> CommitBase::Load(Catalog& catalog, const TableIdentifier& id) {
  const int64_t loaded_us = MonotonicMicros();
  FLOE_ASSIGN_OR_RETURN(SharedTable table, catalog.LoadSharedTable(id));
  table.id = id;  // the name the writer's commit will use
  return std::make_shared<CommitBase>(std::move(table), loaded_us);
}

Result<std::shared_ptr<CommitBase>> CommitBase::HandedOrLoad(Catalog& catalog, const TableIdentifier& id,
                                                              const std::shared_ptr<CommitBase>& handed) {
  if (handed) {
    std::lock_guard lock(handed->mu_);
    if (!handed->taken_ && handed->id_ == id) return handed;
  }
  return Load(catalog, id);
}

CommitBase::CommitBase(SharedTable table, int64_t loaded_us)
    : id_(std::move(table.id)),
      metadata_location_(std::move(table.metadata_location)),
      metadata_(std::move(table.metadata)),
      view_(metadata_.get()),
      loaded_us_(loaded_us) {}

std::shared_ptr<const TableMetadata> CommitBase::KeepAlive() {
  std::lock_guard lock(mu_);
  return metadata_;
}

std::optional<SharedTable> CommitBase::Take(const TableIdentifier& id, int64_t* loaded_us) {
  std::lock_guard lock(mu_);
  if (taken_ || !metadata_ || !(id == id_)) return std::nullopt;
  taken_ = true;
  // Too old, it stays here (the writer may still be reading it) and the engine loads afresh.
  if (MonotonicMicros() - loaded_us_ > kHandedBaseMaxAgeUs) return std::nullopt;
  *loaded_us = loaded_us_;
  return SharedTable{id_, metadata_location_, std::move(metadata_)};
}

}  // namespace floe
