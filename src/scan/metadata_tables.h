// Iceberg's metadata tables, with Iceberg's table and column names, as plain rows of JSON:
//
//   snapshots             committed_at, snapshot_id, parent_id, operation, manifest_list, summary
//   history               made_current_at, snapshot_id, parent_id, is_current_ancestor
//   refs                  name, type, snapshot_id, max_reference_age_in_ms, min_snapshots_to_keep,
//                         max_snapshot_age_in_ms
//   manifests             content, path, length, partition_spec_id, added_snapshot_id,
//                         added_data_files_count, existing_data_files_count,
//                         deleted_data_files_count, added_delete_files_count,
//                         existing_delete_files_count, deleted_delete_files_count,
//                         partition_summaries
//   files, data_files,    content, file_path, file_format, spec_id, partition, record_count,
//   delete_files          file_size_in_bytes, column_sizes, value_counts, null_value_counts,
//                         nan_value_counts, lower_bounds, upper_bounds, key_metadata,
//                         split_offsets, equality_ids, sort_order_id, first_row_id,
//                         referenced_data_file, content_offset, content_size_in_bytes,
//                         readable_metrics
//   entries               status, snapshot_id, sequence_number, file_sequence_number, data_file,
//                         readable_metrics
//   partitions            partition, spec_id, record_count, file_count,
//                         total_data_file_size_in_bytes, position_delete_record_count,
//                         position_delete_file_count, equality_delete_record_count,
//                         equality_delete_file_count, last_updated_at, last_updated_snapshot_id
//                         (an unpartitioned table has no partition and spec_id columns)
//   metadata_log_entries  timestamp, file, latest_snapshot_id, latest_schema_id,
//                         latest_sequence_number
//
// JSON forms: timestamps as ISO 8601 text in UTC ("2025-09-26T09:37:23.926000+00:00"), ids and
// counts as numbers, enums as Iceberg's ints (content, status) or names (ref type, file format),
// partition tuples as objects by partition field name with values in Iceberg's JSON single-value
// form, metric maps as objects keyed by field id, binary bounds and key metadata as hex, and
// readable_metrics as {column name: {column_size, value_count, null_value_count,
// nan_value_count, lower_bound, upper_bound}} with bounds decoded to JSON values.
//
// The file-level tables (manifests, files, entries, partitions) read the snapshot the options
// select (current by default) and open only its manifest list and manifests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/file_io.h"
#include "meta/table_metadata.h"
#include "scan/scan_options.h"

namespace floe {

struct MetadataTable {
  std::vector<std::string> columns;
  std::vector<std::vector<nlohmann::json>> rows;  // each parallel to columns

  int ColumnIndex(std::string_view name) const;  // -1 when absent
  // The value of `column` in row `row`; a JSON null when there is no such column.
  const nlohmann::json& At(size_t row, std::string_view column) const;
};

// The names above, in that order.
const std::vector<std::string>& MetadataTableNames();

MetadataTable SnapshotsTable(const TableMetadata& table);
MetadataTable HistoryTable(const TableMetadata& table);
MetadataTable RefsTable(const TableMetadata& table);
// `metadata_location` is the current document's own location, listed last; empty leaves it out.
MetadataTable MetadataLogEntriesTable(const TableMetadata& table, const std::string& metadata_location);

Result<MetadataTable> ManifestsTable(FileIO& io, const TableMetadata& table, const ScanOptions& snapshot);
enum class FilesKind { kAll, kData, kDeletes };
Result<MetadataTable> FilesTable(FileIO& io, const TableMetadata& table, const ScanOptions& snapshot, FilesKind kind);
Result<MetadataTable> EntriesTable(FileIO& io, const TableMetadata& table, const ScanOptions& snapshot);
Result<MetadataTable> PartitionsTable(FileIO& io, const TableMetadata& table, const ScanOptions& snapshot);

// One of the tables by name ("snapshots", "data_files", ...); InvalidArgument naming the known
// tables when the name is not one.
Result<MetadataTable> ReadMetadataTable(FileIO& io, const TableMetadata& table, std::string_view name,
                                        const ScanOptions& snapshot = {}, const std::string& metadata_location = "");

}  // namespace floe
