// Table maintenance: expire-snapshots, remove-orphan-files, rewrite-data-files,
// rewrite-manifests and maintain (the table's own policy, in a safe order). Built on
// include/floe alone.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "cli/progress.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

// TIME as the maintenance commands take it: milliseconds since the epoch, or an ISO timestamp
// (2026-01-01T10:00:00, UTC unless it has an offset).
Result<int64_t> ParseTimeArgument(const std::string& option, const std::string& text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() > 18) return InvalidArgument(option + " '" + text + "': too large for a time in ms");
    return std::stoll(text);
  }
  auto ms = ParseTimestampMs(text);
  if (!ms) return InvalidArgument(option + " '" + text + "': not a time (ISO timestamp or ms): " + ms.error().message);
  return *ms;
}
// A test hook: with FLOE_TEST_PAUSE_AFTER_EXPIRE_COMMIT=FILE an expiry creates FILE once its
// commit landed and then waits, so a test can kill it between its commit and its deletes.
std::function<void()> PauseHookFromEnvironment() {
  const char* marker = std::getenv("FLOE_TEST_PAUSE_AFTER_EXPIRE_COMMIT");
  if (!marker || !*marker) return nullptr;
  std::string path = marker;
  return [path] {
    if (FILE* f = std::fopen(path.c_str(), "w")) std::fclose(f);
    std::this_thread::sleep_for(std::chrono::seconds(60));
  };
}

// A test hook: with FLOE_TEST_PAUSE_AFTER_DELETES=FILE:N a sweep creates FILE once N or more
// files are deleted (deletes go in batches, so at the end of the batch that reached N) and then
// waits, so a test can kill it mid-way.
class PauseAfterDeletes {
 public:
  PauseAfterDeletes() {
    const char* v = std::getenv("FLOE_TEST_PAUSE_AFTER_DELETES");
    spec_ = v ? v : "";
  }
  void operator()(int64_t done) {
    size_t colon = spec_.rfind(':');
    if (paused_ || colon == std::string::npos || done < std::atoll(spec_.substr(colon + 1).c_str())) return;
    paused_ = true;
    if (FILE* f = std::fopen(spec_.substr(0, colon).c_str(), "w")) std::fclose(f);
    std::this_thread::sleep_for(std::chrono::seconds(60));
  }

 private:
  std::string spec_;
  bool paused_ = false;
};

void PrintFiles(const char* kind, const std::vector<std::string>& files) {
  for (const auto& f : files) std::cout << "  " << kind << " " << f << "\n";
}

struct ExpireArgs {
  std::string table;
  std::string older_than;
  std::optional<int64_t> retain_last;
  bool dry_run = false;
};

int RunExpire(CliContext& ctx, const ExpireArgs& args) {
  if (auto valid = Connection::CheckTableName(args.table); !valid) return ctx.Usage(valid.error().message);
  ExpireSnapshotsOptions options;
  options.dry_run = args.dry_run;
  if (!args.older_than.empty()) {
    auto t = ParseTimeArgument("--older-than", args.older_than);
    if (!t) return ctx.Usage(t.error().message);
    options.older_than_ms = *t;
  }
  options.retain_last = args.retain_last;
  if (Status ok = CheckExpireSnapshotsOptions(options); !ok) return ctx.Usage(ok.error().message);
  int exit_status = kExitOk;
  auto table = ctx.OpenTable(args.table, &exit_status);
  if (!table) return exit_status;
  options.after_commit = PauseHookFromEnvironment();
  Progress progress(ctx.stderr_is_terminal(), "expire-snapshots: deleting");
  options.on_progress = [&](int64_t done, int64_t) { progress.Update(0, 0, done); };
  auto result = table->ExpireSnapshots(options);
  progress.Finish();
  if (!result) return ctx.Fail(result.error());
  const char* verb = args.dry_run ? "would expire" : "expired";
  std::cout << "expire-snapshots " << table->name() << ": " << verb << " " << result->expired_snapshot_ids.size()
            << " snapshots";
  if (!result->removed_refs.empty()) std::cout << " and " << result->removed_refs.size() << " refs";
  std::cout << "; " << (args.dry_run ? "would delete " : "deleted ") << result->files() << " files ("
            << result->content_files.size() << " data/delete, " << result->manifests.size() << " manifests, "
            << result->manifest_lists.size() << " manifest lists, " << result->statistics.size() << " statistics)";
  if (result->interrupted_expiries_finished) {
    std::cout << "; finished " << result->interrupted_expiries_finished << " interrupted expiries";
  }
  std::cout << "\n";
  for (int64_t sid : result->expired_snapshot_ids) std::cout << "  snapshot " << sid << "\n";
  for (const auto& ref : result->removed_refs) std::cout << "  ref " << ref << "\n";
  if (args.dry_run) {
    PrintFiles("file", result->content_files);
    PrintFiles("manifest", result->manifests);
    PrintFiles("manifest-list", result->manifest_lists);
    PrintFiles("statistics", result->statistics);
  }
  for (const auto& failure : result->delete_failures) std::cerr << "floe: could not delete: " << failure << "\n";
  return result->delete_failures.empty() ? kExitOk : kExitError;
}

