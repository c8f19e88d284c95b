// History: rollback, branch, tag and cherry-pick. Built on include/floe alone.
#include <iostream>

#include "cli/commands.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

// Runs `change` on table `name`, printing what it returns; a refusal of the arguments
// (InvalidArgument) is a usage error.
int OnPublicTable(CliContext& ctx, const std::string& name, const std::function<Result<std::string>(Table&)>& change) {
  int exit_status = kExitOk;
  auto table = ctx.OpenTable(name, &exit_status);
  if (!table) return exit_status;
  auto done = change(*table);
  if (!done) {
    if (done.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage(done.error().message);
    return ctx.Fail(done.error());
  }
  std::cout << *done << "\n";
  return kExitOk;
}

struct RollbackCommand {
  std::string table, to, branch = "main";

  int Run(CliContext& ctx) const {
    bool digits = !to.empty() && to.find_first_not_of("0123456789") == std::string::npos;
    int64_t when = 0;
    if (!digits) {
      auto ms = ParseTimestampMs(to);
      if (!ms) return ctx.Usage("--to: " + ms.error().message);
      when = *ms;
    }
    return OnPublicTable(ctx, table, [&](Table& t) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(RefInfo ref, digits ? t.RollbackTo(std::stoll(to), branch) : t.RollbackToTime(when, branch));
      return "rolled " + branch + " of " + t.name() + " back to snapshot " + std::to_string(ref.snapshot_id);
    });
  }
};

struct RefCommand {
  bool is_tag = false, drop = false;
  std::string table, name;
  int64_t at = -1;  // create: the snapshot (default: the current one)

  int Run(CliContext& ctx) const {
    return OnPublicTable(ctx, table, [&](Table& t) -> Result<std::string> {
      std::string what = is_tag ? "tag " : "branch ";
      if (drop) {
        FLOE_RETURN_IF_ERROR(is_tag ? t.DropTag(name) : t.DropBranch(name));
        return "dropped " + what + name + " of " + t.name();
      }
      std::optional<int64_t> snapshot = at >= 0 ? std::optional<int64_t>(at) : std::nullopt;
      FLOE_ASSIGN_OR_RETURN(RefInfo ref, is_tag ? t.CreateTag(name, snapshot) : t.CreateBranch(name, snapshot));
      return "created " + what + name + " of " + t.name() + " at snapshot " + std::to_string(ref.snapshot_id);
    });
  }
};

struct CherryPickCommand {
  std::string table, branch = "main";
  int64_t snapshot_id = 0;

  int Run(CliContext& ctx) const {
    return OnPublicTable(ctx, table, [&](Table& t) -> Result<std::string> {
      FLOE_ASSIGN_OR_RETURN(CommitInfo info, t.CherryPick(snapshot_id, {.branch = branch}));
      return "cherry-picked " + std::to_string(snapshot_id) + " onto " + branch + ": " + info.summary;
    });
  }
};

}  // namespace

void RegisterRefCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* rollback = app.add_subcommand("rollback", "set main back to an earlier snapshot (id or time)");
  auto& rb = ctx.Keep<RollbackCommand>();
  rollback->add_option("TABLE", rb.table, "NS.TABLE")->required();
  rollback->add_option("--to", rb.to, "SNAPSHOT_ID or a time (2026-01-01T10:00:00)")->required();
  rollback->add_option("--branch", rb.branch, "the branch to move")->default_val("main");
  OnRun(rollback, exit_status, [&ctx, &rb] { return rb.Run(ctx); });

  for (const bool is_tag : {false, true}) {
    auto* group = app.add_subcommand(is_tag ? "tag" : "branch", is_tag ? "create or drop tags" : "create or drop branches");
    group->require_subcommand(1);
    for (const bool drop : {false, true}) {
      auto* cmd = group->add_subcommand(drop ? "drop" : "create", drop ? "drop it" : "create it");
      auto& ref = ctx.Keep<RefCommand>();
      ref.is_tag = is_tag;
      ref.drop = drop;
      cmd->add_option("TABLE", ref.table, "NS.TABLE")->required();
      cmd->add_option("NAME", ref.name, "the ref's name")->required();
      if (!drop) cmd->add_option("--at", ref.at, "SNAPSHOT_ID (default: the current snapshot)");
      OnRun(cmd, exit_status, [&ctx, &ref] { return ref.Run(ctx); });
    }
  }

  auto* pick = app.add_subcommand("cherry-pick", "apply a snapshot's changes to main as a new snapshot");
  auto& cp = ctx.Keep<CherryPickCommand>();
  pick->add_option("TABLE", cp.table, "NS.TABLE")->required();
  pick->add_option("SNAPSHOT_ID", cp.snapshot_id, "the snapshot to apply")->required();
  pick->add_option("--branch", cp.branch, "the branch to apply it to")->default_val("main");
  OnRun(pick, exit_status, [&ctx, &cp] { return cp.Run(ctx); });
}

}  // namespace floe::cli
