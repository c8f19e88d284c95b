// Namespaces (create, list, drop) and table names (list, drop, rename). Built on include/floe
// alone.
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/output.h"
#include "floe/floe.h"

namespace floe::cli {
namespace {

// "KEY=VALUE" options into a map; the message names `option`.
Result<std::map<std::string, std::string>> KeyValues(const std::vector<std::string>& pairs, const std::string& option) {
  std::map<std::string, std::string> out;
  for (const auto& pair : pairs) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) return InvalidArgument(option + " expects KEY=VALUE, got '" + pair + "'");
    out[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return out;
}

int PrintAs(CliContext& ctx, const Listing& listing, const std::string& format_text) {
  auto format = ParseOutputFormat(format_text);
  if (!format) return ctx.Usage(format.error().message);
  PrintListing(listing, *format, std::cout);
  return kExitOk;
}

// The connection, or the exit status of its failure.
#define FLOE_CLI_CONNECT(var)                        \
  auto var = ctx.connection();                       \
  if (!var) return ctx.Fail(var.error())

struct NamespaceCreate {
  std::string name;
  std::vector<std::string> properties;
  int Run(CliContext& ctx) const {
    auto ns = Connection::CheckNamespaceName(name);
    if (!ns) return ctx.Usage(ns.error().message);
    auto props = KeyValues(properties, "--property");
    if (!props) return ctx.Usage(props.error().message);
    FLOE_CLI_CONNECT(connection);
    if (auto st = (*connection)->CreateNamespace(name, *props); !st) return ctx.Fail(st.error());
    std::cout << "created namespace " << *ns << "\n";
    return kExitOk;
  }
};

struct NamespaceList {
  std::string parent, format = "table";
  int Run(CliContext& ctx) const {
    if (!parent.empty()) {
      if (auto ns = Connection::CheckNamespaceName(parent); !ns) return ctx.Usage(ns.error().message);
    }
    FLOE_CLI_CONNECT(connection);
    auto namespaces = (*connection)->ListNamespaces(parent);
    if (!namespaces) return ctx.Fail(namespaces.error());
    Listing listing{{"namespace"}, {}};
    for (const auto& ns : *namespaces) listing.rows.push_back({ns});
    return PrintAs(ctx, listing, format);
  }
};

struct NamespaceDrop {
  std::string name;
  int Run(CliContext& ctx) const {
    auto ns = Connection::CheckNamespaceName(name);
    if (!ns) return ctx.Usage(ns.error().message);
    FLOE_CLI_CONNECT(connection);
    if (auto st = (*connection)->DropNamespace(name); !st) return ctx.Fail(st.error());
    std::cout << "dropped namespace " << *ns << "\n";
    return kExitOk;
  }
};

struct TableList {
  std::string ns, format = "table";
  int Run(CliContext& ctx) const {
    FLOE_CLI_CONNECT(connection);
    std::vector<std::string> namespaces;
    if (!ns.empty()) {
      auto valid = Connection::CheckNamespaceName(ns);
      if (!valid) return ctx.Usage(valid.error().message);
      namespaces.push_back(ns);
    } else {
      auto all = (*connection)->ListNamespaces();
      if (!all) return ctx.Fail(all.error());
      namespaces = *all;
    }
    Listing listing{{"namespace", "table"}, {}};
    for (const auto& n : namespaces) {
      auto tables = (*connection)->ListTables(n);
      if (!tables) return ctx.Fail(tables.error());
      for (const auto& t : *tables) {
        size_t dot = t.rfind('.');  // "namespace.table": a table's own name has no '.'
        listing.rows.push_back({t.substr(0, dot), t.substr(dot + 1)});
      }
      // Views share the namespace's names; marked so they are not taken for tables. A catalog
      // that keeps no views (or a REST server without the view routes) lists the tables alone.
      auto views = Views(**connection).List(n);
      for (const auto& v : views.value_or(std::vector<std::string>{})) {
        size_t dot = v.rfind('.');
        listing.rows.push_back({v.substr(0, dot), v.substr(dot + 1) + " (view)"});
      }
    }
    return PrintAs(ctx, listing, format);
  }
};

struct TableDrop {
  std::string name;
  bool purge = false;
  int Run(CliContext& ctx) const {
    auto id = Connection::CheckTableName(name);
    if (!id) return ctx.Usage(id.error().message);
    FLOE_CLI_CONNECT(connection);
    if (auto st = (*connection)->DropTable(name, purge); !st) return ctx.Fail(st.error());
    std::cout << "dropped table " << *id << (purge ? " and its files" : "") << "\n";
    return kExitOk;
  }
};

struct TableRename {
  std::string from, to;
  int Run(CliContext& ctx) const {
    auto from_id = Connection::CheckTableName(from);
    if (!from_id) return ctx.Usage(from_id.error().message);
    auto to_id = Connection::CheckTableName(to);
    if (!to_id) return ctx.Usage(to_id.error().message);
    FLOE_CLI_CONNECT(connection);
    if (auto st = (*connection)->RenameTable(from, to); !st) return ctx.Fail(st.error());
    std::cout << "renamed " << *from_id << " to " << *to_id << "\n";
    return kExitOk;
  }
};

#undef FLOE_CLI_CONNECT

void AddFormat(CLI::App* cmd, std::string* format) {
  cmd->add_option("--format", *format, "table, csv, jsonl or json")->default_val("table");
}

}  // namespace

void RegisterNamespaceCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* ns_cmd = app.add_subcommand("namespace", "create, list and drop namespaces");
  ns_cmd->require_subcommand(1);

