// Data and delete files as manifests list them, and the manifest entry around each.
#pragma once

#include <cstdint>
#include <map>

#include <optional>
#include <string>
#include <vector>

#include "types/literal.h"
#include "util/flat_map.h"
#include "util/optional_string.h"

namespace floe {

// Field ids of the columns of a position delete file (reserved by the spec).
inline constexpr int kDeleteFilePathFieldId = 2147483546;
inline constexpr int kDeletePosFieldId = 2147483545;

enum class FileContent { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };
enum class FileFormat { kParquet, kAvro, kOrc, kPuffin };

std::string_view FileContentName(FileContent c);  // "DATA", "POSITION_DELETES", "EQUALITY_DELETES"
std::string_view FileFormatName(FileFormat f);    // "PARQUET", "AVRO", "ORC", "PUFFIN"
Result<FileFormat> ParseFileFormat(std::string_view text);  // case-insensitive

struct DataFile {
  FileContent content = FileContent::kData;
  std::string file_path;
  FileFormat file_format = FileFormat::kParquet;
  int spec_id = 0;                 // the partition spec the tuple below follows
  std::vector<Literal> partition;  // one value per field of that spec
  int64_t record_count = 0;
  int64_t file_size_in_bytes = 0;
  // Column metrics keyed by field id; bounds in Iceberg's single-value binary form.
  FlatMap<int, int64_t> column_sizes;
  FlatMap<int, int64_t> value_counts;
  FlatMap<int, int64_t> null_value_counts;
  FlatMap<int, int64_t> nan_value_counts;
  FlatMap<int, std::string> lower_bounds;
  FlatMap<int, std::string> upper_bounds;
  OptionalString key_metadata;  // rare: one pointer, not a 40-byte std::optional
  std::vector<int64_t> split_offsets;
  std::vector<int> equality_ids;  // equality delete files only
  std::optional<int> sort_order_id;
  // v3
  std::optional<int64_t> first_row_id;
  OptionalString referenced_data_file;  // set on delete files only
  std::optional<int64_t> content_offset;
  std::optional<int64_t> content_size_in_bytes;
};

// Is `f` a deletion vector (format 3): a blob of a Puffin file holding the deleted positions of
// the one data file it references?
bool IsDeletionVector(const DataFile& f);
// What tells a content file apart from every other live one of a table: its path, and for a
// deletion vector also the blob's offset, since one Puffin file holds the vectors of many data
// files and each is added and removed on its own.
std::string ContentFileKey(const DataFile& f);

enum class EntryStatus { kExisting = 0, kAdded = 1, kDeleted = 2 };

// A manifest entry. New entries leave snapshot_id and both sequence numbers empty: they are
// inherited from the manifest list when read (DESIGN.md invariant 3), so a retried commit
// reuses its manifests unchanged.
struct ManifestEntry {
  EntryStatus status = EntryStatus::kAdded;
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> sequence_number;       // data sequence number
  std::optional<int64_t> file_sequence_number;
  DataFile file;
};

}  // namespace floe
