// Where a REST request may make the server read and write: confinement of every location a
// request can set.
//
// A namespace's location is <warehouse>/<level>/<level>... or its `location` property, which
// must itself lie there. A table's location must lie inside its namespace's location; every
// path a commit sets for the table (write.data.path, write.metadata.path,
// write.object-storage.path, write.folder-storage.path, a snapshot's manifest-list and v1
// manifests, statistics and partition-statistics files) must lie inside the table's location.
// Anything under a prefix the administrator allowed (`floe serve --allow-location`) is fine
// anywhere. The rules themselves, and the normalized comparison of locations, are
// table_files/location_rules.h's; this class finds what they are applied to in the catalog.
//
// A refusal is InvalidArgument naming the field and both locations; it is checked before the
// catalog is asked to do anything, so nothing is written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "table_files/location_rules.h"

namespace floe {

class LocationConfinement {
 public:
  // InvalidArgument when the warehouse or an allowed prefix is not a usable location.
  static Result<LocationConfinement> Create(const std::string& warehouse, const std::vector<std::string>& allowed);

  // <warehouse>/<ns levels>.
  NormalLocation NamespaceDefault(const Namespace& ns) const;

  // A namespace's `location` property (create or update): inside its default location.
  Status CheckNamespaceLocation(const Namespace& ns, std::string_view location) const;
  // A table about to be created (its location, default or given, and its path properties).
  Status CheckCreateTable(Catalog& catalog, const TableIdentifier& id, const std::string& location,
                          const Properties& properties) const;
  // Every location a commit sets; the table's current location comes from the catalog when the
  // commit does not set one. A table that does not exist yet (a staged create) must set it.
  Status CheckCommit(Catalog& catalog, const TableCommit& commit) const;
  // Register: the document inside the namespace's location, its own `location` too, and not a
  // document (current or in the metadata log) of another table that could own it (see the
  // .cc). Reads the document first; its contents are never quoted in an error.
  Status CheckRegister(Catalog& catalog, const TableIdentifier& id, const std::string& metadata_location) const;

 private:
  // Where the tables of `ns` may live: its default location and its `location` property.
  Result<std::vector<NormalLocation>> NamespaceScopes(Catalog& catalog, const Namespace& ns) const;
  // The namespaces whose default location (<warehouse>/<levels>) lies above one of `locations`.
  std::vector<Namespace> NamespacesAbove(const std::vector<NormalLocation>& locations) const;

  LocationRules rules_;
};

}  // namespace floe
