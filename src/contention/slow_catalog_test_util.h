// Test helper for the group commit tests (contention/ and server/): a catalog whose swap is held a
// while, so that commits pile up behind the one in flight, and which counts its swaps.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "catalog/fault_injecting_catalog.h"

namespace floe::testing_env {

class SlowCatalog : public FaultInjectingCatalog {
 public:
  SlowCatalog(std::unique_ptr<Catalog> inner, std::chrono::milliseconds hold)
      : FaultInjectingCatalog(std::move(inner)), hold_(hold) {}
  Result<LoadedTable> CommitTable(const TableCommit& commit) override {
    std::this_thread::sleep_for(hold_);
    ++swaps;
    return FaultInjectingCatalog::CommitTable(commit);
  }
  std::atomic<int> swaps{0};

 private:
  std::chrono::milliseconds hold_;
};

}  // namespace floe::testing_env
