// The JSON forms of view metadata and its parts, per the Iceberg view spec (format 1).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "meta/view_metadata.h"

namespace floe {

// Parses a view metadata document and checks it (ViewMetadata::Validate). Every field the spec
// requires must be there with its type ("view metadata: missing required field
// 'current-version-id'"); a table's metadata document is refused as "not a view metadata
// document: this is a table". Error kind: Corrupt, or NotSupported for a format version other
// than 1.
Result<ViewMetadata> ParseViewMetadata(std::string_view json_text);
Result<ViewMetadata> ViewMetadataFromJson(const nlohmann::json& j);
// Compact JSON in Iceberg Java's key order (view-uuid, format-version, location, properties,
// schemas, current-version-id, versions, version-log); re-reads to the same value.
std::string WriteViewMetadata(const ViewMetadata& m);
nlohmann::json ViewMetadataToJson(const ViewMetadata& m);

// One version, as the REST add-view-version update and the document carry it. Errors:
// InvalidArgument naming the field.
Result<ViewVersion> ViewVersionFromJson(const nlohmann::json& j);
nlohmann::json ViewVersionToJson(const ViewVersion& v);

}  // namespace floe
