// A table's maintenance policy, run in a safe order, once (floe maintain) or in the background
// for every table that asks for it (floe serve --maintain-every).
//
// The order: expire snapshots (the table's history.expire.* settings), remove orphan files
// (its safety window), compact small files (partial progress, so a concurrent delete costs one
// group), rewrite manifests (only once a branch head holds commit.manifest.min-count-to-merge
// data manifests). Expiry first, so orphan removal reads fewer documents and compaction does
// not rewrite what is about to be dropped; each step is safe beside live writers on its own.
// A round on a table that needs nothing commits nothing.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "catalog/catalog.h"
#include "maint/compaction.h"
#include "maint/expire_snapshots.h"
#include "maint/orphan_files.h"
#include "maint/rewrite_manifests.h"

namespace floe {

struct MaintenanceOptions {
  bool dry_run = false;  // expiry and orphan removal only list; nothing is rewritten
  // Progress of the step running ("expire", "orphans", "compact", "manifests").
  std::function<void(const std::string& step, int64_t done, int64_t total)> on_progress;
};

struct MaintenanceReport {
  ExpireResult expiry;
  OrphanResult orphans;
  CompactionResult compaction;
  RewriteManifestsResult manifests;
  std::vector<std::string> step_errors;  // "compact: ..." for a step that failed (later steps still ran)
  std::string Summary() const;
};

Result<MaintenanceReport> MaintainTable(Catalog& catalog, const TableIdentifier& id,
                                        const MaintenanceOptions& options = {});

// Runs MaintainTable every `every_ms` for each table (in every namespace) whose property
// floe.maintenance.enabled is true, on a thread of its own with a catalog of its own.
class MaintenanceLoop {
 public:
  using CatalogOpener = std::function<Result<std::unique_ptr<Catalog>>()>;
  using Log = std::function<void(const std::string&)>;

  MaintenanceLoop(CatalogOpener open, int64_t every_ms, Log log);
  ~MaintenanceLoop();  // stops

  void Start();
  void Stop();
  // One round over the catalog now (what the thread does every period).
  void RunRound();

 private:
  CatalogOpener open_;
  int64_t every_ms_;
  Log log_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// "30s", "10m", "2h", "1d" or plain milliseconds.
Result<int64_t> ParseDurationMs(const std::string& text);

}  // namespace floe
