// Views: Iceberg views (the view spec, format version 1) in any catalog a Connection opens.
//
//   floe::Views views(catalog);
//   FLOE_ASSIGN_OR_RETURN(floe::ViewInfo daily, views.Create("sales.daily", {
//       .sql = "SELECT day, sum(amount) FROM sales.orders GROUP BY day", .dialect = "spark",
//       .schema = "day date, total decimal(20,2)"}));
//
// A view is a versioned SQL text (one per dialect) with the schema of its result. Tables and
// views share one name space per namespace: a view may not take a table's name, nor the reverse.
// A replace adds a version and makes it current; two replaces racing each land as a version of
// their own (the loser reloads and applies its definition again), none is lost.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog.h"
#include "floe/result.h"

namespace floe {

struct ViewDefinition {
  std::string sql;
  std::string dialect = "spark";
  // The columns the query produces, as "day date, total decimal(20,2)". Empty: on create, a
  // view without columns (engines that check a view's columns then refuse it); on replace, the
  // current version's schema.
  std::string schema;
  // The view's "comment" property; empty: unchanged.
  std::string comment;
  std::map<std::string, std::string> properties;
  // Where unqualified names in the SQL resolve; empty: the view's own namespace.
  std::string default_namespace;
};

struct ViewVersionInfo {
  int version_id = 0;
  int64_t timestamp_ms = 0;
  std::map<std::string, std::string> sql_by_dialect;  // dialect (lower case) -> SQL
  std::string schema;                                 // as ViewDefinition::schema spells it
  std::string default_namespace;
  std::map<std::string, std::string> summary;
};

struct ViewLogEntry {
  int64_t timestamp_ms = 0;
  int version_id = 0;
};

struct ViewInfo {
  std::string name;  // "namespace.view"
  std::string uuid;
  std::string location;
  std::string metadata_location;
  int current_version_id = 0;
  std::vector<ViewVersionInfo> versions;  // the ones kept (version.history.num-entries)
  std::vector<ViewLogEntry> history;  // when each version became current, oldest first
  std::map<std::string, std::string> properties;

  const ViewVersionInfo* Version(int version_id) const;
  const ViewVersionInfo& Current() const;
};

class Views {
 public:
  explicit Views(const Connection& connection);

  // AlreadyExists ("Table with same name already exists: ns.v", "View already exists: ns.v");
  // NotFound: no such namespace; InvalidArgument: an empty SQL or dialect, a schema that
  // cannot be read.
  Result<ViewInfo> Create(const std::string& name, const ViewDefinition& definition);
  // NotFound ("View does not exist: ns.v").
  Result<ViewInfo> Load(const std::string& name) const;
  // A new current version with `definition`'s SQL for its dialect (the other dialects of the
  // current version are kept unless the SQL changed them), retried on a concurrent replace.
  Result<ViewInfo> Replace(const std::string& name, const ViewDefinition& definition);
  // Views of a namespace, as "namespace.view". NotFound: no such namespace.
  Result<std::vector<std::string>> List(const std::string& ns) const;
  Status Drop(const std::string& name);
  Status Rename(const std::string& from, const std::string& to);

 private:
  std::shared_ptr<Connection::Impl> impl_;
};

}  // namespace floe
