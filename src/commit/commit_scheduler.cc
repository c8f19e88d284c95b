#include "commit/commit_scheduler.h"

#include <algorithm>
#include <random>

namespace floe {
namespace {

class UnscheduledPacing : public CommitScheduler::Pacing {
 public:
  int64_t FirstAttemptWaitUs(const RetryPolicy&, bool) override { return 0; }
  int64_t LostAttemptWaitUs(const RetryPolicy& policy, int64_t) override {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    const int64_t window_us = std::max<int64_t>(policy.min_wait_ms, 0) * 1000;
    return std::uniform_int_distribution<int64_t>(0, window_us)(rng);
  }
  void Landed(int64_t, int64_t) override {}
  void Loaded(int64_t) override {}
};

class Unscheduled : public CommitScheduler {
 public:
  Pacing& PacingOf(const std::string&) override { return pacing_; }
  std::string TurnKeyOf(const TableMetadata&) override { return {}; }
  std::unique_ptr<Turn> TakeTurn(const std::string&, const void*) override { return nullptr; }
  Result<SharedTable> CommitAppend(Catalog& catalog, const TableCommit& commit, const ManifestListNamer&) override {
    return catalog.CommitSharedTable(commit);
  }

 private:
  UnscheduledPacing pacing_;
};

}  // namespace

CommitScheduler& UnscheduledCommits() {
  static Unscheduled unscheduled;
  return unscheduled;
}

}  // namespace floe
