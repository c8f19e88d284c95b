// JSON forms shared by the metadata tables (internal to scan/).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meta/data_file.h"
#include "meta/table_metadata.h"

namespace floe {

nlohmann::json TimestampJson(int64_t ms);  // ISO 8601, UTC
nlohmann::json HexJson(std::string_view bytes);

template <typename Optional>  // a std::optional, or what reads like one (OptionalString)
nlohmann::json OptionalJson(const Optional& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// {partition field name: value} under the file's spec.
nlohmann::json PartitionJson(const TableMetadata& table, int spec_id, const std::vector<Literal>& partition);

// The files-table columns of one file, in order (see metadata_tables.h), readable_metrics last.
const std::vector<std::string>& FileColumns();
std::vector<nlohmann::json> FileRow(const TableMetadata& table, const Schema& schema, const DataFile& file);
// The same as one object, for entries.data_file.
nlohmann::json FileObject(const TableMetadata& table, const Schema& schema, const DataFile& file);
nlohmann::json ReadableMetrics(const Schema& schema, const DataFile& file);

}  // namespace floe
