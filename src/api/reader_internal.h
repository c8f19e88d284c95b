// What floe/table_folder.h, floe/table_reader.h and floe/scan_export.h hold: a table's metadata,
// the FileIO its files are read through and, for a catalog's table, the catalog to reload it
// from. Only src/api/ sees these.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "floe/scan.h"
#include "floe/scan_export.h"
#include "floe/table_folder.h"
#include "floe/table_reader.h"
#include "scan/scan_options.h"
#include "scan/static_table.h"
#include "scan/table_scan.h"

namespace floe {

struct TableFolder::Impl {
  std::string location;
  std::string folder;  // FolderOf(location)
  std::shared_ptr<FileIO> io;
  StaticTable table;
};

struct TableReader::Impl {
  std::shared_ptr<FileIO> io;
  std::string metadata_location;
  TableMetadata metadata;
  // Set when loaded from a catalog: a file missing mid-read is then checked against the
  // table's newest metadata (its snapshot may have been expired meanwhile).
  std::shared_ptr<Catalog> catalog;
  TableIdentifier id;
};

struct ScanExport::Impl {
  std::shared_ptr<const TableReader::Impl> table;
  ScanOptions options;
  ScanPlan plan;
  std::vector<std::string> columns;
};

// The snapshot selectors, filter, columns and limit of `request` as the scan room takes them.
ScanOptions ToScanOptions(const ScanRequest& request);

// A JSON value as a listing cell: a string as its bytes, anything else as its JSON text
// (ill-formed UTF-8 inside an object printed as U+FFFD, never thrown on).
ListedCell ToListedCell(const nlohmann::json& value);
// Row `row` of `column` as a listing cell: nested values as their compact human JSON text
// (types/nested_json.h), struct fields in field order.
ListedCell ToListedCell(const Column& column, size_t row);

// `error`, or when it is a file missing mid-read of a catalog's table whose snapshot is no
// longer in the table, NotFound saying that snapshot was expired while the read ran.
Error ExplainMissingFile(const TableReader::Impl& table, const ScanOptions& options, const Error& error);

}  // namespace floe
