// A readable JSON rendering of a manifest or manifest list, for `floe inspect`.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "meta/table_metadata.h"
#include "floe/result.h"

namespace floe {

// Detects from the Avro schema whether `bytes` hold a manifest or a manifest list and renders
// it: {"kind": "manifest" | "manifest-list", "path", "format-version", "metadata", ...} with
// "entries" (manifest) or "manifests" (list). Partition values and column bounds are decoded to
// Iceberg's JSON single-value form (dates as "2024-01-02", ...) when their types are known from
// the file or from `table` (may be null); otherwise bytes print as hex. Values are shown as
// written: no inheritance from a manifest list.
Result<nlohmann::json> DescribeAvroFile(std::string_view bytes, std::string_view path, const TableMetadata* table);

}  // namespace floe
