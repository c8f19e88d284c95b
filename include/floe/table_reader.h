// TableReader: one state of a table, loaded once and then read as often as needed: its rows at
// any snapshot (floe/scan_export.h), its metadata tables and its history drawn as a graph. What
// the floe command's read commands (scan, snapshots, files, history --graph, ...) print.
//
// Loaded from a catalog's table or from a table folder (floe/table_folder.h). Every read of one
// TableReader sees the same metadata, however many commits land meanwhile; a read whose
// snapshot is expired while it runs returns NotFound naming that snapshot.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "floe/result.h"
#include "floe/scan.h"
#include "floe/scan_export.h"

namespace floe {

class Table;
class TableFolder;

// A metadata table: its columns and its rows, each parallel to columns (floe/scan_export.h's
// ListedCell: a partition or a summary is a JSON object).
struct MetadataRows {
  std::vector<std::string> columns;
  std::vector<std::vector<ListedCell>> rows;
};

class TableReader {
 public:
  // The table's current metadata, as the catalog has it now. NotFound: no such table.
  static Result<TableReader> Load(const Table& table);
  // The metadata the folder was opened at, read through its FileIO (moved paths included).
  static TableReader Of(const TableFolder& folder);

  // The metadata tables by name, in the order a listing shows them: snapshots, history, refs,
  // files, data_files, delete_files, manifests, partitions, entries, metadata_log_entries, ...
  static const std::vector<std::string>& MetadataTableNames();

  // Plans a scan: picks the snapshot, parses and binds the filter (request.where and
  // request.filter), prunes files. InvalidArgument: more than one snapshot selector, a filter
  // that does not parse or names an unknown column, an unknown column; NotFound: no such
  // snapshot, branch or tag, or no snapshot at as_of_ms. An empty table plans no rows.
  Result<ScanExport> PlanScan(const ScanRequest& request) const;

  // Metadata table `name` (MetadataTableNames) at the snapshot `at` selects (its filter,
  // columns and limit are not used). InvalidArgument: an unknown name; NotFound as PlanScan's.
  Result<MetadataRows> MetadataTable(const std::string& name, const ScanRequest& at = {}) const;

  // The snapshot history drawn like `git log --graph`, newest first, one string per line:
  //   * 7712... (main, tag: v2) 2026-12-01 10:02:11 overwrite  +1 -2 files  +10 -20 rows
  //   | * 5120... (audit) 2026-12-01 10:01:40 append  +1 files  +5 rows
  //   |/
  //   * 4001... 2026-12-01 10:00:00 append  +2 files  +100 rows
  std::vector<std::string> HistoryGraph() const;

  struct Impl;
  explicit TableReader(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace floe
