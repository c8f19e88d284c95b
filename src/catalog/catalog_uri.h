// Catalog URIs: which backend, where its database or warehouse is, and floe's own options.
//
//   sqlite:///abs/catalog.db   sqlite://rel/catalog.db   sqlite:rel/catalog.db
//   postgresql://user@host:port/db[?warehouse=/path]   (postgres:// too)
//   file:///abs/warehouse   file://rel/warehouse
//   s3://BUCKET/PREFIX      (the storage catalog on S3)
//   http://host:port[/prefix]   https://...
// Query parameters floe itself understands (taken out before a PostgreSQL URI goes to libpq):
//   warehouse=<path or URI>   the catalog's warehouse location (s3://BUCKET/PREFIX for S3)
//   catalog=<name>            the catalog name (CatalogOptions::name wins when set otherwise)
//   s3.*                      S3 settings by PyIceberg's names (io/s3_config.h): s3.endpoint,
//                             s3.region, s3.access-key-id, s3.secret-access-key,
//                             s3.session-token, s3.path-style-access
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "floe/result.h"

namespace floe {

struct CatalogUri {
  std::string scheme;  // lower case, "postgres" normalized to "postgresql"
  std::string path;    // sqlite/file: the database or warehouse path; s3: the whole s3:// URI (query removed)
  std::map<std::string, std::string> floe_params;  // warehouse, catalog, s3.* (percent-decoded)
  std::string backend_uri;  // the URI without floe's parameters (what libpq gets)
};

Result<CatalogUri> ParseCatalogUri(std::string_view uri);

}  // namespace floe