struct OrphanArgs {
  std::string table;
  std::string older_than;
  std::string location;
  bool dry_run = false;
  bool from_intents = false;
};

int RunOrphans(CliContext& ctx, const OrphanArgs& args) {
  if (auto valid = Connection::CheckTableName(args.table); !valid) return ctx.Usage(valid.error().message);
  RemoveOrphanFilesOptions options;
  options.dry_run = args.dry_run;
  options.from_intents = args.from_intents;
  if (!args.older_than.empty()) {
    auto t = ParseTimeArgument("--older-than", args.older_than);
    if (!t) return ctx.Usage(t.error().message);
    options.older_than_ms = *t;
  }
  if (!args.location.empty()) options.location = args.location;
  int exit_status = kExitOk;
  auto table = ctx.OpenTable(args.table, &exit_status);
  if (!table) return exit_status;
  Progress progress(ctx.stderr_is_terminal(), "remove-orphan-files: deleting");
  PauseAfterDeletes pause;
  options.on_progress = [&](int64_t done, int64_t) {
    progress.Update(0, 0, done);
    pause(done);
  };
  auto result = table->RemoveOrphanFiles(options);
  progress.Finish();
  if (!result) {
    if (result.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(result.error().message);
    return ctx.Fail(result.error());
  }
  std::cout << "remove-orphan-files " << table->name() << ": " << (args.dry_run ? "would delete " : "deleted ")
            << result->orphans.size() << " orphan files (";
  if (args.from_intents) {
    std::cout << result->intents_read << " intent records read, " << result->intents_cleared
              << " stale intents cleared, " << result->young_intents_kept << " intents younger than the window kept, "
              << result->referenced_kept << " recorded files referenced, " << result->metadata_documents_read
              << " metadata documents read; nothing listed)\n";
  } else {
    std::cout << result->files_listed << " files listed, " << result->metadata_documents_read
              << " metadata documents read, " << result->young_files_kept
              << " unreached files younger than the window kept)\n";
  }
  if (args.dry_run) PrintFiles("orphan", result->orphans);
  for (const auto& failure : result->delete_failures) std::cerr << "floe: could not delete: " << failure << "\n";
  return result->delete_failures.empty() ? kExitOk : kExitError;
}

struct RewriteArgs {
  std::string table;
  std::string where;
  int64_t target_file_size = 0;
  int min_input_files = 2;
  bool partial_progress = false;
  int max_commits = 10;
  bool all = false;
};

int RunRewriteDataFiles(CliContext& ctx, const RewriteArgs& args) {
  if (auto valid = Connection::CheckTableName(args.table); !valid) return ctx.Usage(valid.error().message);
  RewriteDataFilesOptions options;
  if (!args.where.empty()) {
    auto filter = Filter::Parse(args.where);
    if (!filter) return ctx.Usage("--where: " + filter.error().message);
    options.filter = *filter;
  }
  options.target_file_size_bytes = args.target_file_size;
  options.min_input_files = args.min_input_files;
  options.partial_progress = args.partial_progress;
  options.max_commits = args.max_commits;
  options.rewrite_all = args.all;
  int exit_status = kExitOk;
  auto table = ctx.OpenTable(args.table, &exit_status);
  if (!table) return exit_status;
  Progress progress(ctx.stderr_is_terminal(), "rewrite-data-files: groups");
  options.on_progress = [&](int64_t done, int64_t) { progress.Update(0, 0, done); };
  auto result = table->RewriteDataFiles(options);
  progress.Finish();
  if (!result) {
    if (result.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(result.error().message);
    return ctx.Fail(result.error());
  }
  int committed = 0;
  for (const auto& g : result->groups) committed += g.committed ? 1 : 0;
  std::cout << "rewrite-data-files " << table->name() << ": ";
  if (result->groups.empty()) {
    std::cout << "nothing to rewrite\n";
    return kExitOk;
  }
  std::cout << committed << " of " << result->groups.size() << " file groups committed in " << result->commits
            << " commits: " << result->data_files_rewritten << " files rewritten into " << result->data_files_added
            << ", " << result->delete_files_removed << " delete files dropped, " << result->rows_rewritten
            << " rows\n";
  for (const auto& g : result->groups)
    if (!g.committed) std::cerr << "floe: " << g.error << "\n";
  return committed == static_cast<int>(result->groups.size()) ? kExitOk : kExitRefused;
}

struct TableArgs {
  std::string table;
  bool dry_run = false;  // maintain
};

int RunRewriteManifests(CliContext& ctx, const TableArgs& args) {
  int exit_status = kExitOk;
  auto table = ctx.OpenTable(args.table, &exit_status);
  if (!table) return exit_status;
  auto result = table->RewriteManifests();
  if (!result) return ctx.Fail(result.error());
  std::cout << "rewrite-manifests " << table->name() << ": ";
  if (!result->committed) {
    std::cout << "nothing to regroup\n";
  } else {
    std::cout << result->manifests_replaced << " manifests regrouped into " << result->manifests_written << " ("
              << result->entries << " entries); " << result->commit.summary << "\n";
  }
  return kExitOk;
}

int RunMaintain(CliContext& ctx, const TableArgs& args) {
  int exit_status = kExitOk;
  auto table = ctx.OpenTable(args.table, &exit_status);
  if (!table) return exit_status;
  MaintainOptions options;
  options.dry_run = args.dry_run;
  std::unique_ptr<Progress> progress;
  std::string step;
  options.on_progress = [&](const std::string& now, int64_t done, int64_t) {
    if (now != step) {
      if (progress) progress->Finish();
      step = now;
      progress = std::make_unique<Progress>(ctx.stderr_is_terminal(), "maintain: " + now);
    }
    progress->Update(0, 0, done);
  };
  auto report = table->Maintain(options);
  if (progress) progress->Finish();
  if (!report) return ctx.Fail(report.error());
  std::cout << "maintain " << table->name() << ": " << report->summary << "\n";
  return report->step_errors.empty() ? kExitOk : kExitRefused;
}

}  // namespace

void RegisterMaintenanceCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* expire = app.add_subcommand("expire-snapshots",
                                    "remove old snapshots (a commit), then delete the files only they reached");
  ExpireArgs& expire_args = ctx.Keep<ExpireArgs>();
  expire->add_option("TABLE", expire_args.table, "NS.TABLE")->required();
  expire->add_option("--older-than", expire_args.older_than,
                     "expire snapshots older than TIME (ISO timestamp or ms; default: now - "
                     "history.expire.max-snapshot-age-ms, 5 days)");
  expire->add_option("--retain-last", expire_args.retain_last,
                     "keep at least this many ancestors of each branch head (default: "
                     "history.expire.min-snapshots-to-keep, 1)");
  expire->add_flag("--dry-run", expire_args.dry_run, "list what would be expired and deleted; change nothing");
  OnRun(expire, exit_status, [&ctx, &expire_args] { return RunExpire(ctx, expire_args); });

  auto* orphans = app.add_subcommand("remove-orphan-files",
                                     "delete files under the table's location that no metadata reaches");
  OrphanArgs& orphan_args = ctx.Keep<OrphanArgs>();
  orphans->add_option("TABLE", orphan_args.table, "NS.TABLE")->required();
  orphans->add_option("--older-than", orphan_args.older_than,
                      "only files older than TIME (ISO timestamp or ms; default: 3 days ago, or "
                      "floe.maintenance.orphan-older-than-ms)");
  orphans->add_option("--location", orphan_args.location, "only files under this prefix of the table's location");
  orphans->add_flag("--dry-run", orphan_args.dry_run, "list the orphans; delete nothing");
  orphans->add_flag("--from-intents", orphan_args.from_intents,
                    "reclaim only what the stale write intents of crashed or killed writers name; list no storage");
  OnRun(orphans, exit_status, [&ctx, &orphan_args] { return RunOrphans(ctx, orphan_args); });

  auto* rewrite = app.add_subcommand("rewrite-data-files", "compact small files per partition, deletes applied");
  RewriteArgs& rewrite_args = ctx.Keep<RewriteArgs>();
  rewrite->add_option("TABLE", rewrite_args.table, "NS.TABLE")->required();
  rewrite->add_option("--where", rewrite_args.where, "only files that may hold rows matching FILTER");
  rewrite->add_option("--target-file-size", rewrite_args.target_file_size,
                      "BYTES new files roll at (default write.target-file-size-bytes)");
  rewrite->add_option("--min-input-files", rewrite_args.min_input_files,
                      "rewrite a partition once it has this many small files")
      ->default_val(rewrite_args.min_input_files);
  rewrite->add_flag("--partial-progress", rewrite_args.partial_progress,
                    "commit file groups separately (partial-progress.enabled): a conflict costs one commit's groups");
  rewrite->add_option("--max-commits", rewrite_args.max_commits,
                      "with --partial-progress, at most this many commits (partial-progress.max-commits)")
      ->default_val(rewrite_args.max_commits);
  rewrite->add_flag("--all", rewrite_args.all, "rewrite every file, whatever its size");
  OnRun(rewrite, exit_status, [&ctx, &rewrite_args] { return RunRewriteDataFiles(ctx, rewrite_args); });

  auto* manifests = app.add_subcommand("rewrite-manifests", "regroup a table's manifests by partition");
  TableArgs& manifests_args = ctx.Keep<TableArgs>();
  manifests->add_option("TABLE", manifests_args.table, "NS.TABLE")->required();
  OnRun(manifests, exit_status, [&ctx, &manifests_args] { return RunRewriteManifests(ctx, manifests_args); });

  auto* maintain = app.add_subcommand("maintain",
                                      "run the table's maintenance: expire, remove orphans, compact, regroup manifests");
  TableArgs& maintain_args = ctx.Keep<TableArgs>();
  maintain->add_option("TABLE", maintain_args.table, "NS.TABLE")->required();
  maintain->add_flag("--dry-run", maintain_args.dry_run, "only list what expiry and orphan removal would delete");
  OnRun(maintain, exit_status, [&ctx, &maintain_args] { return RunMaintain(ctx, maintain_args); });
}

}  // namespace floe::cli
