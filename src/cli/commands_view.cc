// floe view create|list|show|replace|rename|drop|history: Iceberg views. Built on include/floe
// alone (floe/view.h).
#include <ctime>
#include <iostream>

#include "cli/commands.h"
#include "cli/output.h"
#include "floe/floe.h"
#include "floe/view.h"

namespace floe::cli {
namespace {

#define FLOE_CLI_CONNECT(var)  \
  auto var = ctx.connection(); \
  if (!var) return ctx.Fail(var.error())

std::string ViewTimeText(int64_t ms) {
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

int PrintViewListing(CliContext& ctx, const Listing& listing, const std::string& format_text) {
  auto format = ParseOutputFormat(format_text);
  if (!format) return ctx.Usage(format.error().message);
  PrintListing(listing, *format, std::cout);
  return kExitOk;
}

// create and replace share their options.
struct ViewWrite {
  bool replace = false;
  std::string name, sql, dialect = "spark", schema, comment, default_namespace;
  int Run(CliContext& ctx) const {
    auto id = Connection::CheckTableName(name);
    if (!id) return ctx.Usage(id.error().message);
    if (sql.find_first_not_of(" \t\r\n") == std::string::npos) return ctx.Usage("--sql is empty");
    if (dialect.empty()) return ctx.Usage("--dialect is empty (e.g. spark, trino)");
    FLOE_CLI_CONNECT(connection);
    Views views(**connection);
    ViewDefinition definition{sql, dialect, schema, comment, {}, default_namespace};
    auto done = replace ? views.Replace(name, definition) : views.Create(name, definition);
    if (!done) return ctx.Fail(done.error());
    std::cout << (replace ? "replaced view " : "created view ") << done->name << ": version "
              << done->current_version_id << "\n";
    return kExitOk;
  }
};

struct ViewList {
  std::string ns, format = "table";
  int Run(CliContext& ctx) const {
    if (auto valid = Connection::CheckNamespaceName(ns); !valid) return ctx.Usage(valid.error().message);
    FLOE_CLI_CONNECT(connection);
    auto names = Views(**connection).List(ns);
    if (!names) return ctx.Fail(names.error());
    Listing listing{{"namespace", "view"}, {}};
    for (const auto& n : *names) {
      size_t dot = n.rfind('.');
      listing.rows.push_back({n.substr(0, dot), n.substr(dot + 1)});
    }
    return PrintViewListing(ctx, listing, format);
  }
};

struct ViewShow {
  std::string name;
  int version = -1;  // -1: the current one
  int Run(CliContext& ctx) const {
    auto id = Connection::CheckTableName(name);
    if (!id) return ctx.Usage(id.error().message);
    FLOE_CLI_CONNECT(connection);
    auto view = Views(**connection).Load(name);
    if (!view) return ctx.Fail(view.error());
    const int wanted = version < 0 ? view->current_version_id : version;
    const ViewVersionInfo* v = view->Version(wanted);
    if (!v) {
      return ctx.Fail(Error{ErrorKind::kNotFound, "view " + view->name + " keeps no version " + std::to_string(wanted)});
    }
    std::cout << "view " << view->name << "\n"
              << "uuid " << view->uuid << "\n"
              << "location " << view->location << "\n"
              << "metadata " << view->metadata_location << "\n"
              << "version " << v->version_id << (v->version_id == view->current_version_id ? " (current)" : "")
              << " of " << ViewTimeText(v->timestamp_ms) << "\n"
              << "default namespace " << v->default_namespace << "\n"
              << "schema " << v->schema << "\n";
    for (const auto& [dialect, sql] : v->sql_by_dialect) std::cout << "sql (" << dialect << ") " << sql << "\n";
    for (const auto& [k, value] : view->properties) std::cout << "property " << k << "=" << value << "\n";
    return kExitOk;
  }
};

struct ViewHistory {
  std::string name, format = "table";
  int Run(CliContext& ctx) const {
    auto id = Connection::CheckTableName(name);
    if (!id) return ctx.Usage(id.error().message);
    FLOE_CLI_CONNECT(connection);
    auto view = Views(**connection).Load(name);
    if (!view) return ctx.Fail(view.error());
    Listing listing{{"made_current_at", "version", "current", "dialects"}, {}};
    for (const auto& entry : view->history) {
      const ViewVersionInfo* v = view->Version(entry.version_id);
      std::string dialects;
      if (v) {
        for (const auto& [dialect, sql] : v->sql_by_dialect) dialects += (dialects.empty() ? "" : ",") + dialect;
      }
      listing.rows.push_back({ViewTimeText(entry.timestamp_ms), entry.version_id,
                              entry.version_id == view->current_version_id, v ? dialects : "(expired)"});
    }
    return PrintViewListing(ctx, listing, format);
  }
};

struct ViewRename {
  std::string from, to;
  int Run(CliContext& ctx) const {
    auto from_id = Connection::CheckTableName(from);
    if (!from_id) return ctx.Usage(from_id.error().message);
    auto to_id = Connection::CheckTableName(to);
    if (!to_id) return ctx.Usage(to_id.error().message);
    FLOE_CLI_CONNECT(connection);
    if (auto st = Views(**connection).Rename(from, to); !st) return ctx.Fail(st.error());
    std::cout << "renamed view " << *from_id << " to " << *to_id << "\n";
    return kExitOk;
  }
};

struct ViewDrop {
  std::string name;
  int Run(CliContext& ctx) const {
    auto id = Connection::CheckTableName(name);
    if (!id) return ctx.Usage(id.error().message);
    FLOE_CLI_CONNECT(connection);
    if (auto st = Views(**connection).Drop(name); !st) return ctx.Fail(st.error());
    std::cout << "dropped view " << *id << "\n";
    return kExitOk;
  }
};

#undef FLOE_CLI_CONNECT

void AddViewDefinitionOptions(CLI::App* cmd, ViewWrite& w) {
  cmd->add_option("VIEW", w.name, "NS.VIEW")->required();
  cmd->add_option("--sql", w.sql, "the view's query")->required();
  cmd->add_option("--dialect", w.dialect, "the SQL's dialect (spark, trino, ...)")->default_val("spark");
  cmd->add_option("--schema", w.schema, "the query's columns, e.g. 'day date, total long'");
  cmd->add_option("--comment", w.comment, "the view's comment property");
  cmd->add_option("--default-namespace", w.default_namespace, "where unqualified names resolve (default: the view's)");
}

// The --help footer every command shows (help_examples.cc holds the other commands').
void ViewExample(CLI::App* cmd, const std::string& example) { cmd->footer("\nExample:\n  " + example); }

}  // namespace

void RegisterViewCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* view = app.add_subcommand("view", "Iceberg views: create, list, show, replace, rename, drop, history");
  view->require_subcommand(1);
  ViewExample(view, "floe view list sales");

