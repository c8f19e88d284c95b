// Listings as the CLI prints them: an aligned table for people, csv / jsonl / json for scripts.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/result.h"
#include "floe/scan_export.h"

namespace floe::cli {

enum class OutputFormat { kTable, kCsv, kJsonl, kJson };

Result<OutputFormat> ParseOutputFormat(const std::string& text);

struct Listing {
  std::vector<std::string> columns;
  // Parallel to columns; null prints empty / null. Ordered so that a struct value's fields print
  // in field order.
  std::vector<std::vector<nlohmann::ordered_json>> rows;
};

// kJson prints one array of objects; kJsonl one object per line.
void PrintListing(const Listing& listing, OutputFormat format, std::ostream& out);

// The text format that prints `format` row by row (floe/scan_export.h); none for the table, whose
// column widths need every row first.
std::optional<ScanTextFormat> StreamedFormat(OutputFormat format);

// A JSON value as a table or CSV cell: strings unquoted, null as "null" (table) or "" (csv).
std::string CellText(const nlohmann::ordered_json& value, bool for_csv);

// A listed row (a scan's, a metadata table's, a file's) as the listing takes it: strings as they
// are, other values parsed from their JSON text.
std::vector<nlohmann::ordered_json> ListingRow(std::vector<ListedCell>&& cells);

}  // namespace floe::cli