  auto* create = ns_cmd->add_subcommand("create", "create a namespace");
  auto& c = ctx.Keep<NamespaceCreate>();
  create->add_option("NS", c.name, "namespace, e.g. sales or sales.eu")->required();
  create->add_option("--property", c.properties, "KEY=VALUE, repeatable");
  OnRun(create, exit_status, [&ctx, &c] { return c.Run(ctx); });

  auto* list = ns_cmd->add_subcommand("list", "list namespaces");
  auto& l = ctx.Keep<NamespaceList>();
  list->add_option("PARENT", l.parent, "list the children of this namespace");
  AddFormat(list, &l.format);
  OnRun(list, exit_status, [&ctx, &l] { return l.Run(ctx); });

  auto* drop = ns_cmd->add_subcommand("drop", "drop an empty namespace");
  auto& d = ctx.Keep<NamespaceDrop>();
  drop->add_option("NS", d.name, "namespace")->required();
  OnRun(drop, exit_status, [&ctx, &d] { return d.Run(ctx); });
}

void RegisterTableNameCommands(CLI::App& app, CliContext& ctx, int* exit_status) {
  auto* list = app.add_subcommand("list", "list tables");
  auto& l = ctx.Keep<TableList>();
  list->add_option("NS", l.ns, "namespace (default: every namespace)");
  AddFormat(list, &l.format);
  OnRun(list, exit_status, [&ctx, &l] { return l.Run(ctx); });

  auto* drop = app.add_subcommand("drop", "drop a table");
  auto& d = ctx.Keep<TableDrop>();
  drop->add_option("TABLE", d.name, "NS.TABLE")->required();
  drop->add_flag("--purge", d.purge, "also delete the table's files");
  OnRun(drop, exit_status, [&ctx, &d] { return d.Run(ctx); });

  auto* rename = app.add_subcommand("rename", "rename a table");
  auto& r = ctx.Keep<TableRename>();
  rename->add_option("FROM", r.from, "NS.TABLE")->required();
  rename->add_option("TO", r.to, "NS.TABLE")->required();
  OnRun(rename, exit_status, [&ctx, &r] { return r.Run(ctx); });
}

}  // namespace floe::cli