  auto& c = ctx.Keep<ViewWrite>();
  auto* create = view->add_subcommand("create", "create a view");
  AddViewDefinitionOptions(create, c);
  ViewExample(create, "floe view create sales.big --sql 'SELECT id FROM sales.orders WHERE amount > 100' "
                  "--schema 'id long' --comment 'large orders'");
  OnRun(create, exit_status, [&ctx, &c] { return c.Run(ctx); });

  auto& r = ctx.Keep<ViewWrite>();
  r.replace = true;
  auto* replace = view->add_subcommand("replace", "add a version of the view and make it current");
  AddViewDefinitionOptions(replace, r);
  ViewExample(replace, "floe view replace sales.big --sql 'SELECT id FROM orders WHERE amount > 100' --dialect trino");
  OnRun(replace, exit_status, [&ctx, &r] { return r.Run(ctx); });

  auto& l = ctx.Keep<ViewList>();
  auto* list = view->add_subcommand("list", "list the views of a namespace");
  list->add_option("NS", l.ns, "namespace")->required();
  ViewExample(list, "floe view list sales --format json");
  list->add_option("--format", l.format, "table, csv, jsonl or json")->default_val("table");
  OnRun(list, exit_status, [&ctx, &l] { return l.Run(ctx); });

  auto& s = ctx.Keep<ViewShow>();
  auto* show = view->add_subcommand("show", "a view's SQL, schema and properties");
  show->add_option("VIEW", s.name, "NS.VIEW")->required();
  ViewExample(show, "floe view show sales.big --version 1");
  show->add_option("--version", s.version, "a version id (default: the current one)");
  OnRun(show, exit_status, [&ctx, &s] { return s.Run(ctx); });

  auto& h = ctx.Keep<ViewHistory>();
  auto* history = view->add_subcommand("history", "when each version became current");
  history->add_option("VIEW", h.name, "NS.VIEW")->required();
  ViewExample(history, "floe view history sales.big");
  history->add_option("--format", h.format, "table, csv, jsonl or json")->default_val("table");
  OnRun(history, exit_status, [&ctx, &h] { return h.Run(ctx); });

  auto& n = ctx.Keep<ViewRename>();
  auto* rename = view->add_subcommand("rename", "rename a view");
  rename->add_option("FROM", n.from, "NS.VIEW")->required();
  ViewExample(rename, "floe view rename sales.big sales.large");
  rename->add_option("TO", n.to, "NS.VIEW")->required();
  OnRun(rename, exit_status, [&ctx, &n] { return n.Run(ctx); });

  auto& d = ctx.Keep<ViewDrop>();
  auto* drop = view->add_subcommand("drop", "drop a view");
  drop->add_option("VIEW", d.name, "NS.VIEW")->required();
  ViewExample(drop, "floe view drop sales.large");
  OnRun(drop, exit_status, [&ctx, &d] { return d.Run(ctx); });
}

}  // namespace floe::cli
