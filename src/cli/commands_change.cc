// delete and update: the rows matching a filter. Built on include/floe alone.
#include "cli/commands.h"
#include "cli/write_args.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

// --where as a Filter that binds to `table`: a filter that does not parse or bind (an unknown
// column, a value of the wrong type) is a bad argument, exit status 2, nothing changed.
std::optional<Filter> WhereFor(CliContext& ctx, const std::string& where, int* exit_status) {
  auto filter = Filter::Parse(where);
  if (!filter) {
    *exit_status = ctx.Usage("--where: " + filter.error().message);
    return std::nullopt;
  }
  return std::move(*filter);
}

int CheckBinds(CliContext& ctx, const Table& table, const Filter& filter) {
  auto bound = table.CheckFilter(filter);
  if (bound) return kExitOk;
  if (bound.error().kind == ErrorKind::kInvalidArgument) return ctx.Usage("--where: " + bound.error().message);
  return ctx.Fail(bound.error());
}

struct DeleteCommand {
  WriteArgs write;
  std::string where;
  int Run(CliContext& ctx) const {
    int exit_status = kExitOk;
    if (auto valid = Connection::CheckTableName(write.table); !valid) return ctx.Usage(valid.error().message);
    auto filter = WhereFor(ctx, where, &exit_status);
    if (!filter) return exit_status;
    auto table = ctx.OpenTable(write.table, &exit_status);
    if (!table) return exit_status;
    if (int bad = CheckBinds(ctx, *table, *filter); bad != kExitOk) return bad;
    auto info = table->Delete(*filter, write.ToWriteOptions());
    if (!info) return ctx.Fail(info.error());
    PrintCommit("delete", table->name(), *info);
    return kExitOk;
  }
};

struct UpdateCommand {
  WriteArgs write;
  std::string set, where;
  int Run(CliContext& ctx) const {
    int exit_status = kExitOk;
    if (auto valid = Connection::CheckTableName(write.table); !valid) return ctx.Usage(valid.error().message);
    auto filter = WhereFor(ctx, where, &exit_status);
    if (!filter) return exit_status;
    if (auto sets = CheckAssignments(set); !sets) return ctx.Usage("--set: " + sets.error().message);
    auto table = ctx.OpenTable(write.table, &exit_status);
    if (!table) return exit_status;
    if (int bad = CheckBinds(ctx, *table, *filter); bad != kExitOk) return bad;
    auto info = table->Update(*filter, set, write.ToWriteOptions());
    if (!info) return ctx.Fail(info.error());
    PrintCommit("update", table->name(), *info);
    return kExitOk;
  }
};

}  // namespace

void RegisterChangeCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* del = app.add_subcommand("delete", "delete the rows matching a filter");
  auto& d = ctx.Keep<DeleteCommand>();
  AddWriteOptions(del, &d.write);
  del->add_option("--where", d.where, "e.g. \"country = 'DE' AND order_id % 2 = 0\"")->required();
  OnRun(del, exit_status, [&ctx, &d] { return d.Run(ctx); });

  auto* update = app.add_subcommand("update", "set columns of the rows matching a filter");
  auto& u = ctx.Keep<UpdateCommand>();
  AddWriteOptions(update, &u.write);
  update->add_option("--set", u.set, "'col = expr, ...', e.g. 'amount_cents = amount_cents * 2'")->required();
  update->add_option("--where", u.where, "the rows to change")->required();
  OnRun(update, exit_status, [&ctx, &u] { return u.Run(ctx); });
}

}  // namespace floe::cli
