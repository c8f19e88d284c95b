#include "maint/maintenance.h"

#include <cctype>
#include <chrono>

#include "meta/table_properties.h"
#include "scan/manifest_reading.h"
#include "commit/commit_operation.h"

namespace floe {
namespace {

// Whether `table`'s main head holds enough data manifests to be worth regrouping.
Result<bool> ManifestsNeedRewrite(FileIO& io, const TableMetadata& table) {
  const Snapshot* head = table.CurrentSnapshot();
  if (!head) return false;
  FLOE_ASSIGN_OR_RETURN(int64_t threshold, table.CountProperty(props::kManifestMinMergeCount,
                                                               props::kManifestMinMergeCountDefault));
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifestList(io, table, *head));
  int64_t data = 0;
  for (const auto& m : manifests) data += m.content == ManifestContent::kData ? 1 : 0;
  return data >= std::max<int64_t>(2, threshold);
}

void ListTablesUnder(Catalog& catalog, const Namespace& ns, std::vector<TableIdentifier>& out) {
  if (!ns.empty()) {
    if (auto tables = catalog.ListTables(ns)) out.insert(out.end(), tables->begin(), tables->end());
  }
  auto children = catalog.ListNamespaces(ns);
  if (!children) return;
  for (const auto& child : *children)
    if (child.size() > ns.size()) ListTablesUnder(catalog, child, out);
}

}  // namespace

std::string MaintenanceReport::Summary() const {
  std::string s = "expired " + std::to_string(expiry.expired_snapshot_ids.size()) + " snapshots (" +
                  std::to_string(expiry.files.size()) + " files deleted), " + std::to_string(orphans.orphans.size()) +
                  " orphan files removed, ";
  int groups = 0;
  for (const auto& g : compaction.groups) groups += g.committed ? 1 : 0;
  s += std::to_string(groups) + " of " + std::to_string(compaction.groups.size()) + " file groups compacted (" +
       std::to_string(compaction.data_files_rewritten) + " files into " + std::to_string(compaction.data_files_added) +
       "), " + std::to_string(manifests.manifests_replaced) + " manifests regrouped into " +
       std::to_string(manifests.manifests_written);
  for (const auto& e : step_errors) s += "; " + e;
  return s;
}

Result<MaintenanceReport> MaintainTable(Catalog& catalog, const TableIdentifier& id, const MaintenanceOptions& options) {
  MaintenanceReport report;
  auto progress = [&](const char* step) {
    return [&options, step](int64_t done, int64_t total) {
      if (options.on_progress) options.on_progress(step, done, total);
    };
  };
  ExpireOptions expire;
  expire.dry_run = options.dry_run;
  expire.on_progress = progress("expire");
  auto expired = ExpireSnapshots(catalog, id, expire);
  if (!expired) return std::unexpected(expired.error().WithContext("expire-snapshots"));  // nothing else is safe to judge
  report.expiry = std::move(*expired);

  OrphanOptions orphans;
  orphans.dry_run = options.dry_run;
  orphans.on_progress = progress("orphans");
  if (auto r = RemoveOrphanFiles(catalog, id, orphans)) report.orphans = std::move(*r);
  else report.step_errors.push_back("remove-orphan-files: " + r.error().message);
  if (options.dry_run) return report;

  CompactionOptions compact;
  compact.partial_progress = true;
  compact.min_input_files = 5;  // Iceberg's rewrite-data-files default
  compact.on_progress = progress("compact");
  if (auto r = CompactTable(catalog, id, compact)) {
    report.compaction = std::move(*r);
    for (const auto& g : report.compaction.groups)
      if (!g.committed) report.step_errors.push_back("rewrite-data-files: " + g.error);
  } else {
    report.step_errors.push_back("rewrite-data-files: " + r.error().message);
  }

  auto table = catalog.LoadTable(id);
  if (!table) return std::unexpected(table.error());
  auto needed = ManifestsNeedRewrite(*catalog.io(), table->metadata);
  if (!needed) {
    report.step_errors.push_back("rewrite-manifests: " + needed.error().message);
  } else if (*needed) {
    if (auto r = RewriteManifests(catalog, id)) report.manifests = std::move(*r);
    else report.step_errors.push_back("rewrite-manifests: " + r.error().message);
  }
  return report;
}

MaintenanceLoop::MaintenanceLoop(CatalogOpener open, int64_t every_ms, Log log)
    : open_(std::move(open)), every_ms_(every_ms), log_(std::move(log)) {}

MaintenanceLoop::~MaintenanceLoop() { Stop(); }

void MaintenanceLoop::Start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      RunRound();
      lock.lock();
      wake_.wait_for(lock, std::chrono::milliseconds(every_ms_), [this] { return stopping_; });
    }
  });
}

void MaintenanceLoop::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void MaintenanceLoop::RunRound() {
  auto catalog = open_();
  if (!catalog) {
    log_("maintenance: cannot open the catalog: " + catalog.error().message);
    return;
  }
  std::vector<TableIdentifier> tables;
  ListTablesUnder(**catalog, {}, tables);
  for (const auto& id : tables) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    auto table = (*catalog)->LoadTable(id);
    if (!table) continue;
    auto enabled = table->metadata.BooleanProperty(props::kMaintenanceEnabled, false);
    if (!enabled) {
      log_("maintenance: " + id.ToString() + ": " + enabled.error().message);
      continue;
    }
    if (!*enabled) continue;
    auto report = MaintainTable(**catalog, id);
    if (report) log_("maintenance: " + id.ToString() + ": " + report->Summary());
    else log_("maintenance: " + id.ToString() + ": " + report.error().message);
  }
}

Result<int64_t> ParseDurationMs(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 12)
    return InvalidArgument("duration '" + text + "': expected a number with s, m, h or d (e.g. 10m), or ms");
  const int64_t n = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  int64_t scale = 0;
  if (unit.empty() || unit == "ms") scale = 1;
  else if (unit == "s") scale = 1000;
  else if (unit == "m") scale = 60 * 1000;
  else if (unit == "h") scale = 3600 * 1000;
  else if (unit == "d") scale = 24 * 3600 * 1000;
  else return InvalidArgument("duration '" + text + "': unknown unit '" + unit + "' (ms, s, m, h or d)");
  if (n * scale <= 0) return InvalidArgument("duration '" + text + "' must be positive");
  return n * scale;
}

}  // namespace floe
