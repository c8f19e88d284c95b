// Catalog URIs: which backend, where its database or warehouse is, and floe's own options.
//
//   sqlite:///abs/catalog.db   sqlite://rel/catalog.db   sqlite:rel/catalog.db
//   postgresql://user@host:port/db[?warehouse=/path]   (postgres:// too)
//   file:///abs/warehouse   file://rel/warehouse
//   http://host:port[/prefix]   https://...
// Query parameters floe itself understands (taken out before a PostgreSQL URI goes to libpq):
//   warehouse=<path or URI>   the catalog's warehouse location
//   catalog=<name>            the catalog name (CatalogOptions::name wins when set otherwise)
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "util/result.h"

namespace floe {

struct CatalogUri {
  std::string scheme;  // lower case, "postgres" normalized to "postgresql"
  std::string path;    // sqlite/file: the database or warehouse path (query removed)
  std::map<std::string, std::string> floe_params;  // warehouse, catalog (percent-decoded)
  std::string backend_uri;  // the URI without floe's parameters (what libpq gets)
};

Result<CatalogUri> ParseCatalogUri(std::string_view uri);

}  // namespace floe
