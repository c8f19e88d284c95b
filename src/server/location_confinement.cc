#include "server/location_confinement.h"

#include <algorithm>
#include <set>

#include "table_files/metadata_document.h"

namespace floe {
Result<LocationConfinement> LocationConfinement::Create(const std::string& warehouse,
                                                        const std::vector<std::string>& allowed) {
  LocationConfinement out;
  FLOE_ASSIGN_OR_RETURN(out.rules_, LocationRules::Create(warehouse, allowed));
  return out;
}

NormalLocation LocationConfinement::NamespaceDefault(const Namespace& ns) const { return rules_.NamespaceDefault(ns); }

Status LocationConfinement::CheckNamespaceLocation(const Namespace& ns, std::string_view location) const {
  return rules_.CheckWithin("namespace property location", location, {NamespaceDefault(ns)},
                     "the default location of namespace " + NamespaceToString(ns));
}

Result<std::vector<NormalLocation>> LocationConfinement::NamespaceScopes(Catalog& catalog, const Namespace& ns) const {
  std::vector<NormalLocation> scopes{NamespaceDefault(ns)};
  auto props = catalog.LoadNamespaceProperties(ns);
  if (!props) return std::unexpected(props.error());
  auto it = props->find("location");
  if (it != props->end() && !it->second.empty()) {
    // A property set before confinement existed counts only where it would be allowed now.
    if (CheckNamespaceLocation(ns, it->second)) {
      FLOE_ASSIGN_OR_RETURN(auto normal, NormalizeField("namespace property location", it->second));
      scopes.push_back(std::move(normal));
    }
  }
  return scopes;
}

Status LocationConfinement::CheckCreateTable(Catalog& catalog, const TableIdentifier& id, const std::string& location,
                                             const Properties& properties) const {
  FLOE_ASSIGN_OR_RETURN(auto scopes, NamespaceScopes(catalog, id.ns));
  FLOE_RETURN_IF_ERROR(rules_.CheckWithin("location", location, scopes, "the location of namespace " + NamespaceToString(id.ns)));
  FLOE_ASSIGN_OR_RETURN(NormalLocation table, NormalizeField("location", location));
  return rules_.CheckTablePaths(properties, table, location);
}

Status LocationConfinement::CheckCommit(Catalog& catalog, const TableCommit& commit) const {
  std::optional<std::string> location;
  for (const auto& update : commit.updates) {
    if (const auto* set = std::get_if<SetLocation>(&update)) location = set->location;
  }
  if (location) {
    FLOE_ASSIGN_OR_RETURN(auto scopes, NamespaceScopes(catalog, commit.id.ns));
    FLOE_RETURN_IF_ERROR(rules_.CheckWithin("set-location", *location, scopes,
                                     "the location of namespace " + NamespaceToString(commit.id.ns)));
  } else {
    auto current = catalog.LoadSharedTable(commit.id);
    if (!current) {
      // No table: a staged create must set its location; anything else the catalog refuses.
      if (current.error().kind != ErrorKind::kNotFound) return std::unexpected(current.error());
      for (const auto& r : commit.requirements) {
        if (std::holds_alternative<AssertCreate>(r)) return InvalidArgument("a commit that creates a table must set-location");
      }
      return Ok();
    }
    location = current->metadata->location;
  }
  return rules_.CheckUpdatePaths(commit.updates, *location);
}

std::vector<Namespace> LocationConfinement::NamespacesAbove(const std::vector<NormalLocation>& locations) const {
  std::set<Namespace> out;
  for (const auto& location : locations) {
    if (!location.IsWithin(rules_.warehouse())) continue;
    Namespace ns;
    for (size_t i = rules_.warehouse().segments.size(); i < location.segments.size() && ns.size() < kMaxNamespaceDepth; ++i) {
      ns.push_back(location.segments[i]);
      if (ValidateNamespace(ns)) out.insert(ns);
    }
  }
  return std::vector<Namespace>(out.begin(), out.end());
}

Status LocationConfinement::CheckRegister(Catalog& catalog, const TableIdentifier& id,
                                          const std::string& metadata_location) const {
  FLOE_ASSIGN_OR_RETURN(auto scopes, NamespaceScopes(catalog, id.ns));
  const std::string ns_name = "the location of namespace " + NamespaceToString(id.ns);
  FLOE_RETURN_IF_ERROR(rules_.CheckWithin("metadata-location", metadata_location, scopes, ns_name));
  FLOE_ASSIGN_OR_RETURN(NormalLocation document, NormalizeField("metadata-location", metadata_location));

  // The document first: a missing or unreadable one is refused before any table is looked at.
  auto metadata = ReadMetadataFile(*catalog.io(), metadata_location);
  if (!metadata) {
    // The parser's message may quote the file's bytes: say only what kind of problem it is.
    if (metadata.error().kind == ErrorKind::kNotFound) {
      return InvalidArgument("metadata-location " + QuotedLocation(metadata_location) + " does not exist");
    }
    return InvalidArgument("metadata-location " + QuotedLocation(metadata_location) +
                           " is not a readable Iceberg table metadata document");
  }
  FLOE_RETURN_IF_ERROR(rules_.CheckWithin("the registered document's location", metadata->location, scopes, ns_name));
  FLOE_ASSIGN_OR_RETURN(NormalLocation table_location, NormalizeField("the registered document's location", metadata->location));

  // No other table's document, current or earlier: registering it would hand over its files.
  // The tables that can hold it are those of the target namespace and of the namespaces whose
  // default location lies above the document or its table: a cost bounded by the namespace
  // depth and those namespaces' tables, never by the catalog's size. (A table placed under an
  // --allow-location prefix by another namespace is not found this way: see README.)
  std::vector<Namespace> owners = NamespacesAbove({document, table_location});
  if (std::find(owners.begin(), owners.end(), id.ns) == owners.end()) owners.push_back(id.ns);
  for (const auto& ns : owners) {
    auto tables = catalog.ListTables(ns);
    if (!tables) {
      if (tables.error().kind == ErrorKind::kNotFound) continue;  // no such namespace
      return std::unexpected(tables.error());
    }
    for (const auto& other : *tables) {
      if (other == id) continue;  // the target itself: the catalog answers "already exists"
      auto table = catalog.LoadSharedTable(other);
      if (!table) continue;  // dropped meanwhile, or unreadable: it cannot be handed over
      std::vector<std::string> documents{table->metadata_location};
      for (const auto& entry : table->metadata->metadata_log) documents.push_back(entry.metadata_file);
      for (const auto& d : documents) {
        auto normal = NormalizeLocation(d);
        if (normal && *normal == document) {
          return InvalidArgument("metadata-location " + QuotedLocation(metadata_location) +
                                 " is a metadata document of table " + other.ToString() +
                                 "; register a copy made for the new table instead");
        }
      }
    }
  }
  return Ok();
}

}  // namespace floe
