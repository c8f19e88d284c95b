// Iceberg views (view spec, format version 1): a view is a versioned SQL text with the schema
// of its result. Like a table, a view lives in one immutable metadata document per version of
// the view, and a catalog pointer names the current document; unlike a table it has no data.
//
// A version holds one SQL text per dialect ("spark", "trino", ...), the schema the query
// produces, and the catalog and namespace its unqualified names resolve in. The version log
// records when each version became current. Versions and the log are bounded by the property
// version.history.num-entries (ViewMetadataBuilder trims them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "types/schema.h"
#include "floe/result.h"

namespace floe {

inline constexpr int kViewFormatVersion = 1;
inline constexpr const char* kViewHistorySizeProperty = "version.history.num-entries";
inline constexpr int kViewHistorySizeDefault = 10;
// When false (the default), a replace that drops a dialect the current version has is refused.
inline constexpr const char* kViewDropDialectAllowedProperty = "replace.drop-dialect.allowed";

// One representation of a version's query. Type "sql" carries sql and dialect; any other type
// (a later spec's) is kept as its JSON text so that it survives a rewrite of the document.
struct ViewRepresentation {
  std::string type = "sql";
  std::string sql;
  std::string dialect;
  std::string unknown_json;  // the whole object, for a type other than "sql"

  bool operator==(const ViewRepresentation&) const = default;
};

struct ViewVersion {
  int version_id = 0;
  int64_t timestamp_ms = 0;
  int schema_id = 0;
  std::map<std::string, std::string> summary;  // "engine-name", "engine-version", ...
  std::vector<ViewRepresentation> representations;
  std::optional<std::string> default_catalog;
  std::vector<std::string> default_namespace;  // may be empty, never absent in the document

  // The SQL of `dialect` (compared without case), or nullptr.
  const ViewRepresentation* SqlFor(const std::string& dialect) const;
  // The lower-cased dialects of the version's SQL representations.
  std::vector<std::string> Dialects() const;
};

struct ViewHistoryEntry {
  int64_t timestamp_ms = 0;
  int version_id = 0;
};

struct ViewMetadata {
  std::string view_uuid;
  int format_version = kViewFormatVersion;
  std::string location;
  std::vector<Schema> schemas;
  int current_version_id = 0;
  std::vector<ViewVersion> versions;
  std::vector<ViewHistoryEntry> version_log;
  std::map<std::string, std::string> properties;

  const ViewVersion* Version(int version_id) const;
  const ViewVersion& CurrentVersion() const;  // Validate() guarantees it exists
  const Schema* SchemaById(int schema_id) const;
  const Schema& CurrentSchema() const;  // the current version's schema

  // The spec's rules: format version 1, a location, unique schema and version ids, a current
  // version that exists, every version's schema known, at most one SQL text per dialect in a
  // version, every representation of type sql with its sql and dialect. Error kind: Corrupt,
  // naming the field ("view metadata: current-version-id 3 names no version").
  Status Validate() const;
};

}  // namespace floe
