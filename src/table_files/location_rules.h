// Invariant 8's rules over locations: where a namespace's tables, a table's paths and anything an
// administrator allowed may lie. The server checks every location a request sets with them
// (server/location_confinement.h, which finds the namespace's properties and the table's current
// location in the catalog); a purge checks every file it deletes against the table's location
// the same way (table_files/purge.h).
//
// A namespace's default location is <warehouse>/<level>/<level>...; a table's location must lie
// inside its namespace's location; every path set for a table (write.data.path,
// write.metadata.path, write.object-storage.path, write.folder-storage.path, a snapshot's
// manifest-list and v1 manifests, statistics and partition-statistics files) must lie inside the
// table's location. Anything under an allowed prefix (`floe serve --allow-location`) is fine
// anywhere. Locations are compared normalized (table_files/location_scope.h), never as strings.
// A refusal is InvalidArgument naming the field and both locations.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "meta/table_update.h"
#include "table_files/location_scope.h"

namespace floe {

class LocationRules {
 public:
  // InvalidArgument when the warehouse or an allowed prefix is not a usable location.
  static Result<LocationRules> Create(const std::string& warehouse, const std::vector<std::string>& allowed);

  const NormalLocation& warehouse() const { return warehouse_; }
  // <warehouse>/<levels>: a namespace's default location.
  NormalLocation NamespaceDefault(const std::vector<std::string>& levels) const;

  // Ok when `location` lies in one of `scopes` or under an allowed prefix; the refusal names
  // `field` and the first scope as `scope_name` <scope>.
  Status CheckWithin(std::string_view field, std::string_view location, const std::vector<NormalLocation>& scopes,
                     std::string_view scope_name) const;
  // The path properties (LocationProperties) among `properties` lie inside the table's location.
  Status CheckTablePaths(const std::map<std::string, std::string>& properties, const NormalLocation& table,
                         std::string_view table_text) const;
  // Every path `updates` set for the table at `table_location`: added snapshots' manifest lists
  // and v1 manifests, statistics files and path properties.
  Status CheckUpdatePaths(const std::vector<TableUpdate>& updates, const std::string& table_location) const;

 private:
  NormalLocation warehouse_;
  std::vector<NormalLocation> allowed_;
};

// The table properties that name a folder the table writes into.
const std::vector<std::string>& LocationProperties();

// NormalizeLocation with a refusal that names `field` and quotes the location.
Result<NormalLocation> NormalizeField(std::string_view field, std::string_view location);

// `text` in quotes, cut at 300 bytes: a location from a request, shown in an error.
std::string QuotedLocation(std::string_view text);

}  // namespace floe
